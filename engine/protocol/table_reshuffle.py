"""Mid-game re-shuffles (``Kind.RESHUFFLE``): pass 0 for never-revealed slots, then the two
usual passes with keys of the re-shuffle's epoch."""

from __future__ import annotations

from typing import Any

from engine.core.model import (
    Decision,
)
from engine.fairness import commit as commitments
from engine.fairness import curve
from engine.fairness.deck import (
    DeckError,
    DeckTranscript,
    check_deck_shape,
    check_xs,
)
from engine.protocol.errors import ProtocolError
from engine.protocol.pace import in_slices
from engine.protocol.table_state import (
    TableState,
)


class Reshuffles(TableState):
    """Mid-game re-shuffles (``Kind.RESHUFFLE``)."""

    async def _advance_reshuffle(self, decision: Decision) -> None:
        """Start the re-shuffle the game asks for, or finish it once every pass is in."""
        if self.reshuffling is None:
            slots = sorted(decision.slots)
            problem = self._reshuffle_problem(decision.deck, slots)
            if problem:
                self.stage = "halted"
                self.result = {"aborted": f"the game asked for an impossible re-shuffle: {problem}"}
                return
            if not slots:
                self._apply_table_action({"type": "reshuffled", "slots": []})
                await self._advance()
                return
            epoch = len(self.reshuffles) + 1
            present = self.present()
            initial, hidden = await self._reshuffle_input(slots, present)
            self.reshuffles.append(
                DeckTranscript(
                    decision.deck,
                    slots[0],
                    initial,
                    [],
                    [],
                    [],
                    epoch=epoch,
                    slots=slots,
                    seats=present,
                    hidden=hidden,
                )
            )
            self.reshuffling = epoch - 1
            return
        transcript = self.reshuffles[self.reshuffling]
        if not transcript.complete(self.seats):
            return
        self.reshuffling = None
        slots = transcript.slots
        for slot in slots:
            if slot in self.points:
                self.past_reveals.append((slot, self.epoch(slot), self.points.pop(slot)))
            self.revealed.pop(slot, None)
            self.epochs[slot] = transcript.epoch
        gone = set(slots)
        self.given = {g for g in self.given if g[2] not in gone}
        self._apply_table_action({"type": "reshuffled", "slots": list(slots)})
        await self._advance()

    def _reshuffle_problem(self, deck: str, slots: list[int]) -> str:
        """Why the table cannot re-shuffle ``slots`` of ``deck`` (empty: it can)."""
        if deck not in self.decks:
            return f"{deck!r} is no hidden deck"
        if len(set(slots)) != len(slots):
            return "a slot is listed twice"
        for slot in slots:
            if not 0 <= slot < self.layout.total or self.layout.deck_of(slot) != deck:
                return f"slot {slot} is not in deck {deck!r}"
        return ""

    async def _reshuffle_input(
        self, slots: list[int], present: list[int]
    ) -> tuple[list[int], dict[int, int]]:
        """The points a re-shuffle starts from: a revealed slot's card point, and for a slot never
        revealed its masked point with the keys of seats no longer present taken off (their seeds
        are public from the escrow), so pass 0 has only present seats' keys to swap."""
        initial: list[int] = []
        hidden: dict[int, int] = {}
        strip: list[tuple[int, int]] = []
        for j, slot in enumerate(slots):
            if slot in self.points:
                initial.append(self.points[slot])
                continue
            old = self.epoch(slot)
            hidden[j] = old
            total = 1
            for seat in self.slot_seats(slot, old):
                if seat not in present:
                    total = total * self.slot_key_of(self.recovered[seat], slot) % curve.N
            initial.append(self.final_x(slot, old))
            if total != 1:
                strip.append((j, total))
        if strip:
            xs = await self.backend.mult_many(
                [(pow(total, -1, curve.N), initial[j]) for j, total in strip]
            )
            for (j, _), x in zip(strip, xs, strict=True):
                initial[j] = x
        return initial, hidden

    async def _expect_reshuffle(
        self, which: int, seat: int, body: dict[str, Any], name: str
    ) -> Any:
        """The running re-shuffle, if ``seat`` owes pass ``which`` of it now, and the pass's
        x-coordinates, checked a few points per browser task (a Legendre symbol each)."""
        running = self.reshuffling
        if self.stage != "play" or self._blocked() or running is None:
            raise ProtocolError(name, "no re-shuffle is running")
        transcript = self.reshuffles[running]
        if body.get("r") != transcript.epoch:
            raise ProtocolError(name, "re-shuffle pass for another re-shuffle")
        if self._reshuffle_turn().get(seat) != f"reshuffle{which} {transcript.epoch}":
            raise ProtocolError(name, f"it is not seat {seat}'s turn to re-shuffle")
        values = body.get("xs")
        size = len(transcript.slots)
        if not isinstance(values, list) or not all(
            isinstance(v, str) and len(v) == 64 for v in values
        ):
            raise ProtocolError(name, "re-shuffle pass is not a list of x-coordinates")
        try:
            xs = [int(v, 16) for v in values]
            check_deck_shape(xs, size, seat)
            async for part in in_slices(xs):
                check_xs(part, seat)
        except (ValueError, DeckError) as exc:
            raise ProtocolError(name, f"re-shuffle {transcript.epoch}: {exc}") from exc
        return transcript, xs

    async def _plan_reshuffle0(self, seat: int, body: dict[str, Any], name: str) -> Any:
        transcript, xs = await self._expect_reshuffle(0, seat, body, name)
        return lambda: transcript.pass0.append(xs)

    async def _plan_reshuffle1(self, seat: int, body: dict[str, Any], name: str) -> Any:
        transcript, xs = await self._expect_reshuffle(1, seat, body, name)
        return lambda: transcript.pass1.append(xs)

    async def _plan_reshuffle2(self, seat: int, body: dict[str, Any], name: str) -> Any:
        transcript, xs = await self._expect_reshuffle(2, seat, body, name)
        commits = body.get("commits")
        slots = transcript.slots
        if (
            not isinstance(commits, list)
            or len(commits) != len(slots)
            or not all(commitments.is_digest(c) for c in commits)
            or len(set(commits)) != len(commits)
        ):
            raise ProtocolError(name, "re-shuffle slot-key commitments are malformed")
        for slot, digest in zip(slots, commits, strict=True):
            for epoch in self._epochs_of(slot, seat):
                if self.slot_commitment(seat, slot, epoch) == digest:
                    raise ProtocolError(
                        name, f"slot {slot}: re-uses its key of epoch {epoch} (keys must be fresh)"
                    )

        def apply() -> None:
            transcript.pass2.append(xs)
            transcript.commitments.append(list(commits))

        return apply

    def _epochs_of(self, slot: int, seat: int) -> list[int]:
        """Every completed epoch of ``slot`` whose keys ``seat`` committed to."""
        found = [0]
        for transcript in self.reshuffles:
            if (
                transcript.complete(self.seats)
                and seat in transcript.seats
                and slot in transcript.slots
            ):
                found.append(transcript.epoch)
        return found
