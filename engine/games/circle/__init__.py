"""«Волшебный круг»: spells fly round the table, the players blow them on with winds."""

from .rules import CircleRules

__all__ = ["CircleRules"]
