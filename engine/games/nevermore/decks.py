"""«Невермор» flow, part 2: re-shuffles — a pile topped up with its discards, the main deck
gathered between rounds, the tokens laid face down."""

from __future__ import annotations

from typing import Any

from .agenda import Agenda
from .state import PileName, Task
from .table import (
    G,
    discards,
    log,
    pile_slots,
)


class Decks(Agenda):
    """re-shuffles — a pile topped up with its discards, the main deck"""

    def reshuffle(
        self, g: G, pile: PileName, slots: list[int], what: str, ctx: dict[str, Any]
    ) -> None:
        """Ask the table to re-shuffle ``slots`` of ``pile`` (all public); continues in
        ``s_<what>``."""
        g["need"] = {
            "kind": "reshuffle",
            "phase": what,
            "seats": [],
            "slots": sorted(slots),
            "what": what,
            "ctx": ctx,
            "deck": pile,
        }

    def shuffle_back(self, g: G, pile: PileName, slots: list[int], what: str) -> None:
        """Re-shuffle the slots, shown or not (the table keeps unseen cards unseen);
        ``s_<what>`` puts them back into the pile."""
        ordered = sorted(slots)
        self.reshuffle(g, pile, ordered, what, {"pile": pile, "slots": ordered, "what": what})

    def restock_first(self, g: G, task: Task, pile: PileName, count: int) -> bool:
        """True (and a restock queued before ``task`` runs again) when ``count`` draws would run
        ``pile`` dry while its discards could make a new deck (seed: «Если в какой-либо колоде
        закончились карты, перемешайте все сброшенные карты»)."""
        if count <= len(g["piles"][pile]["draw"]) or not discards(g, pile):
            return False
        self.push(g, {"k": "restock", "pile": pile}, task)
        return True

    def t_restock(self, g: G, task: Task) -> None:
        pile = task["pile"]
        slots = discards(g, pile)
        if slots:
            self.shuffle_back(g, pile, slots, "restock")

    def s_restock(self, g: G, ctx: dict[str, Any]) -> None:
        self.back_in_pile(g, ctx["pile"], ctx["slots"])
        log(g, "restock", pile=ctx["pile"])

    def t_new_deck(self, g: G, task: Task) -> None:
        """The main deck gathered and re-shuffled for the next round (every card of it is out of
        play between rounds: undrawn, or in the discard)."""
        out = set(discards(g, "main")) | set(g["piles"]["main"]["draw"])
        slots = [s for s in pile_slots(g, "main") if s in out]
        if slots:
            self.shuffle_back(g, "main", slots, "new_deck")

    def t_new_tokens(self, g: G, task: Task) -> None:
        self.shuffle_back(g, "tokens", pile_slots(g, "tokens"), "new_tokens")

    def s_new_tokens(self, g: G, ctx: dict[str, Any]) -> None:
        self.back_in_pile(g, "tokens", ctx["slots"])
        log(g, "new_tokens")

    def s_new_deck(self, g: G, ctx: dict[str, Any]) -> None:
        self.back_in_pile(g, "main", ctx["slots"])
        log(g, "new_deck")

    @staticmethod
    def back_in_pile(g: G, pile: PileName, slots: list[int]) -> None:
        """Re-shuffled slots leave the discard and go under the pile, ascending."""
        gone = set(slots)
        g["discard"] = [s for s in g["discard"] if s not in gone]
        order = g["piles"][pile]["draw"]
        g["piles"][pile]["draw"] = [s for s in order if s not in gone] + sorted(slots)
        g["piles"][pile]["shuffles"] += 1
