"""What this seat learns from the log: its checked shares of other seats' secrets, the keys
delivered to it (and their signed proofs), its cards, and its own sealed choices."""

from __future__ import annotations

import json
from typing import Any

from engine.fairness.backends.base import CryptoError
from engine.fairness.deck import (
    check_key,
    unmask_many,
)
from engine.protocol.boxes import open_box
from engine.protocol.envelope import (
    Entry,
)
from engine.protocol.errors import ProtocolError
from engine.protocol.pace import yield_if_long
from engine.protocol.peer_state import (
    PeerState,
    key_hex,
)


class Knowing(PeerState):
    """What this seat learns from the log."""

    async def _read_shares(self) -> None:
        """Open and check the shares other seats dealt to this seat; ask for any that fail."""
        table = self.table
        seat = self.seat
        if seat is None:
            return
        for dealer, boxes in table.share_boxes.items():
            if dealer == seat or dealer in self.shares or dealer in self._share_checked:
                continue
            self._share_checked.add(dealer)
            public = table.public_shares.get((dealer, seat))
            value: int | None = public
            if value is None:
                try:
                    raw = await open_box(
                        self.backend,
                        self.bundle.dh,
                        table.seat_member(dealer).dh,
                        self.room,
                        self.game,
                        f"share {dealer}->{seat}",
                        boxes[seat],
                    )
                    value = int.from_bytes(raw, "big") if len(raw) == 32 else None
                except (CryptoError, KeyError):
                    value = None
            await yield_if_long()  # the check is a full multiplication of the curve's point
            if value is not None and table.share_ok(dealer, seat, value):
                self.shares[dealer] = value
                continue
            dealer_peer = table.seat_member(dealer).peer
            self._note(ProtocolError(dealer_peer, "dealt a share that does not match its sharing"))
            self._share_checked.discard(dealer)  # look again once the dealer answers
            if self._once(("share-complaint", dealer)):
                await self._post({"t": "complaint", "dealer": dealer})

    async def _read_boxes(self) -> None:
        """Open deliveries addressed to this seat, check them, and learn the cards."""
        table = self.table
        if self.seat is None:
            return
        seat = self.seat
        while self.boxes_read < len(table.boxes):
            giver, receiver, box = table.boxes[self.boxes_read]
            self.boxes_read += 1
            if receiver != seat:
                continue
            try:
                payload = json.loads(
                    await open_box(
                        self.backend,
                        self.bundle.dh,
                        table.seat_member(giver).dh,
                        self.room,
                        self.game,
                        f"deliver {giver}->{seat}",
                        box,
                    )
                )
                inner = json.loads(payload["plain"])
                keys = {int(s): int(k, 16) for s, k in inner["keys"].items()}
                epochs = {int(s): int(e) for s, e in inner.get("epochs", {}).items()}
            except (CryptoError, ValueError, KeyError, TypeError, AttributeError):
                self._note(ProtocolError(table.seat_member(giver).peer, "undecipherable delivery"))
                continue
            bad = [
                s
                for s, k in keys.items()
                if not self._delivered_key_ok(giver, s, epochs.get(s, 0), k)
            ]
            if bad:
                giver_peer = table.seat_member(giver).peer
                self._note(ProtocolError(giver_peer, f"delivered a wrong key for slot {bad[0]}"))
                if self._once(("complaint", giver, bad[0], epochs.get(bad[0], 0))):
                    await self._post(
                        {"t": "complaint", "plain": payload["plain"], "sig": payload["sig"]}
                    )
                continue
            for slot, key in keys.items():
                self.slot_keys.setdefault((slot, epochs.get(slot, 0)), {})[giver] = key
                proof = (payload["plain"], payload["sig"])
                self.delivery_proofs.setdefault((slot, epochs.get(slot, 0)), {})[giver] = proof
        await self._learn_cards()

    def _delivered_key_ok(self, giver: int, slot: int, epoch: int, key: int) -> bool:
        """True when ``key`` is what ``giver`` committed to for ``slot`` at ``epoch``."""
        try:
            digest = self.table.slot_commitment(giver, slot, epoch)
        except (KeyError, ValueError, IndexError):
            return False
        return epoch >= 0 and check_key(self.room, self.game, giver, slot, key, digest)

    def _forget_reshuffled(self) -> None:
        """Drop what this seat knew of slots re-shuffled since it learnt them."""
        table = self.table
        for slot in [
            s for s in self.knowledge.cards if table.epoch(s) != self.card_epochs.get(s, 0)
        ]:
            del self.knowledge.cards[slot]
            self.card_epochs.pop(slot, None)
        stale = [k for k in self.slot_keys if k[1] != table.epoch(k[0])]
        for key in stale:
            del self.slot_keys[key]
            self.delivery_proofs.pop(key, None)

    async def _learn_cards(self) -> None:
        table = self.table
        seat = self.seat
        if seat is None or table.stage not in ("play", "audit"):
            return
        seed = self._seed()
        todo = []
        for slot in sorted(self.rules.visible_slots(table.state, seat)):
            if slot in self.knowledge.cards:
                continue
            epoch = table.epoch(slot)
            if slot in table.revealed:
                self.knowledge.cards[slot] = table.revealed[slot]
                self.card_epochs[slot] = epoch
                continue
            keys = []
            owners = table.slot_seats(slot)
            delivered = self.slot_keys.get((slot, epoch), {})
            for owner in owners:
                if owner == seat:
                    keys.append(seed.slot_key(slot, epoch))
                elif owner in table.recovered:
                    keys.append(table.recovered[owner].slot_key(slot, epoch))
                elif owner in delivered:
                    keys.append(delivered[owner])
            if len(keys) == len(owners):
                todo.append((slot, keys))
        if not todo:
            return
        cards = await unmask_many(
            self.backend, [(table.final_x(s), k) for s, k in todo], table.cards
        )
        for (slot, _), card in zip(todo, cards, strict=True):
            if card is None:
                self._note(ProtocolError(self.id, f"slot {slot} unmasks to no card"))
                if self._once(("deck-complaint", slot, table.epoch(slot))):
                    await self._post(self._deck_complaint(slot))
            else:
                self.knowledge.cards[slot] = card
                self.card_epochs[slot] = table.epoch(slot)

    def _deck_complaint(self, slot: int) -> dict[str, Any]:
        """Proof that ``slot`` unmasks to no card: this seat's key and the givers' signed keys."""
        epoch = self.table.epoch(slot)
        proofs = [
            {"plain": plain, "sig": sig}
            for plain, sig in self.delivery_proofs.get((slot, epoch), {}).values()
        ]
        key = key_hex(self.table.slot_key_of(self._seed(), slot))
        return {"t": "complaint", "slot": slot, "key": key, "proofs": proofs}

    def _remember_batch(self, entry: Entry) -> None:
        """Own sealed choices, rebuilt from the bundle whenever the log shows our commitments
        (live or while replaying after a reload): the game reads them from ``knowledge``."""
        body = entry["msg"]["body"]
        action = body.get("action") if body.get("t") == "action" else None
        if self.seat is None or not isinstance(action, dict) or action.get("seat") != self.seat:
            return
        commits = action.get("commit")
        if not isinstance(commits, list) or not commits:
            return
        made = self.table.commits.get(self.seat, [])
        base = self.table.batches.get(self.seat, 0)
        if base + len(commits) > len(made) or any(
            base + i not in self.bundle.openings for i in range(len(commits))
        ):
            return
        phase = made[base][2]
        items = [self.bundle.openings[base + i][1] for i in range(len(commits))]
        self.knowledge.secrets[phase] = {"items": items}
        for i, choice in enumerate(items):
            self.knowledge.secrets["sealed"][str(base + i)] = choice
