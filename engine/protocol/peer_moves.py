"""This seat's game moves: chosen by its player, by a click or by the game's automatic choice,
then completed with commitments and openings.

Clicks queue (``submitted``). In real time they are posted one at a time, in order: the next once
this seat's previous play is in the log and shown, and only if the game would still take it then.
A click made before this seat's own previous play landed is re-stated on the state that play left
(its ``step``, the state it was decided on, moves on with it), so «сдуть сразу дважды» blows twice;
one made before another seat's play keeps its ``step`` and the game judges the crossing. Whatever
is refused or dropped is told to the page (``refused``)."""

from __future__ import annotations

from typing import Any

from engine.core.auto import AutoRules
from engine.core.model import Action, Decision, canonical_json
from engine.fairness import commit as commitments
from engine.protocol.envelope import message_id
from engine.protocol.peer_state import (
    PeerState,
)

MAX_REPOSTS = 3


class Moves(PeerState):
    """This seat's game moves."""

    async def _race(self, decision: Decision) -> bool:
        """Real time: the next queued click, else the player's choice at most once per state;
        waiting is fine (the host settles)."""
        seat = self.seat
        if seat is None or seat in self.table.out or seat not in decision.seats:
            if self.submitted:
                self.submitted.clear()
                self.refused.append("queued moves dropped: this seat cannot play now")
            return False
        if self._own_play_pending():
            return False
        if self.submitted:
            action, made = self.submitted.pop(0)
            restated = self._restate(action, made)
            if restated is None:
                return True
            await self._post({"t": "action", "action": self._complete(dict(restated))})
            return True
        return await self._move_once(("race", self.table.round))

    def _own_play_pending(self) -> bool:
        """A play of this seat is posted and not yet in the log, or logged and not yet shown."""
        if self.seat in self.table.awaiting:
            return True
        posted = any(e["body"].get("t") == "action" for e in self.outbox.values())
        return posted or self.race_queue.holds(self.id)

    def _restate(self, action: Action, made: int) -> Action | None:
        """A queued click as it goes out now, or ``None`` (dropped; the page is told why)."""
        table = self.table
        assert self.seat is not None
        legal = self.rules.legal_actions(table.state, self.seat, self.knowledge)
        if action in legal:
            return action
        since = range(made + 1, table.round + 1)
        if all(r in self.own_rounds for r in since):
            # Only this seat's own plays changed the state since the click: decide it anew there.
            bare = {k: v for k, v in action.items() if k != "step"}
            for candidate in legal:
                if {k: v for k, v in candidate.items() if k != "step"} == bare:
                    return candidate
        why = self._refusal_of(action)
        if why is None:
            return action  # made on an earlier state, and the game still takes it
        self.refused.append(f"queued move dropped: the game refuses it now ({why})")
        return None

    def _refusal_of(self, action: Action) -> str | None:
        """Why the game would refuse this seat's ``action`` now (``None``: it would take it),
        with the cards it shows filled in from what this seat knows."""
        trial = {k: v for k, v in action.items() if k not in ("show", "nonce", "item", "commit")}
        shown = action.get("show")
        if isinstance(shown, list):
            cards = [self.knowledge.cards.get(slot) for slot in shown]
            if any(card is None for card in cards):
                return "a shown card is not this seat's"
            trial["open"] = [{"slot": s, "card": c} for s, c in zip(shown, cards, strict=True)]
        try:
            self.rules.apply(self.table.state, trial)
        except Exception as exc:  # IllegalAction, or a move the rules cannot even read
            return str(exc) or type(exc).__name__
        return None

    async def _own_refusal(self, envelope: Any, why: str) -> None:
        """The host refused this peer's post: a late real-time play that the game would still
        take is posted again on the new state (it was only out of its moment's order); anything
        else is told to the page."""
        body = envelope.get("body") if isinstance(envelope, dict) else None
        action = body.get("action") if isinstance(body, dict) else None
        table = self.table
        if isinstance(action, dict) and table.race_open() is not None:
            key = canonical_json(action)
            tries = self.reposts.get(key, 0)
            if tries < MAX_REPOSTS and self._refusal_of(action) is None:
                self.reposts[key] = tries + 1
                if message_id(envelope) not in table.seen:
                    await self._post({"t": "action", "action": action})
                    return
        self.refused.append(why)

    async def _move_once(self, key: tuple[Any, ...]) -> bool:
        """Choose this seat's move and post it, once for ``key`` (False: nothing to post yet)."""
        if key in self.posted:
            # A second click on a decision whose move is on its way (the page is redrawn when
            # the move's entry comes back): dropped, not kept for this seat's next decision.
            self.submitted.clear()
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
        node = self.table.round
        if self.race_since[0] != node or self.table.paused:
            self.race_since = (node, self.clock())
        limit = self.table.timer_for("action")
        return max(0.0, limit - (self.clock() - self.race_since[1]))

    def race_deadline(self) -> float:
        """The moment (this peer's clock) the current countdown runs out."""
        return self.race_since[1] + self.table.timer_for("action")

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
            # Asked again after every message while a person decides: ``legal_choices``, so a
            # game that builds its moves only as they are read is not made to build them all.
            legal = self.rules.legal_choices(state, seat, self.knowledge)
            action = self.submitted[-1][0] if self.submitted else None
            self.submitted.clear()
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
