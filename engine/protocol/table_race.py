"""Moves at a real-time (``Kind.RACE``) node: made on which state, in the public order, and
handed to the game even when made on an earlier state of the same race.

A move whose ``prev`` is older than the current race is stale as before. Within the race the
game decides: a move made on an earlier state goes to ``Rules.apply`` (shown cards first checked
against every card the slot could hold, so a move the game must refuse shows nothing), and the
game's refusal of it is a ``StaleAction`` — the normal outcome of a race, nobody's fault. Plays
made on one state must come in the order of ``race_order.rank``; one that comes after a
later-ranked play on its state is late (refused at the host; sequenced anyway, it names the host).
"""

from __future__ import annotations

from typing import Any

from engine.protocol.errors import IllegalMove, StaleAction
from engine.protocol.race_order import rank
from engine.protocol.table_openings import Openings


class RaceChecks(Openings):
    """Moves at a real-time node."""

    def made_on(self, prev: Any) -> str | None:
        """The base (``race_order``) of a move that follows entry ``prev``, if ``prev`` is an
        entry of the current race; ``None`` otherwise."""
        if not isinstance(prev, str) or self.position(prev) < 0:
            return None
        seq = self.position(prev)
        return self.bases[seq] if seq >= self.race_start else None

    async def _plan_race_action(self, envelope: dict[str, Any], seat: int, name: str) -> Any:
        base = self.made_on(envelope["prev"])
        if base is None:
            raise StaleAction(name, "action was made for an earlier round (stale replay)")
        place = rank(base, seat)
        if self.race_ranks.get(base, "") > place:
            raise StaleAction(
                name,
                "action was made for an earlier round and came after later-ranked plays made "
                "on that state (late)",
            )
        stale = self.position(envelope["prev"]) < self.round_start
        try:
            apply = await self._plan_action(seat, envelope["body"], name, stale=stale)
        except IllegalMove as exc:
            if not stale:
                raise
            raise StaleAction(
                name, f"action was made for an earlier round and the game refuses it ({exc.reason})"
            ) from exc

        def logged() -> None:
            self.race_ranks[base] = max(self.race_ranks.get(base, ""), place)
            apply()

        return logged
