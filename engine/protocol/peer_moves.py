"""This seat's game moves: chosen by its player, by a click or by the game's automatic choice,
then completed with commitments and openings."""

from __future__ import annotations

from typing import Any

from engine.core.auto import AutoRules
from engine.core.model import Action, Decision
from engine.fairness import commit as commitments
from engine.protocol.peer_state import (
    PeerState,
)


class Moves(PeerState):
    """This seat's game moves."""

    async def _race(self, decision: Decision) -> bool:
        """Real time: act at most once per state; waiting is fine (the host settles)."""
        seat = self.seat
        if seat is None or seat in self.table.out or seat not in decision.seats:
            return False
        return await self._move_once(("race", self.table.round))

    async def _move_once(self, key: tuple[Any, ...]) -> bool:
        """Choose this seat's move and post it, once for ``key`` (False: nothing to post yet)."""
        if key in self.posted:
            return False
        action = await self._choose()
        if action is None or not self._once(key):
            return False
        await self._post({"t": "action", "action": action})
        return True

    def race_left(self) -> float | None:
        """Seconds left of the current RACE countdown on this peer's clock (None: not racing)."""
        decision = self.table.racing()
        if decision is None:
            return None
        node = len(self.table.log)
        if self.race_since[0] != node or self.table.paused:
            self.race_since = (node, self.clock())
        limit = self.table.timer_for("action")
        return max(0.0, limit - (self.clock() - self.race_since[1]))

    async def _choose(self) -> Action | None:
        table = self.table
        seat = self.seat
        assert seat is not None
        state = table.state
        auto = (seat, table.round) in table.hurried or ("action", table.round) in self._timed_out
        action: Action | None
        if auto and isinstance(self.rules, AutoRules):
            action = self.rules.auto_action(state, seat, self.knowledge)
        else:
            legal = self.rules.legal_actions(state, seat, self.knowledge)
            action = self.submitted
            self.submitted = None
            if action not in legal:  # a stale click from an earlier decision is dropped
                action = None
            if action is None:
                action = await self.player.choose(self.rules, state, seat, self.knowledge, legal)
        if action is None:
            return None
        return self._complete(dict(action))

    def _complete(self, action: Action) -> Action:
        """Turn a sealed choice into commitments and index-only openings into full ones.

        A game offers a secret choice as ``{"seal": [choice, ...]}`` or
        ``{"secret": {"items": [choice, ...]}}``; only the digests leave this peer. An opening
        names a commitment by its index within the seat's latest batch (in ``"open"`` entries, or
        at the top level for a card that leaves face down); this peer adds the nonce and the
        committed item. Keys that show a card go out only once the move is in the log
        (``cardkeys``), so a move that is refused shows nothing.
        """
        table = self.table
        seat = self.seat
        assert seat is not None
        if "seal" in action or "secret" in action:
            sealed = action.pop("seal", None)
            secret = action.pop("secret", None)
            choices = list(sealed if sealed is not None else (secret or {}).get("items", []))
            phase = self.rules.decision(table.state).phase
            context = commitments.CommitContext(self.room, self.game, table.round, phase, seat)
            base = len(table.commits.get(seat, []))
            digests = []
            for i, choice in enumerate(choices):
                digest, opening = commitments.commit(context, choice)
                self.bundle.openings[base + i] = (opening.nonce.hex(), choice)
                digests.append(digest)
            action["commit"] = digests
            if self.on_bundle_change is not None:
                self.on_bundle_change(self.bundle)
        if isinstance(action.get("open"), list):
            action["open"] = [self._opening(item["index"]) for item in action["open"]]
        if "index" in action:
            opened = self._opening(action["index"])
            action.update(nonce=opened["nonce"], item=opened["item"])
        return action

    def _opening(self, index: int) -> dict[str, Any]:
        """Everything the table needs to check this seat's commitment ``index`` of its batch."""
        assert self.seat is not None
        nonce, choice = self.bundle.openings[self.table.batches.get(self.seat, 0) + index]
        return {"index": index, "nonce": nonce, "item": choice}
