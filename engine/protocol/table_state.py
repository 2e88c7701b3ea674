"""The table's state and what follows from it alone: roster, obligations, slot keys and epochs,
leaving and halting, and the engine transitions every kind of entry ends in.

``TableState`` adds what follows from the fields (``table_fields``); the mixins in ``table_*``
add the checks of each kind of message and ``Table`` (``table.py``) puts them together. Nothing
here reads the network or the clock.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.core.model import (
    Action,
    Decision,
    EngineError,
    IllegalAction,
    Kind,
    Knowledge,
    canonical_json,
)
from engine.fairness import sharing
from engine.fairness.deck import (
    DeckTranscript,
    ShuffleSeed,
    check_key,
)
from engine.protocol.envelope import (
    entry_signature_ok,
    genesis_hash,
)
from engine.protocol.errors import IllegalMove, ProtocolError, engine_fault
from engine.protocol.table_fields import Member, TableFields
from engine.protocol.table_values import hex_bytes

# Joint dice a game may roll: every seat commits to a chain with a link per die. Random bots roll
# up to 633 in a six-seat «до двух побед» match of «Схватка» (400 games); a preimage costs at most
# ``randomness.MARK_STRIDE`` hashes whatever the length, so the length is generous.
CHAIN_LENGTH = 4096
# Seconds a seat has at least for an automatic crypto step (a slow device is not withholding).
CRYPTO_TIMER_FLOOR = 60
HOST_ONLY = {
    "start",
    "pause",
    "resume",
    "hurry",
    "kick",
    "timeout",
    "auto",
    "takeover",
    "settle",
    "preimages",
    "reveal",
}


class TableState(TableFields):
    """Deterministic table state; one per peer (the fields, and what follows from them)."""

    def member(self, peer: str) -> Member | None:
        """Roster line of ``peer``."""
        return next((m for m in self.roster if m.peer == peer), None)

    def seat_member(self, seat: int) -> Member:
        """Roster line of the player in ``seat``."""
        return next(m for m in self.roster if m.seat == seat)

    @property
    def seats(self) -> int:
        """Number of player seats."""
        return sum(1 for m in self.roster if m.seat is not None)

    def present(self) -> list[int]:
        """Seats still in the game, in order."""
        return [s for s in range(self.seats) if s not in self.out]

    @property
    def head(self) -> str:
        """Hash of the last entry (or the genesis hash)."""
        return self.hashes[-1] if self.hashes else genesis_hash(self.room, self.game)

    def digest(self) -> str:
        """Hash of the game state and the public table facts: equal on peers with equal logs.

        Everything it covers changes only while an entry is accepted, so it is computed once per
        (head, stage, table facts) and kept: a page shows it on every redraw."""
        key = self._digest_key()
        if self._digest is not None and self._digest[0] == key:
            return self._digest[1]
        facts: dict[str, Any] = {
            "head": self.head,
            "stage": self.stage,
            "out": {str(k): v for k, v in sorted(self.out.items())},
            "blame": {str(k): v for k, v in sorted(self.blame.items())},
            "revealed": {str(k): v for k, v in sorted(self.revealed.items())},
            "state": self.rules.state_hash(self.state) if self.state is not None else None,
        }
        if self.awaiting:
            facts["awaiting"] = sorted(self.awaiting)
        if self.epochs:
            facts["epochs"] = {str(k): v for k, v in sorted(self.epochs.items())}
        digest = hashlib.sha256(canonical_json(facts)).hexdigest()
        self._digest = (key, digest)
        return digest

    def known_digest(self) -> str | None:
        """``digest`` if it is already computed for the table as it is now, else None (a page
        computes it when it is idle, not in the redraw of every entry)."""
        if self._digest is not None and self._digest[0] == self._digest_key():
            return self._digest[1]
        return None

    def _digest_key(self) -> tuple[Any, ...]:
        return (
            self.head, self.stage, len(self.out), len(self.blame), len(self.revealed),
            len(self.epochs), self.reshuffling,
        )  # fmt: skip

    def _shuffle_turn(self) -> dict[int, str]:
        """The seat whose shuffle pass is next."""
        first = next(iter(self.decks.values()), None)
        if first is None:
            return {}
        if self.stage == "shuffle1":
            done, key = len(first.pass1), "pass1"
        else:
            done, key = len(first.pass2), "pass2"
        return {done: key} if done < self.seats else {}

    def _reshuffle_turn(self) -> dict[int, str]:
        """Whose pass of the running re-shuffle is next (``reshuffle1 r``, ``reshuffle2 r``)."""
        if self.reshuffling is None:
            return {}
        transcript = self.reshuffles[self.reshuffling]
        seats, epoch = transcript.seats, transcript.epoch
        if transcript.hidden and len(transcript.pass0) < len(seats):
            return {seats[len(transcript.pass0)]: f"reshuffle0 {epoch}"}
        if len(transcript.pass1) < len(seats):
            return {seats[len(transcript.pass1)]: f"reshuffle1 {epoch}"}
        if len(transcript.pass2) < len(seats):
            return {seats[len(transcript.pass2)]: f"reshuffle2 {epoch}"}
        return {}

    def pending_deliveries(self) -> dict[tuple[int, int], list[int]]:
        """``(giver, receiver) → slots`` still owed, for present givers and receivers (kept
        until the state, the deliveries, the reveals or the seats change: it is asked often)."""
        if self.stage != "play":
            return {}
        key = (len(self.given), len(self.revealed), len(self.out), len(self.epochs))
        cached = self._owed
        if cached is not None and cached[0] is self.state and cached[1] == key:
            return {pair: list(slots) for pair, slots in cached[2].items()}
        owed = self._owed_now()
        self._owed = (self.state, key, owed)
        return {pair: list(slots) for pair, slots in owed.items()}

    def _owed_now(self) -> dict[tuple[int, int], list[int]]:
        owed: dict[tuple[int, int], list[int]] = {}
        present = self.present()
        for receiver in present:
            for slot in sorted(self.rules.visible_slots(self.state, receiver)):
                if slot in self.revealed:
                    continue
                for giver in present:
                    if giver != receiver and (giver, receiver, slot) not in self.given:
                        owed.setdefault((giver, receiver), []).append(slot)
        return owed

    def escrow_pending(self) -> list[int]:
        """Seats out of the game whose secrets are not recovered yet."""
        if self.stage not in ("play", "audit"):
            return []
        return [s for s in sorted(self.out) if s not in self.recovered]

    @property
    def threshold(self) -> int:
        """Shares that rebuild one seat's escrow secret (0: this table shares nothing)."""
        return sharing.threshold(self.seats)

    def recovery_owed(self, departed: int) -> list[int]:
        """Present seats that have not yet posted their share of ``departed``'s secret."""
        posted = self.recovery.get(departed, {})
        return [s for s in self.present() if s != departed and s not in posted]

    def recoverable(self, departed: int) -> bool:
        """Whether enough shares of ``departed``'s secret are posted or can still come."""
        posted = len(self.recovery.get(departed, {}))
        return self.threshold > 0 and posted + len(self.recovery_owed(departed)) >= self.threshold

    async def host_signed(self, host: Member, seq: Any, digest: Any, signature: Any) -> bool:
        """Whether ``signature`` is ``host``'s signature of entry ``seq`` with hash ``digest`` of
        this table's room and game (``entry_signature_ok``)."""
        return await entry_signature_ok(
            self.backend, host.sign, self.room, self.game, seq, digest, signature
        )

    def _phase_timers(self) -> dict[str, int]:
        """The game's timers by phase (``config["timers"]``), those that are whole seconds."""
        timers = self.config.get("timers") if isinstance(self.config, dict) else None
        if not isinstance(timers, dict):
            return {}
        return {phase: t for phase, t in timers.items() if isinstance(t, int)}

    def timer_for(self, owed: str) -> int:
        """Seconds a seat has for what it owes: a move gets the game's timer for its phase
        (``config["timers"][phase]``, else the table timer); automatic crypto steps get
        ``CRYPTO_TIMER_FLOOR`` at least, so a slow device is not mistaken for a withholding one."""
        if owed != "action":
            return max(CRYPTO_TIMER_FLOOR, self.timer)
        phase = self.rules.decision(self.state).phase if self.state is not None else ""
        timer = self._phase_timers().get(phase)
        return max(1, timer) if timer is not None else self.timer

    def longest_timer(self) -> int:
        """The longest ``timer_for`` can give, whatever is owed."""
        return max(CRYPTO_TIMER_FLOOR, self.timer, *self._phase_timers().values())

    def racing(self) -> Decision | None:
        """The RACE decision the game is at (real time), if it is at one and play may go on."""
        if self.stage != "play" or self.state is None or self._blocked():
            return None
        decision = self.rules.decision(self.state)
        return decision if decision.kind == Kind.RACE else None

    def race_open(self) -> Decision | None:
        """The RACE decision plays may be posted at: racing, or only waiting for a logged play
        to show its cards (the host holds what comes meanwhile)."""
        if self.stage != "play" or self.state is None:
            return None
        if self.escrow_pending() or self.pending_deliveries():
            return None
        decision = self.rules.decision(self.state)
        return decision if decision.kind == Kind.RACE else None

    def racing_node(self) -> bool:
        """True at a real-time node of the game (whatever blocks it right now)."""
        if self.stage != "play" or self.state is None:
            return False
        return self.rules.decision(self.state).kind == Kind.RACE

    def obligations(self) -> dict[int, str]:
        """What each seat must post now (one item per seat), for timers and for the driver."""
        requests: dict[int, str] = {}
        for dealer, holder in self.share_requests:
            if dealer not in self.out:
                requests.setdefault(dealer, f"share {holder}")
        base = self._stage_obligations()
        base.update(requests)
        return base

    def _stage_obligations(self) -> dict[int, str]:
        result: dict[int, str] = {}
        present = self.present()
        if self.stage == "chains":
            return {s: "chain" for s in present if s not in self.tips}
        if self.stage in ("shuffle1", "shuffle2"):
            return self._shuffle_turn()
        if self.stage not in ("play", "audit"):
            return result
        pending_escrow = self.escrow_pending()
        if pending_escrow and present:
            departed = pending_escrow[0]
            return {s: f"escrow {departed}" for s in self.recovery_owed(departed)}
        if self.stage == "audit":
            return {s: "audit" for s in present if s not in self.audits}
        owed = self.pending_deliveries()
        if owed:
            for giver, receiver in sorted(owed):
                result.setdefault(giver, f"deliver {receiver}")
            return result
        if self.awaiting:
            waiting = {s: "cardkeys" for s in self.awaiting}
            if self._blocked():
                return waiting
        decision = self.rules.decision(self.state)
        if self.awaiting:
            return {**{s: "action" for s in decision.seats}, **waiting}
        if decision.kind == Kind.CHANCE:
            return {s: "preimage" for s in present if s not in self.preimages}
        if decision.kind == Kind.REVEAL:
            return {s: "keys" for s in present if s not in self.reveal_keys}
        if decision.kind == Kind.RESHUFFLE:
            return self._reshuffle_turn()
        if decision.kind in (Kind.MOVE, Kind.SIMULTANEOUS):
            return {s: "action" for s in decision.seats}
        # RACE: nobody owes anything; the host settles after the quiet countdown.
        return result

    def _blocked(self) -> bool:
        """Whether the game must wait: escrow, deliveries, or a logged move still to show its
        cards (at a simultaneous node the other seats' moves go on meanwhile)."""
        if self.escrow_pending() or self.pending_deliveries():
            return True
        return bool(self.awaiting) and self.rules.decision(self.state).kind != Kind.SIMULTANEOUS

    def position(self, digest: Any) -> int:
        """The log index of the entry with hash ``digest`` (-1: not in this log)."""
        return self.positions.get(digest, -1) if isinstance(digest, str) else -1

    def successor(self) -> str:
        """The peer that takes over sequencing when the present seats depose the host: the next
        roster member after it that has not left."""
        order = [m.peer for m in self.roster]
        current = self.host or order[0]
        index = order.index(current)
        for step in range(1, len(order)):
            member = self.roster[(index + step) % len(order)]
            if member.seat is None or member.seat not in self.out:
                return member.peer
        return current

    def voters(self) -> list[str]:
        """The peers whose votes can depose the host: present seats other than the host."""
        host = self.host or self.roster[0].peer
        return [
            m.peer
            for m in self.roster
            if m.seat is not None and m.seat not in self.out and m.peer != host
        ]

    def _leave(self, seat: int, reason: str, blamed: bool) -> None:
        self.out[seat] = reason
        if blamed:
            self.blame.setdefault(seat, reason)
        self.preimages.pop(seat, None)
        self.reveal_keys.pop(seat, None)
        self.awaiting.pop(seat, None)  # its move is void: the log chooses for the absent seat
        running = self.reshuffling
        if running is not None and seat in self.reshuffles[running].seats:
            # A re-shuffle cannot finish without the departed seat's passes: it is abandoned
            # (kept for the audit) and a fresh one, with a new epoch, starts among those present.
            self.reshuffling = None

    def _halt(self, seat: int | None, reason: str) -> None:
        if seat is not None:
            self.blame.setdefault(seat, reason)
        self.stage = "halted"
        if self.result is None:
            self.result = {"aborted": reason}

    def epoch(self, slot: int) -> int:
        """The slot's current epoch: 0 after the initial shuffle, r after re-shuffle r."""
        return self.epochs.get(slot, 0)

    def _shuffle_of(self, slot: int, epoch: int | None) -> tuple[DeckTranscript, int]:
        """The transcript that last keyed ``slot`` (at ``epoch``: that one) and its position."""
        epoch = self.epoch(slot) if epoch is None else epoch
        if epoch == 0:
            transcript = self.decks[self.layout.deck_of(slot)]
            return transcript, slot - transcript.first_slot
        if not 0 < epoch <= len(self.reshuffles):
            raise KeyError(f"no re-shuffle {epoch}")
        transcript = self.reshuffles[epoch - 1]
        return transcript, transcript.slots.index(slot)

    def slot_seats(self, slot: int, epoch: int | None = None) -> list[int]:
        """The seats whose keys mask ``slot`` (those of its latest shuffle)."""
        return self._shuffle_of(slot, epoch)[0].seat_numbers(self.seats)

    def slot_commitment(self, seat: int, slot: int, epoch: int | None = None) -> str:
        """Seat's published commitment to its key for ``slot`` (at its current epoch)."""
        transcript, position = self._shuffle_of(slot, epoch)
        return transcript.commitments[transcript.seat_numbers(self.seats).index(seat)][position]

    def final_x(self, slot: int, epoch: int | None = None) -> int:
        """The fully keyed x-coordinate of a slot (at its current epoch)."""
        transcript, position = self._shuffle_of(slot, epoch)
        return transcript.final[position]

    def slot_key_of(self, seed: ShuffleSeed, slot: int) -> int:
        """The key a seed gives ``slot`` at its current epoch."""
        return seed.slot_key(slot, self.epoch(slot))

    def _slot_keys(self, slot: int, raw_keys: Any, name: str) -> list[int]:
        """Every seat's key for ``slot`` (recovered ones from escrow), each checked against the
        commitment that seat published when it shuffled."""
        if not isinstance(raw_keys, dict):
            raise ProtocolError(name, "opening carries no slot keys")
        keys = []
        for owner in self.slot_seats(slot):
            if owner in self.recovered:
                keys.append(self.slot_key_of(self.recovered[owner], slot))
                continue
            key = int.from_bytes(hex_bytes(raw_keys.get(str(owner)), 32, name, "slot key"), "big")
            if not check_key(
                self.room, self.game, owner, slot, key, self.slot_commitment(owner, slot)
            ):
                raise ProtocolError(
                    name, f"slot {slot}: key of seat {owner} does not match its commitment"
                )
            keys.append(key)
        return keys

    def _engine_apply(
        self,
        action: Action,
        name: str,
        commits: Any,
        seat: int,
        points: dict[int, int] | None = None,
    ) -> Any:
        try:
            new_state = self.rules.apply(self.state, action)
        except IllegalAction as exc:
            raise IllegalMove(name, f"illegal move: {exc}") from exc
        except EngineError as exc:
            # The rules failed, not the mover: every peer meets it alike and halts, blaming no one.
            reason = engine_fault(exc)
            return lambda: self._halt(None, reason)

        def apply() -> None:
            if commits:
                phase = self.rules.decision(self.state).phase
                self.batches[seat] = len(self.commits.get(seat, []))
                self.commits.setdefault(seat, []).extend((c, self.round, phase) for c in commits)
            for item in action.get("open", []) or []:
                if isinstance(item, dict) and item.get("card") is not None:
                    self.revealed[item["slot"]] = item["card"]
                    if points and item["slot"] in points:
                        self.points[item["slot"]] = points[item["slot"]]
            self.state = new_state
            self._new_node(seat)
            self.last_move = (seat, self.round)

        return apply

    def _new_node(self, acted: int | None = None) -> None:
        """Start a new round when the game is at a new decision: another kind or phase, any
        one-at-a-time node, or a simultaneous one that, after a seat's move, waits on other
        seats than the rest of the call it was in (the same phase twice in a row: a new call,
        not the rest of the old one — whether it wants the mover again or not)."""
        decision = self.rules.decision(self.state)
        node = (str(decision.kind), decision.phase)
        waiting = frozenset(decision.seats)
        again = (
            decision.kind == Kind.SIMULTANEOUS
            and acted is not None
            and waiting != self.node_waiting - {acted}
        )
        self.node_waiting = waiting
        if (
            again
            or node != self.node
            or decision.kind
            in (
                Kind.MOVE,
                Kind.REVEAL,
                Kind.RESHUFFLE,
                Kind.RACE,
            )
        ):
            if decision.kind == Kind.RACE and node != self.node:
                self.race_start = len(self.log) - 1
                self.race_ranks = {}
            self.node = node
            self.round += 1
            self.round_start = len(self.log) - 1

    def _apply_table_action(self, action: Action) -> None:
        try:
            self.state = self.rules.apply(self.state, action)
        except EngineError as exc:
            self._halt(None, engine_fault(exc))
            return
        self._new_node()

    def knowledge_template(self, seat: int | None) -> Knowledge:
        """Empty knowledge for a seat."""
        return Knowledge(seat)

    async def _advance(self) -> None:
        """Table-made steps once every contribution is in (``Table``)."""
        raise NotImplementedError
