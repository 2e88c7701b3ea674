"""«Схватка» (game id ``rumble``): battle wizards, secret spells, creatures, Palace, diseases."""

from .rules import RumbleRules

__all__ = ["RumbleRules"]
