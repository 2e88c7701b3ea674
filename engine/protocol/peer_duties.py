"""What this seat owes when the log makes it due: its chain tip with the shares of its escrow
secret, shuffle and re-shuffle passes, private deliveries, preimages, keys and the audit (the
preimages and reveal keys go out as proofs, ``peer_proofs``; the rest as posts)."""

from __future__ import annotations

from typing import Any

from engine.core.model import canonical_json
from engine.fairness import sharing
from engine.fairness.deck import (
    ShuffleSeed,
    pass_one,
    pass_two,
    pass_zero,
    slot_commitments,
)
from engine.protocol.boxes import seal_box
from engine.protocol.errors import ProtocolError
from engine.protocol.pace import yield_if_long
from engine.protocol.peer_state import (
    PeerState,
    hex_list,
    key_hex,
)
from engine.protocol.table import CHAIN_LENGTH, DELIVERY_TAG


class Duties(PeerState):
    """What this seat posts when the log makes it due."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        table = self.table
        seat = self.seat
        assert seat is not None
        seed = self._seed()
        if owed in ("chain", "preimage"):
            chain = self.bundle.chain(self.room, self.game, CHAIN_LENGTH)
            await chain.walk(yield_if_long)  # once per game; kept for every later preimage
        if owed == "chain":
            body: dict[str, Any] = {"t": "chain", "tip": chain.tip().hex()}
            if table.threshold:
                body["shares"] = await self._deal_shares()
            return body
        if owed == "pass1":
            decks = {}
            for name, transcript in table.decks.items():
                source = transcript.pass1[-1] if transcript.pass1 else transcript.initial
                decks[name] = hex_list(await pass_one(self.backend, seed, name, source))
            return {"t": "shuffle1", "decks": decks}
        if owed == "pass2":
            decks, commits = {}, {}
            for name, transcript in table.decks.items():
                source = transcript.pass2[-1] if transcript.pass2 else transcript.pass1[-1]
                out = await pass_two(self.backend, seed, name, transcript.first_slot, source)
                decks[name] = hex_list(out)
                commits[name] = slot_commitments(
                    self.room, self.game, seat, seed, transcript.first_slot, len(source)
                )
            return {"t": "shuffle2", "decks": decks, "commits": commits}
        if owed.startswith("escrow"):
            departed = int(owed.split()[1])
            share = self.shares.get(departed, table.public_shares.get((departed, seat)))
            if share is None:
                raise ProtocolError(self.id, f"holds no checked share of seat {departed}")
            return {"t": "escrow", "seat": departed, "share": key_hex(share)}
        if owed.startswith("share"):
            holder = int(owed.split()[1])
            return {"t": "share", "to": holder, "share": key_hex(self._dealt_share(holder))}
        if owed == "preimage":
            event = table.chance_event + 1
            return {"t": "preimage", "event": event, "value": chain.preimage(event).hex()}
        if owed == "keys":
            slots = self.rules.decision(table.state).slots
            keys = {str(s): key_hex(table.slot_key_of(seed, s)) for s in slots}
            return {"t": "keys", "keys": keys}
        if owed.startswith("reshuffle"):
            return await self._reshuffle_body(owed, seed)
        if owed == "cardkeys":
            shown = {str(slot): self._keys_hex(slot) for slot in table.awaiting[seat].slots}
            return {"t": "cardkeys", "keys": shown}
        if owed == "audit":
            return {"t": "audit", "secret": key_hex(self._escrow_secret())}
        raise ProtocolError(self.id, f"unknown obligation {owed}")

    async def _reshuffle_body(self, owed: str, seed: ShuffleSeed) -> dict[str, Any]:
        """This seat's pass of the running re-shuffle (``reshuffle1 r`` or ``reshuffle2 r``)."""
        table = self.table
        assert self.seat is not None and table.reshuffling is not None
        transcript = table.reshuffles[table.reshuffling]
        epoch, slots = transcript.epoch, transcript.slots
        if owed == f"reshuffle0 {epoch}":
            source = transcript.pass0[-1] if transcript.pass0 else transcript.initial
            hidden = transcript.hidden_slots()
            xs = await pass_zero(self.backend, seed, transcript.name, source, hidden, epoch)
            return {"t": "reshuffle0", "r": epoch, "xs": hex_list(xs)}
        if owed == f"reshuffle1 {epoch}":
            source = transcript.pass1[-1] if transcript.pass1 else transcript.pass1_input()
            xs = await pass_one(self.backend, seed, transcript.name, source, epoch)
            return {"t": "reshuffle1", "r": epoch, "xs": hex_list(xs)}
        source = transcript.pass2[-1] if transcript.pass2 else transcript.pass1[-1]
        power = 2 if transcript.hidden else 1
        xs = await pass_two(
            self.backend,
            seed,
            transcript.name,
            slots[0],
            source,
            slots=slots,
            epoch=epoch,
            deck_power=power,
        )
        commits = slot_commitments(
            self.room, self.game, self.seat, seed, slots[0], len(slots), slots=slots, epoch=epoch
        )
        return {"t": "reshuffle2", "r": epoch, "xs": hex_list(xs), "commits": commits}

    async def _deal_shares(self) -> dict[str, Any]:
        """Feldman commitments and one boxed share for each other seat (set-up, with the tip)."""
        table = self.table
        assert self.seat is not None
        poly = self._polynomial()
        points = []
        for coefficient in poly:  # made once, not per share; each a long multiplication in a page
            await yield_if_long()
            points.append(sharing.base_mult(coefficient))
        boxes = {}
        for other in (s for s in range(table.seats) if s != self.seat):
            value = self._share_to_send(other, self._dealt_share(other, poly))
            boxes[str(other)] = await seal_box(
                self.backend,
                self.bundle.dh,
                table.seat_member(other).dh,
                self.room,
                self.game,
                f"share {self.seat}->{other}",
                value.to_bytes(32, "big"),
            )
        return {"commitments": sharing.encode_commitments(points), "boxes": boxes}

    def _polynomial(self) -> list[int]:
        """This seat's sharing polynomial: its coefficients derive from its master secret, so a
        reloaded page deals the same one and can still answer a complaint."""
        t = self.table.threshold
        coefficients = self.bundle.sharing_coefficients(self.room, self.game, t)
        return sharing.polynomial(self._escrow_secret(), t, coefficients)

    def _dealt_share(self, holder: int, poly: list[int] | None = None) -> int:
        """The share this seat deals to ``holder`` (``poly``: ``_polynomial()``, if at hand)."""
        return sharing.evaluate(poly or self._polynomial(), sharing.share_x(holder))

    def _share_to_send(self, holder: int, share: int) -> int:
        """Hook for tests of a dishonest dealer; an honest one sends the real share."""
        return share

    async def _delivery(self, receiver: int, slots: list[int]) -> dict[str, Any]:
        """Own keys for ``slots`` at their current epochs, signed, boxed for ``receiver`` only."""
        seat = self.seat
        seed = self._seed()
        table = self.table
        keys = {str(s): key_hex(self._key_to_send(s, table.slot_key_of(seed, s))) for s in slots}
        message: dict[str, Any] = {
            "room": self.room,
            "game": self.game,
            "from": seat,
            "to": receiver,
            "keys": keys,
        }
        epochs = {str(s): table.epoch(s) for s in slots if table.epoch(s)}
        if epochs:
            message["epochs"] = epochs
        inner = canonical_json(message).decode()
        signature = await self.backend.sign(self.bundle.sign, DELIVERY_TAG + inner.encode())
        payload = canonical_json({"plain": inner, "sig": signature.hex()})
        box = await seal_box(
            self.backend,
            self.bundle.dh,
            self.table.seat_member(receiver).dh,
            self.room,
            self.game,
            f"deliver {seat}->{receiver}",
            payload,
        )
        return {"t": "deliver", "to": receiver, "slots": slots, "box": box}

    def _key_to_send(self, slot: int, key: int) -> int:
        """Hook for tests of a dishonest peer; an honest peer sends its real key."""
        return key
