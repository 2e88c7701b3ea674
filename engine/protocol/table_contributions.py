"""What seats owe during play besides moves: private deliveries, chance preimages, reveal keys,
complaints (a wrong key, a share to publish, a slot that is no card) and leaving."""

from __future__ import annotations

from typing import Any

from engine.core.model import (
    Kind,
)
from engine.fairness.backends.base import CryptoError
from engine.fairness.deck import (
    check_key,
    unmask_points,
)
from engine.fairness.randomness import verify_link
from engine.protocol.errors import ProtocolError
from engine.protocol.table_state import TableState
from engine.protocol.table_values import DELIVERY_TAG, as_int, hex_bytes, json_loads


class Contributions(TableState):
    """What seats owe during play besides moves."""

    async def _plan_deliver(self, seat: int, body: dict[str, Any], name: str) -> Any:
        receiver = body.get("to")
        slots = body.get("slots")
        box = body.get("box")
        owed = self.pending_deliveries().get(
            (seat, receiver) if isinstance(receiver, int) else (-1, -1)
        )
        if not owed or not isinstance(slots, list) or sorted(slots) != owed:
            raise ProtocolError(name, "that delivery is not owed now")
        if not isinstance(box, str) or len(box) > 32 * 1024:
            raise ProtocolError(name, "delivery box is malformed")
        assert isinstance(receiver, int)

        def apply() -> None:
            for slot in owed:
                self.given.add((seat, receiver, slot))
            self.boxes.append((seat, receiver, box))

        return apply

    async def _plan_preimages(self, body: dict[str, Any], name: str) -> Any:
        """The host logs every owing seat's preimage for the next random event at once (the
        seats broadcast them, ``peer_proofs``): each is checked against its seat's chain."""
        if self._blocked() or self.rules.decision(self.state).kind != Kind.CHANCE:
            raise ProtocolError(name, "no random event pending")
        if body.get("event") != self.chance_event + 1:
            raise ProtocolError(name, "preimages for the wrong event")
        raw = self._owing_each(body.get("values"), "preimage", name)
        values = {}
        for seat, value_hex in raw.items():
            value = hex_bytes(value_hex, 32, name, "preimage")
            if not verify_link(self.chain_last[seat], value):
                raise ProtocolError(
                    name, f"the preimage of seat {seat} does not hash to its last chain value"
                )
            values[seat] = value
        return lambda: self.preimages.update(values)

    async def _plan_reveal(self, body: dict[str, Any], name: str) -> Any:
        """The host logs every owing seat's keys of the slots being revealed at once, each
        checked against the commitment its seat published."""
        decision = self.rules.decision(self.state)
        if self._blocked() or decision.kind != Kind.REVEAL:
            raise ProtocolError(name, "no reveal pending")
        raw = self._owing_each(body.get("keys"), "keys", name)
        keys = {
            seat: self.parse_keys(seat_keys, set(decision.slots), seat, name)
            for seat, seat_keys in raw.items()
        }
        return lambda: self.reveal_keys.update(keys)

    def _owing_each(self, raw: Any, owed: str, name: str) -> dict[int, Any]:
        """``raw`` by seat (``{"0": …}``), covering exactly the seats that owe ``owed``."""
        owing = {seat for seat, due in self.obligations().items() if due == owed}
        if not isinstance(raw, dict) or not owing or set(raw) != {str(s) for s in owing}:
            raise ProtocolError(name, f"must carry the {owed} of exactly the seats that owe it")
        return {int(k): v for k, v in raw.items()}

    def parse_keys(self, raw: Any, slots: set[int], seat: int, name: str) -> dict[int, int]:
        """``seat``'s keys of exactly ``slots`` (``{"slot": hex}``), each checked against the
        commitment it published; ``ProtocolError`` names ``name`` for anything else."""
        if not isinstance(raw, dict) or {as_int(k) for k in raw} != slots:
            raise ProtocolError(name, "keys must cover exactly the slots asked for")
        keys = {}
        for slot_text, key_hex in raw.items():
            slot = int(slot_text)
            key = int.from_bytes(hex_bytes(key_hex, 32, name, "slot key"), "big")
            try:
                commitment = self.slot_commitment(seat, slot)
            except (KeyError, IndexError, ValueError) as exc:
                raise ProtocolError(name, f"seat {seat} holds no key of slot {slot}") from exc
            if not check_key(self.room, self.game, seat, slot, key, commitment):
                raise ProtocolError(
                    name, f"key for slot {slot} does not match seat {seat}'s commitment"
                )
            keys[slot] = key
        return keys

    async def _plan_complaint(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A receiver proves a wrong delivered key with the giver's signed inner message; a share
        holder asks the dealer to publish a share it could not open or check."""
        if "dealer" in body:
            dealer = body["dealer"]
            if (
                not isinstance(dealer, int)
                or dealer == seat
                or dealer not in self.sharings
                or (dealer, seat) in self.public_shares
                or (dealer, seat) in self.share_requests
            ):
                raise ProtocolError(name, "share complaint names no share of this seat")
            return lambda: self.share_requests.append((dealer, seat))
        if "slot" in body:
            return await self._plan_deck_complaint(seat, body, name)
        plain = body.get("plain")
        signature = body.get("sig")
        if not isinstance(plain, str) or not isinstance(signature, str):
            raise ProtocolError(name, "complaint is malformed")
        try:
            inner = json_loads(plain)
            giver = int(inner["from"])
            keys = inner["keys"]
            ok_shape = (
                inner["to"] == seat and inner["room"] == self.room and inner["game"] == self.game
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(name, "complaint proof is malformed") from exc
        if not ok_shape or not 0 <= giver < self.seats or not isinstance(keys, dict):
            raise ProtocolError(name, "complaint proof is not about this seat")
        signer = self.seat_member(giver)
        if not await self.backend.verify(
            signer.sign, DELIVERY_TAG + plain.encode(), bytes.fromhex(signature)
        ):
            raise ProtocolError(name, "complaint proof is not signed by the accused seat")
        epochs = inner.get("epochs", {})
        wrong = []
        for slot_text, key_hex in keys.items():
            slot = as_int(slot_text)
            try:
                epoch = int(epochs.get(slot_text, 0)) if isinstance(epochs, dict) else -1
                key = int(key_hex, 16)
                good = epoch >= 0 and check_key(
                    self.room, self.game, giver, slot, key, self.slot_commitment(giver, slot, epoch)
                )
            except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                good = False
            if not good:
                wrong.append(slot)
        if not wrong:
            raise ProtocolError(name, "complaint is unfounded: every key matches its commitment")
        return lambda: self._leave(giver, f"delivered a wrong key for slot {wrong[0]}", blamed=True)

    async def _plan_deck_complaint(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A seat proves that a slot of its hand unmasks to no card: its own key and every
        giver's signed delivery, each checked against the commitments. Proved, the game stops
        for the audit (which names the shuffler); a complaint that proves nothing blames its
        author, who has just shown its card to everyone."""
        slot = body.get("slot")
        if (
            self.stage != "play"
            or not isinstance(slot, int)
            or isinstance(slot, bool)
            or not 0 <= slot < self.layout.total
            or slot in self.revealed
            or slot not in self.rules.visible_slots(self.state, seat)
        ):
            raise ProtocolError(name, "deck complaint names no slot of this seat's hand")
        proofs = body.get("proofs")
        if not isinstance(proofs, list) or len(proofs) > self.seats:
            raise ProtocolError(name, "deck complaint carries no delivery proofs")
        epoch = self.epoch(slot)
        own = body.get("key")
        keys: dict[str, str] = {str(seat): own} if isinstance(own, str) else {}
        for proof in proofs:
            giver, given = await self._signed_delivery(seat, proof, name)
            key = given.get(str(slot))
            epochs = given.get("epochs", {})
            if (
                isinstance(key, str)
                and (epochs.get(str(slot), 0) if isinstance(epochs, dict) else -1) == epoch
            ):
                keys[str(giver)] = key
        try:
            unmasked = await unmask_points(
                self.backend, [(self.final_x(slot), self._slot_keys(slot, keys, name))]
            )
        except CryptoError as exc:
            raise ProtocolError(name, f"deck complaint keys do not unmask: {exc}") from exc
        if self.cards.get(unmasked[0]) is not None:
            return lambda: self._leave(seat, f"complained that slot {slot} is no card", blamed=True)

        def audit_now() -> None:
            self.stage = "audit"
            self.result = {"aborted": f"seat {seat}: slot {slot} unmasks to no card"}

        return audit_now

    async def _signed_delivery(
        self, seat: int, proof: Any, name: str
    ) -> tuple[int, dict[str, Any]]:
        """The giver and the keys of one delivery to ``seat``, as the giver signed it."""
        if not isinstance(proof, dict):
            raise ProtocolError(name, "a delivery proof is an object")
        plain, signature = proof.get("plain"), proof.get("sig")
        if not isinstance(plain, str) or not isinstance(signature, str) or len(signature) != 128:
            raise ProtocolError(name, "a delivery proof is malformed")
        try:
            inner = json_loads(plain)
            giver = inner["from"]
            keys = inner["keys"]
            raw_signature = bytes.fromhex(signature)
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
            raise ProtocolError(name, "a delivery proof is malformed") from exc
        if (
            not isinstance(inner, dict)
            or not isinstance(giver, int)
            or not 0 <= giver < self.seats
            or inner.get("to") != seat
            or inner.get("room") != self.room
            or inner.get("game") != self.game
            or not isinstance(keys, dict)
        ):
            raise ProtocolError(name, "a delivery proof is not about this seat")
        signer = self.seat_member(giver)
        if not await self.backend.verify(signer.sign, DELIVERY_TAG + plain.encode(), raw_signature):
            raise ProtocolError(name, "a delivery proof is not signed by its giver")
        return giver, {**keys, "epochs": inner.get("epochs", {})}

    async def _plan_leave(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """Leaving is allowed; leaving while owing a contribution to a reveal (a preimage, reveal
        or card keys, a share, the audit) is blamed like withholding it (it cannot veto anything:
        its part is rebuilt from its shares)."""
        owed = self.obligations().get(seat) or ""
        if owed in ("preimage", "keys", "cardkeys", "audit") or owed.split(" ")[0] in (
            "escrow",
            "share",
        ):
            return lambda: self._leave(seat, f"left while it owed {owed}", blamed=True)
        return lambda: self._leave(seat, "left the game", blamed=False)
