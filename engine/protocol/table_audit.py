"""The end-of-game audit: each seat publishes its escrow secret (or it is rebuilt from its
shares); every deck and reveal is redone from the seeds; the audit always ends in ``done``."""

from __future__ import annotations

from typing import Any

from engine.fairness import commit as commitments
from engine.fairness import curve, sharing
from engine.fairness.deck import (
    DeckError,
    ShuffleSeed,
    audit_deck,
    unmask_points,
)
from engine.fairness.randomness import HashChain
from engine.protocol.errors import ProtocolError
from engine.protocol.pace import in_slices, yield_if_long, yield_to_page
from engine.protocol.table_state import CHAIN_LENGTH, TableState
from engine.protocol.table_values import hex_bytes

OPENINGS_PER_TASK = 64  # commitment checks between two yields to the page


class Audit(TableState):
    """The end-of-game audit."""

    async def _plan_audit(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A seat publishes its escrow secret; it must match its sharing and its chain tip."""
        if self.stage != "audit" or seat in self.audits or self.escrow_pending():
            raise ProtocolError(name, "no audit expected from this seat")
        secret = int.from_bytes(hex_bytes(body.get("secret"), 32, name, "escrow secret"), "big")
        if not 0 < secret < curve.N:
            raise ProtocolError(name, "escrow secret is out of range")
        seed, chain_seed = sharing.seeds_of(secret)
        problem = ""
        chain = HashChain(chain_seed, CHAIN_LENGTH)
        await chain.walk(yield_if_long)
        if chain.tip() != self.tips[seat]:
            problem = "published secret does not give the committed chain"
        elif seat in self.sharings and sharing.base_mult(secret) != self.sharings[seat][0]:
            problem = "published secret is not the one it shared"

        def apply() -> None:
            if problem:
                self.blame.setdefault(seat, problem)
            self.audits[seat] = seed

        return apply

    async def run_audit(self) -> dict[str, Any]:
        """Re-check every deck from the published seeds; name the first cheating seat."""
        seeds = []
        missing = {}
        for seat in range(self.seats):
            seed = self.audits.get(seat) or self.recovered.get(seat)
            if seed is None:
                missing[seat] = "published no secret, and too few shares were left to rebuild it"
            seeds.append(seed or ShuffleSeed(b""))
        if missing:
            self.result = {"ok": False, "blame": {**self.blame, **missing}}
            self.stage = "done"
            return self.result
        blame = dict(self.blame)
        transcripts = [self.decks[deck] for deck, _ in self.layout.decks] + self.reshuffles
        for transcript in transcripts:
            taking_part = [seeds[s] for s in transcript.seat_numbers(self.seats)]
            try:
                await audit_deck(
                    self.backend, self.room, self.game, transcript, taking_part, yield_if_long
                )
            except DeckError as exc:
                if exc.seat is not None:
                    blame.setdefault(exc.seat, str(exc))
            await yield_to_page()  # one browser task per deck, not one for the whole audit
        # Every public reveal is re-derived from the seeds, those a re-shuffle superseded too.
        reveals = [(slot, self.epoch(slot), self.points[slot]) for slot in sorted(self.points)]
        reveals += self.past_reveals
        items = []
        async for part in in_slices(reveals):  # a hashed key per seat and slot: a few per task
            items += [
                (
                    self.final_x(slot, epoch),
                    [seeds[s].slot_key(slot, epoch) for s in self.slot_seats(slot, epoch)],
                )
                for slot, epoch, _ in part
            ]
        found = await unmask_points(self.backend, items)
        for (slot, epoch, x), derived in zip(reveals, found, strict=True):
            if derived != x and not blame:
                card, shown = self.cards.get(derived), self.cards.get(x)
                blame[-1] = f"slot {slot} (epoch {epoch}) re-derives to {card}, not {shown}"
        # Every accepted opening, checked against its commitment once more.
        await yield_to_page()
        for done, (seat, index, nonce, item) in enumerate(self.opened_items, 1):
            digest, made_round, phase = self.commits[seat][index]
            context = commitments.CommitContext(self.room, self.game, made_round, phase, seat)
            opening = commitments.Opening(bytes.fromhex(nonce), item)
            if not commitments.verify(context, digest, opening):
                blame.setdefault(seat, f"opening {index} does not match its commitment")
            if done % OPENINGS_PER_TASK == 0:
                await yield_to_page()
        self.result = {"ok": not blame, "blame": blame}
        self.stage = "done"
        return self.result

    async def _advance_audit(self) -> None:
        """Run the audit once every present seat has published and every departed one is rebuilt
        (or can no longer be): the audit always ends, in ``done``."""
        if self.result is not None and "ok" in self.result:
            return
        pending = self.escrow_pending()
        if pending and self.recoverable(pending[0]):
            return
        if not all(s in self.audits for s in self.present()):
            return
        note = dict(self.result or {})
        await self.run_audit()
        assert self.result is not None
        self.result.update(note)
