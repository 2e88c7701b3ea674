"""A peer's side of the proofs (``proofs``): giving its own, checking and holding the others',
and, as host, logging an event's proofs in one entry once every owing seat's is in."""

from __future__ import annotations

from typing import Any

from engine.fairness.randomness import chain_step, verify_link
from engine.protocol.errors import ProtocolError
from engine.protocol.peer_state import PeerState, wire_text
from engine.protocol.proofs import PROOF_KINDS, HeldProof, ProofKey
from engine.protocol.table_values import hex_bytes

# How many random events ahead of this peer's log a preimage may be and still be checked (a peer
# a few entries behind the seat that sent it); one further ahead is dropped, nobody blamed.
PROOF_AHEAD = 8
PROOF_FIELDS = {
    "preimage": {"k", "t", "seat", "event", "value"},
    "keys": {"k", "t", "seat", "keys", "epochs"},
}
MAX_SLOTS = 64


class Proofs(PeerState):
    """Giving, checking, holding and logging proofs."""

    def _give_proof(self, body: dict[str, Any]) -> None:
        """Send this seat's preimage or keys (``body`` as the duty made it) to every peer."""
        table = self.table
        assert self.seat is not None
        message = {"k": "proof", "seat": self.seat, **body}
        if body["t"] == "keys":
            message["epochs"] = {slot: table.epoch(int(slot)) for slot in body["keys"]}
        self.transport.broadcast(wire_text(message))
        # Held as the others hold it: checked first (a seat that gives a wrong one has nothing
        # to show when the host times it out).
        check = self._checked_preimage if body["t"] == "preimage" else self._checked_keys
        try:
            key = check(message, self.seat, self.id)
        except ProtocolError as exc:
            self._note(exc)
            return
        if key is not None:
            self.proofs.add(key, message, self.clock(), own=True)

    async def _receive_proof(self, message: dict[str, Any], sender: str) -> None:
        """Hold a proof once checked; a wrong one is refused, naming its sender. One this peer
        cannot judge yet (it is behind, or the seat has left) is dropped, nobody blamed."""
        kind, seat = message.get("t"), message.get("seat")
        table = self.table
        if (
            kind not in PROOF_KINDS
            or set(message) != PROOF_FIELDS[kind]
            or not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < table.seats
        ):
            raise ProtocolError(sender, "proof is malformed")
        if table.stage != "play" or seat in table.out:
            return
        if kind == "preimage":
            key = self._checked_preimage(message, seat, sender)
        else:
            key = self._checked_keys(message, seat, sender)
        if key is not None:
            self.proofs.add(key, message, self.clock())

    def _checked_preimage(self, message: dict[str, Any], seat: int, sender: str) -> ProofKey | None:
        event = message["event"]
        if not isinstance(event, int) or isinstance(event, bool):
            raise ProtocolError(sender, "proof is malformed")
        ahead = event - self.table.chance_event
        if not 0 < ahead <= PROOF_AHEAD:
            return None  # logged already, or too far ahead to check
        link = hex_bytes(message["value"], 32, sender, "preimage")
        for _ in range(ahead - 1):
            link = chain_step(link)
        if not verify_link(self.table.chain_last[seat], link):
            raise ProtocolError(sender, f"a preimage that is not seat {seat}'s for event {event}")
        return ("preimage", seat, event)

    def _checked_keys(self, message: dict[str, Any], seat: int, sender: str) -> ProofKey | None:
        table = self.table
        keys, epochs = message["keys"], message["epochs"]
        if (
            not isinstance(keys, dict)
            or not isinstance(epochs, dict)
            or not 0 < len(keys) <= MAX_SLOTS
            or set(keys) != set(epochs)
            or any(not k.isdigit() or str(int(k)) != k for k in keys)
        ):
            raise ProtocolError(sender, "proof is malformed")
        if any(table.epoch(int(slot)) != epoch for slot, epoch in epochs.items()):
            return None  # keys of another shuffle than this peer's view: not for it to judge
        table.parse_keys(keys, {int(slot) for slot in keys}, seat, sender)
        return ("keys", seat, tuple(sorted((int(s), e) for s, e in epochs.items())))

    def _proof_marker(self, kind: str) -> Any:
        """What the proofs of ``kind`` owed now are for: the next event, or the slots revealed
        with their epochs."""
        table = self.table
        if kind == "preimage":
            return table.chance_event + 1
        slots = table.rules.decision(table.state).slots
        return tuple(sorted((slot, table.epoch(slot)) for slot in slots))

    def _held_proof(self, seat: int, owed: str) -> HeldProof | None:
        """The proof this peer holds of what ``seat`` owes now (``owed``), if any."""
        if owed not in PROOF_KINDS:
            return None
        return self.proofs.get((owed, seat, self._proof_marker(owed)))

    def _owed_proofs(self) -> dict[int, HeldProof] | None:
        """Every owing seat's held proof when all the table waits for is proofs and this peer
        holds each of them; else ``None``."""
        owed = self.table.obligations()
        if self.table.stage != "play" or not owed:
            return None
        found = {}
        for seat, due in owed.items():
            held = self._held_proof(seat, due)
            if held is None:
                return None
            found[seat] = held
        return found

    async def _log_proofs(self) -> bool:
        """Host: log the owing seats' proofs in one entry once all are held."""
        found = self._owed_proofs()
        if not found:
            return False
        kinds = {str(held.message["t"]) for held in found.values()}
        if len(kinds) != 1:
            return False
        kind = kinds.pop()
        marker = self._proof_marker(kind)
        if not self._once(("proofs", kind, marker, tuple(sorted(found)))):
            return False
        if kind == "preimage":
            values = {str(seat): held.message["value"] for seat, held in found.items()}
            await self._post({"t": "preimages", "event": marker, "values": values})
        else:
            keys = {str(seat): held.message["keys"] for seat, held in found.items()}
            await self._post({"t": "reveal", "keys": keys})
        return True

    def _prune_proofs(self) -> None:
        """Forget the proofs the log has carried (or that belong to a past shuffle)."""
        table = self.table

        def past_keys(marker: Any) -> bool:
            return all(
                table.epoch(slot) > epoch or (table.epoch(slot) == epoch and slot in table.revealed)
                for slot, epoch in marker
            )

        self.proofs.drop("preimage", lambda event: event <= table.chance_event)
        self.proofs.drop("keys", past_keys)
