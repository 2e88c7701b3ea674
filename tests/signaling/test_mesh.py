"""Integration: MeshPeers meet through a real server on 127.0.0.1 over real aiortc channels."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from signaling.mesh import MeshPeer, SignalingError
from tests.signaling.conftest import Server

Inbox = list[tuple[str, dict[str, Any]]]


def id_of(peer: MeshPeer) -> str:
    """The id of a peer that has joined."""
    assert peer.id is not None
    return peer.id


class Recorder:
    """Collects on_message calls and lets a test wait for a condition on them."""

    def __init__(self) -> None:
        self.got: Inbox = []
        self.changed = asyncio.Event()

    def __call__(self, peer_id: str, msg: dict[str, Any]) -> None:
        self.got.append((peer_id, msg))
        self.changed.set()

    async def until(self, check: Callable[[Inbox], bool], timeout: float = 10.0) -> None:
        """Wait until ``check(got)`` holds."""

        async def loop() -> None:
            while not check(self.got):
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(loop(), timeout)


def has_count(n: int) -> Callable[[Inbox], bool]:
    """A check: exactly n messages arrived."""
    return lambda got: len(got) == n


@pytest.fixture
async def mesh(server: Server) -> AsyncIterator[Callable[[str], tuple[MeshPeer, Recorder]]]:
    """Factory of MeshPeers on the test server, all closed at teardown."""
    made: list[MeshPeer] = []

    def make(name: str) -> tuple[MeshPeer, Recorder]:
        rec = Recorder()
        peer = MeshPeer(server.ws_url, name, on_message=rec)
        made.append(peer)
        return peer, rec

    yield make
    for peer in made:
        await peer.close()


async def test_three_peers_chat_over_every_pair(
    mesh: Callable[[str], tuple[MeshPeer, Recorder]],
) -> None:
    trio = [mesh(name) for name in ("Аня", "Борис", "Вика")]
    code = await trio[0][0].create()
    for peer, _ in trio[1:]:
        assert await peer.join(code.lower()) == code
    await asyncio.gather(*(peer.wait_connected(2) for peer, _ in trio))
    ids = {peer.name: peer.id for peer, _ in trio}
    for peer, _ in trio:
        assert {link.hello["name"] for link in peer.peers.values() if link.hello} == set(ids) - {
            peer.name
        }
    sent = {peer.name: peer.send_chat(f"привет от {peer.name}") for peer, _ in trio}
    for peer, rec in trio:
        others = set(ids) - {peer.name}
        await rec.until(has_count(len(others)))
        assert {(pid, msg["text"]) for pid, msg in rec.got} == {
            (ids[o], f"привет от {o}") for o in others
        }
        for pid, msg in rec.got:
            original = sent[msg["name"]]
            assert msg == original and msg["from"] == pid
    for (a, _), (b, _) in itertools.permutations(trio, 2):
        assert await a.ping(id_of(b)) >= 0


async def test_game_messages_reach_callback_and_bad_input_is_ignored(
    mesh: Callable[[str], tuple[MeshPeer, Recorder]],
) -> None:
    (a, rec_a), (b, _) = mesh("A"), mesh("B")
    await b.join(await a.create())
    await a.wait_connected(1)
    await b.wait_connected(1)
    link = b.peers[id_of(a)]
    for junk in ("not json", "[1, 2]", '{"no": "type"}', '{"t": 5}', '{"t": "pong", "n": "x"}'):
        assert link.send_text(junk)
    assert b.send(id_of(a), {"t": "game", "move": [1, 2, 3]})
    await rec_a.until(lambda got: len(got) == 1)
    assert rec_a.got == [(b.id, {"t": "game", "move": [1, 2, 3]})]
    assert b.broadcast({"t": "game", "n": 2}) == 1
    await rec_a.until(lambda got: len(got) == 2)
    assert await b.ping(id_of(a)) >= 0  # the peer survived the junk


async def test_failing_callback_does_not_break_the_peer(server: Server) -> None:
    def explode(peer_id: str, msg: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    a = MeshPeer(server.ws_url, "A", on_message=explode)
    b = MeshPeer(server.ws_url, "B")
    try:
        await b.join(await a.create())
        await b.wait_connected(1)
        b.send_chat("hi")
        b.send_chat("again")
        assert await b.ping(id_of(a)) >= 0
    finally:
        await a.close()
        await b.close()


async def test_leaving_peer_closes_link_and_hands_over_host(
    mesh: Callable[[str], tuple[MeshPeer, Recorder]],
) -> None:
    (a, _), (b, _), (c, _) = mesh("A"), mesh("B"), mesh("C")
    code = await a.create()
    await b.join(code)
    await c.join(code)
    await asyncio.gather(a.wait_connected(2), b.wait_connected(2), c.wait_connected(2))
    a_id = a.id
    await a.close()

    async def gone(peer: MeshPeer) -> None:
        while a_id in peer.peers:
            await peer.wait_change()

    await asyncio.wait_for(asyncio.gather(gone(b), gone(c)), 10)
    assert b.host == c.host == b.id
    assert b.send(id_of(c), {"t": "game"}) and await c.ping(id_of(b)) >= 0


async def test_join_errors_raise_signaling_error(
    mesh: Callable[[str], tuple[MeshPeer, Recorder]],
) -> None:
    (a, _), (b, _), (c, _) = mesh("Same"), mesh("Same"), mesh("C")
    code = await a.create()
    with pytest.raises(SignalingError) as err:
        await b.join(code)
    assert err.value.code == "name-taken"
    with pytest.raises(SignalingError) as err:
        await c.join("ZZZZZZ")
    assert err.value.code == "no-room"
    assert await c.join(code) == code
