"""«Проба» (game id ``toy``): a tiny game that exercises every primitive of the table protocol."""

from .rules import ToyRules

__all__ = ["ToyRules"]
