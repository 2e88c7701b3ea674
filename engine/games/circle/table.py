"""``CircleTable``: the omniscient ``LocalTable`` that also opens shown cards.

A «Волшебный круг» move shows the played card face up (``"show": [slot]``); the fair-play table
hands the engine ``"open": [{"slot": s, "card": id}]`` instead. This subclass does the same from
its known deck order (checking that the seat may see the slot), so tests, scenarios, bots and
benchmarks drive the game exactly as a real table does.
"""

from __future__ import annotations

from engine.core.local_table import LocalTable
from engine.core.model import Action, IllegalAction


class CircleTable(LocalTable):
    """``LocalTable`` with ``show`` → ``open`` for face-up plays."""

    def public(self, seat: int, action: Action, phase: str) -> Action:
        if "show" not in action or "open" in action:
            return super().public(seat, action, phase)
        shown = action["show"]
        if not isinstance(shown, list) or len(set(shown)) != len(shown):
            raise IllegalAction("shown slots are malformed")
        visible = self.rules.visible_slots(self.state, seat)
        if any(slot not in visible for slot in shown):
            raise IllegalAction("a shown card is not in the seat's hand")
        out = {k: v for k, v in action.items() if k != "show"}
        out["open"] = [{"slot": slot, "card": self.slot_card[slot]} for slot in shown]
        return out
