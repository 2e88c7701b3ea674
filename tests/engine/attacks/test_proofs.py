"""Preimages and reveal keys travel as proofs, and the host logs an event's proofs in one entry
(``engine.protocol.proofs``). Written as the attacker: a peer that sends a wrong or forged proof,
a host that sits on complete proofs, times out a seat whose proof it was sent, or logs a proof
that is wrong or leaves a seat out. The roll is the honest one whoever cheats."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from engine.fairness.backends.native import NativeBackend
from engine.protocol.bundle import SecretBundle
from engine.protocol.envelope import make_envelope
from engine.protocol.peer import Peer
from engine.protocol.proofs import PROOF_KINDS
from tests.engine.attacks.common import digests, next_entry, wire
from tests.engine.attacks.test_censorship import censorship_of_seat_two_refused, run
from tests.engine.attacks.test_commitments import Withholder
from tests.engine.attacks.test_randomness import LastRevealer, honest_die
from tests.engine.harness import Harness, make_table, play, waiting_on


class SitsOnProofs(Peer):
    """A host that never logs the seats' proofs (the game waits at every roll and reveal)."""

    async def _log_proofs(self) -> bool:
        return False


class SitsOnProofsLooksAlive(SitsOnProofs):
    """The same, pausing and resuming the game now and then, so it never falls silent."""

    async def tick(self) -> None:
        await super().tick()
        if self.table.stage == "play" and self._once(("busy", int(self.clock() // 5))):
            await self.host_command("pause")
            await self.host_command("resume")


class IgnoresSeatTwo(Peer):
    """A host deaf to seat 2's proofs (sent or forwarded): its clock then times seat 2 out."""

    async def _receive_proof(self, message: dict[str, Any], sender: str) -> None:
        if message.get("seat") != 2:
            await super()._receive_proof(message, sender)


async def bundles(seats: int) -> list[SecretBundle]:
    return [await SecretBundle.create(NativeBackend()) for _ in range(seats)]


async def test_a_wrong_or_forged_proof_is_refused_naming_its_sender() -> None:
    h = await make_table(4, peer_class={3: LastRevealer})
    await play(h, 4)
    assert waiting_on(h.peers[0]) == {3: "preimage"}, "the table waits for seat 3's preimage"
    before = digests(h)
    liar, table = h.peers[1], h.peers[1].table
    event = table.chance_event + 1
    forged = [
        {"seat": 3, "event": event, "value": secrets.token_hex(32)},  # another seat's, made up
        {"seat": 1, "event": event, "value": secrets.token_hex(32)},  # its own, wrong
        {"seat": 2, "event": event + 1, "value": secrets.token_hex(32)},  # a later one, wrong
    ]
    for proof in forged:
        liar.transport.broadcast(wire({"k": "proof", "t": "preimage", **proof}))
    await h.settle()
    for peer in (h.peers[0], h.peers[2], h.peers[3]):
        refused = [e for e in peer.errors if e.peer == "p1" and "not seat" in e.reason]
        assert len(refused) == 3, peer.errors
        assert peer._held_proof(3, "preimage") is None
    assert digests(h) == before
    assert all(3 not in p.table.blame for p in h.peers), "the forged seat is not blamed"
    await h.bus.close()


async def test_a_proof_nobody_can_judge_yet_is_dropped_and_nobody_blamed() -> None:
    h = await make_table(4, peer_class={3: LastRevealer})
    await play(h, 4)
    peer, table = h.peers[2], h.peers[2].table
    event = table.chance_event
    late = {"seat": 1, "event": event, "value": secrets.token_hex(32)}  # an event logged already
    far = {"seat": 1, "event": event + 50, "value": secrets.token_hex(32)}
    epochs = {"0": 9}  # keys of a shuffle this peer has not seen
    other = {"t": "keys", "seat": 1, "keys": {"0": "11" * 32}, "epochs": epochs}
    for proof in ({"t": "preimage", **late}, {"t": "preimage", **far}, other):
        h.peers[1].transport.send("p2", wire({"k": "proof", **proof}))
    await h.settle()
    assert not [e for e in peer.errors if e.peer == "p1"], peer.errors
    assert {key[2] for key in peer.proofs.items} == {event + 1}, "only the current event's"
    await h.bus.close()


@pytest.mark.parametrize(
    "proof",
    [
        {"t": "preimage", "seat": 1, "event": "1", "value": "00"},
        {"t": "preimage", "seat": True, "event": 1, "value": "00" * 32},
        {"t": "preimage", "seat": 1, "event": 1, "value": "00" * 32, "extra": 1},
        {"t": "keys", "seat": 1, "keys": {"01": "00" * 32}, "epochs": {"01": 0}},
        {"t": "keys", "seat": 1, "keys": {"1": "00" * 32}, "epochs": {"2": 0}},
        {"t": "keys", "seat": 1, "keys": [], "epochs": {}},
        {"t": "keys", "seat": 1, "keys": {"999999": "00" * 32}, "epochs": {"999999": 0}},
        {"t": "audit", "seat": 1},
    ],
)
async def test_a_malformed_proof_is_refused_and_changes_nothing(proof: dict[str, Any]) -> None:
    h = await make_table(3, peer_class={2: LastRevealer})
    await play(h, 3)
    before = digests(h)
    h.peers[1].transport.send("p0", wire({"k": "proof", **proof}))
    await h.settle()
    assert any(e.peer == "p1" for e in h.peers[0].errors), h.peers[0].errors
    assert digests(h) == before and h.peers[0].halted is None
    await h.bus.close()


@pytest.mark.parametrize(
    ("cheat", "why"), [(SitsOnProofs, "fell silent"), (SitsOnProofsLooksAlive, "proofs")]
)
async def test_a_host_that_sits_on_every_seats_proofs_is_replaced_and_the_roll_is_the_same(
    cheat: type[Peer], why: str
) -> None:
    secrets_of = await bundles(4)
    expected = await honest_die(secrets_of)
    h = await make_table(4, bundles=secrets_of, peer_class={0: cheat})
    await play(h, 4)
    assert h.peers[0].table.state["die"] is None, "the host did not log the roll"
    await run(h, 200, 100)
    honest = h.peers[1:]
    assert all(p.host == "p1" for p in honest), [p.host for p in honest]
    assert all(any(e.peer == "p0" and why in e.reason for e in p.errors) for p in honest)
    table = honest[0].table
    assert table.deposed == ["p0"] and table.stage == "done"
    assert table.state["die"] == expected, "the new host logged the same preimages"
    assert not table.blame, table.blame
    assert len(digests(h, skip={"p0"})) == 1
    await h.bus.close()


async def test_a_timeout_over_a_proof_the_peers_hold_is_refused_as_censorship() -> None:
    secrets_of = await bundles(4)
    expected = await honest_die(secrets_of)
    h = await make_table(
        4, bundles=secrets_of, peer_class={0: IgnoresSeatTwo}, host_timeout=600, skew={3: 0.4}
    )
    table = await censorship_of_seat_two_refused(h)
    assert 2 not in table.blame, "the censored seat is not blamed"
    assert table.state["die"] == expected
    await h.bus.close()


async def sequenced_by_host(h: Harness, body: dict[str, Any]) -> None:
    """The host signs ``body`` into the next entry and sends it, skipping its own checks."""
    host = h.peers[0]
    table = host.table
    envelope = await make_envelope(
        h.backend, host.bundle.sign, "room-1", "game-1", "p0", table.head, body
    )
    entry = await next_entry(h, 0, envelope, table)
    host.transport.broadcast(wire({"k": "entry", "e": entry}))
    await h.settle()


@pytest.mark.parametrize(
    ("cheat", "why"),
    [
        ("wrong value", "does not hash to its last chain value"),
        ("a seat left out", "exactly the seats that owe it"),
        ("a seat added", "exactly the seats that owe it"),
    ],
)
async def test_a_host_that_logs_a_wrong_roll_is_refused(cheat: str, why: str) -> None:
    h = await make_table(4, peer_class={3: LastRevealer})
    await play(h, 4)
    host = h.peers[0]
    event = host.table.chance_event + 1
    values = {str(s): host._held_proof(s, "preimage").message["value"] for s in range(3)}
    if cheat == "wrong value":
        values["3"] = secrets.token_hex(32)
    elif cheat == "a seat added":
        values["4"] = secrets.token_hex(32)
    before = digests(h, skip={"p0"})
    await sequenced_by_host(h, {"t": "preimages", "event": event, "values": values})
    for peer in h.peers[1:]:
        assert any(e.peer == "p0" and why in e.reason for e in peer.errors), peer.errors
    assert digests(h, skip={"p0"}) == before, "no guest applied it"
    await h.bus.close()


async def test_a_host_that_logs_a_wrong_reveal_key_is_refused() -> None:
    h = await make_table(3, peer_class={2: Withholder})
    await play(h, 3)
    host = h.peers[0]
    assert waiting_on(host) == {2: "keys"}
    keys = {str(s): dict(host._held_proof(s, "keys").message["keys"]) for s in range(2)}
    keys["2"] = {slot: secrets.token_hex(32) for slot in keys["0"]}
    before = digests(h, skip={"p0"})
    await sequenced_by_host(h, {"t": "reveal", "keys": keys})
    for peer in h.peers[1:]:
        assert any(e.peer == "p0" and "seat 2" in e.reason for e in peer.errors), peer.errors
    assert digests(h, skip={"p0"}) == before
    await h.bus.close()


async def test_proofs_make_one_entry_per_roll_and_reveal() -> None:
    """An honest toy game: no seat's preimage or key has an entry of its own."""
    h = await make_table(4)
    await play(h, 4)
    kinds = [entry["msg"]["body"]["t"] for entry in h.peers[0].table.log]
    assert h.peers[0].table.stage == "done"
    assert not set(kinds) & set(PROOF_KINDS), kinds
    assert kinds.count("preimages") == h.peers[0].table.chance_event
    assert kinds.count("reveal") >= 1
    await h.bus.close()


class Slow(Peer):
    """Gives its preimage only once ``ready`` is set."""

    ready = False

    async def _act_once(self) -> bool:
        owes = self.seat is not None and self.table.obligations().get(self.seat) == "preimage"
        if owes and not self.ready:
            return False
        return await super()._act_once()


async def test_a_host_that_reloads_mid_roll_is_sent_the_proofs_again() -> None:
    secrets_of = await bundles(4)
    expected = await honest_die(secrets_of)
    h = await make_table(4, bundles=secrets_of, peer_class={3: Slow})
    await play(h, 4)
    assert waiting_on(h.peers[1]) == {3: "preimage"}
    await h.advance(2, steps=2)  # the guests have forwarded what they hold to the host
    host = await h.reload(0, via="p1")
    assert [key[1] for key in host.proofs.items] == [0], "a reloaded page holds its own only"
    slow = h.peers[3]
    assert isinstance(slow, Slow)
    slow.ready = True
    await h.advance(3, steps=3)
    await run(h, 60, 30)
    table = h.peers[1].table
    assert table.state["die"] == expected
    assert not table.deposed and all(p.host == "p0" for p in h.peers)
    assert table.stage == "done" and not table.blame
    await h.bus.close()
