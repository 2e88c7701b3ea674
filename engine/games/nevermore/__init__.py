"""«Невермор» (game id ``nevermore``): drafting suits, resolution tokens, ravens and magic."""

from .rules import NevermoreRules

__all__ = ["NevermoreRules"]
