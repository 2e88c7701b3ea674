"""Moves, and the secrets they open: each opening is checked against what its seat committed;
a move that shows cards is logged first and shown by its author's ``cardkeys`` after."""

from __future__ import annotations

from typing import Any

from engine.core.model import (
    Kind,
)
from engine.fairness import commit as commitments
from engine.fairness.deck import (
    unmask_points,
)
from engine.protocol.errors import IllegalMove, ProtocolError, StaleAction
from engine.protocol.table_fields import Awaiting
from engine.protocol.table_state import TableState
from engine.protocol.table_values import committed_fields, opened_slot


class Openings(TableState):
    """Moves, and the secrets they open."""

    async def _plan_action(
        self, seat: int, body: dict[str, Any], name: str, stale: bool = False
    ) -> Any:
        """A move; ``stale``: made on an earlier state of the running race (``table_race``)."""
        if self.stage != "play" or self._blocked():
            if self.awaiting and self.racing_node():
                raise StaleAction(name, "another play is being shown: the state is moving on")
            raise ProtocolError(name, "no game move expected now (deliveries pending)")
        action = body.get("action")
        if not isinstance(action, dict) or action.get("seat") != seat:
            raise ProtocolError(name, "action must be an object for the author's own seat")
        if action.get("type") in ("chance", "reveal", "reshuffled", "settle"):
            raise ProtocolError(name, "chance, reveal and reshuffles come from the table only")
        if "keys" in action or "card" in action or "point" in action:
            raise ProtocolError(name, "cards are shown only after the move is in the log")
        decision = self.rules.decision(self.state)
        acting = (Kind.MOVE, Kind.SIMULTANEOUS, Kind.RACE)
        if decision.kind not in acting or seat not in decision.seats:
            raise ProtocolError(name, f"seat {seat} may not act now (out of turn)")
        if seat in self.awaiting:
            raise ProtocolError(name, "this seat's logged move still waits for its cards")
        commits = action.get("commit")
        if commits is not None and (
            not isinstance(commits, list)
            or len(commits) > 64
            or not all(commitments.is_digest(c) for c in commits)
        ):
            raise ProtocolError(name, "commitments are malformed")
        engine_action = {
            k: v for k, v in action.items() if k not in ("nonce", "item", "show", "open")
        }
        opened: list[dict[str, Any]] | None = None
        if "show" in action:
            shown = self._check_shown(seat, action["show"], name)
            opened = [{"slot": slot, "card": None} for slot in shown]
        elif "open" in action:
            opened = self._check_openings(seat, action["open"], name)
        if opened is not None:
            engine_action["open"] = opened
        if "index" in action:
            # A top-level index names a commitment opened without showing its card (a card
            # leaving a closed spell face down): its committed fields join the move, but they may
            # neither replace what the move says nor speak for the table.
            fields = committed_fields(self._verify_opening(seat, action, name), name)
            for key, value in fields.items():
                if key in engine_action and engine_action[key] != value:
                    raise ProtocolError(name, f"opening disagrees with the move on {key!r}")
            engine_action.update(fields)
        base = self.batches.get(seat, 0)
        records = [
            (seat, base + item["index"], item["nonce"], item["item"])
            for item in [*action.get("open", []), *([action] if "index" in action else [])]
            if "show" not in action
        ]
        hidden = [item["slot"] for item in opened or [] if "card" in item]
        if hidden:
            # Commit, sequence, open: the move is fixed in the log first; its cards are shown by
            # a later ``cardkeys`` message, so nobody learns a card from a move that is refused.
            if stale:
                self._check_some_card_plays(seat, engine_action, hidden, name)
            waiting = Awaiting(
                seat, engine_action, list(commits or []), hidden, len(self.log), stale
            )

            def wait() -> None:
                self.opened_items.extend(records)
                self.awaiting[seat] = waiting

            return wait
        apply = self._engine_apply(engine_action, name, commits=commits, seat=seat)

        def applied() -> None:
            self.opened_items.extend(records)
            apply()

        return applied

    async def _plan_cardkeys(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """The author of a logged move shows its cards: every seat's key of each slot, checked
        against the commitments; a card the move could not play puts the author out, blamed."""
        waiting = self.awaiting.get(seat)
        if waiting is None or self.escrow_pending():
            raise ProtocolError(name, "no logged move of this seat waits for its cards")
        raw = body.get("keys")
        if not isinstance(raw, dict) or sorted(raw) != sorted(str(s) for s in waiting.slots):
            raise ProtocolError(name, "keys must cover exactly the slots the move shows")
        items = [(self.final_x(s), self._slot_keys(s, raw[str(s)], name)) for s in waiting.slots]
        xs = await unmask_points(self.backend, items)
        cards: dict[int, str] = {}
        for slot, x in zip(waiting.slots, xs, strict=True):
            card = self.cards.get(x)
            if card is None:
                raise ProtocolError(name, f"slot {slot} unmasks to no card: audit needed")
            cards[slot] = card
        action = dict(waiting.action)
        action["open"] = [
            {**item, "card": cards[item["slot"]]} if "card" in item else item
            for item in waiting.action.get("open", [])
        ]
        points = dict(zip(waiting.slots, xs, strict=True))
        try:
            apply = self._engine_apply(
                action, name, commits=waiting.commits, seat=seat, points=points
            )
        except ProtocolError as exc:
            if waiting.stale:
                # Made on an earlier state of the race: a late play, void and nobody's fault.
                late = f"the game refuses the late move ({exc.reason})"

                def void() -> None:
                    self.awaiting.pop(seat, None)
                    self.voided.append((seat, waiting.seq, late))

                return void
            reason = f"showed a card its move could not play ({exc.reason})"

            def refuse() -> None:
                self.awaiting.pop(seat, None)
                self._leave(seat, reason, blamed=True)

            return refuse

        def shown() -> None:
            self.awaiting.pop(seat, None)
            apply()

        return shown

    def _check_some_card_plays(
        self, seat: int, action: dict[str, Any], hidden: list[int], name: str
    ) -> None:
        """A late move showing one card goes into the log only if some card of the decks could
        make it legal now: a move the game must refuse whatever the card shows nothing."""
        if len(hidden) != 1:
            return
        first: IllegalMove | None = None
        for card in sorted(set(self.cards.values())):
            trial = dict(action)
            trial["open"] = [
                {**item, "card": card} if item.get("slot") == hidden[0] else item
                for item in action.get("open", [])
            ]
            try:
                self._engine_apply(trial, name, commits=None, seat=seat)
                return
            except IllegalMove as exc:
                first = first or exc
        if first is not None:
            raise first

    def _verify_opening(self, seat: int, item: dict[str, Any], name: str) -> Any:
        """The committed choice behind one opening (``index`` within the seat's latest batch,
        ``nonce`` and ``item``); refused unless it is exactly what this seat committed there."""
        made = self.commits.get(seat, [])
        index = item.get("index")
        base = self.batches.get(seat, 0)
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= base + index < len(made)
        ):
            raise ProtocolError(name, "opening names no commitment of this seat")
        digest, made_round, phase = made[base + index]
        context = commitments.CommitContext(self.room, self.game, made_round, phase, seat)
        nonce_hex = item.get("nonce")
        if not isinstance(nonce_hex, str) or len(nonce_hex) != 64 or "item" not in item:
            raise ProtocolError(name, "opening needs the nonce and the committed item")
        try:
            nonce = bytes.fromhex(nonce_hex)
        except ValueError as exc:
            raise ProtocolError(name, "opening nonce is not hex") from exc
        choice = item["item"]
        try:
            matches = commitments.verify(context, digest, commitments.Opening(nonce, choice))
        except (TypeError, ValueError) as exc:
            raise ProtocolError(name, "opening item is not canonical JSON") from exc
        if not matches:
            raise ProtocolError(name, f"opening {index} does not match the commitment")
        slot = opened_slot(choice)
        if slot is not None and not 0 <= slot < self.layout.total:
            raise ProtocolError(name, "opened slot does not exist")
        return choice

    def _check_shown(self, seat: int, shown: Any, name: str) -> list[int]:
        """Slots shown face up from a hand: distinct, still face down, and seen by the mover."""
        if not (isinstance(shown, list) and 0 < len(shown) <= 16):
            raise ProtocolError(name, "shown cards are malformed")
        if len(set(map(str, shown))) != len(shown):
            raise ProtocolError(name, "a card is shown twice")
        for slot in shown:
            if not isinstance(slot, int) or isinstance(slot, bool):
                raise ProtocolError(name, "shown slot does not exist")
            if not 0 <= slot < self.layout.total:
                raise ProtocolError(name, "shown slot does not exist")
            if slot in self.revealed:
                raise ProtocolError(name, f"slot {slot} is face up already")
            if slot not in self.rules.visible_slots(self.state, seat):
                raise ProtocolError(name, f"slot {slot} is not a card this seat holds")
        return list(shown)

    def _check_openings(self, seat: int, openings: Any, name: str) -> list[dict[str, Any]]:
        """Each opening checked against this seat's commitment; a card item gets ``card: None``
        (its card comes with the keys, after the move is logged)."""
        if not isinstance(openings, list) or len(openings) > 64:
            raise ProtocolError(name, "openings are malformed")
        checked: list[dict[str, Any]] = []
        seen: set[int] = set()
        for item in openings:
            if not isinstance(item, dict) or set(item) - {"index", "nonce", "item"}:
                raise ProtocolError(name, "an opening is the index, the nonce and the item only")
            choice = self._verify_opening(seat, item, name)
            index = item["index"]
            if index in seen:
                raise ProtocolError(name, "a commitment is opened twice in one move")
            seen.add(index)
            slot = opened_slot(choice)
            fields = committed_fields(choice, name)
            if slot is None:
                checked.append({**fields, "index": index})
            else:
                if slot in self.revealed:
                    raise ProtocolError(name, f"slot {slot} is face up already")
                if slot not in self.rules.visible_slots(self.state, seat):
                    raise ProtocolError(name, f"slot {slot} is not a card this seat holds")
                checked.append({**fields, "slot": slot, "index": index, "card": None})
        return checked
