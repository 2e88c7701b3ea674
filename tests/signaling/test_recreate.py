"""Re-creating a room under its old code (``create`` with ``room``), after a server restart."""

from __future__ import annotations

import asyncio

import pytest

from signaling.server import HUB_KEY
from signaling.store import Store
from tests.signaling.conftest import StartServer, create, expect_error, recv, send


async def test_a_gone_room_is_recreated_under_its_code_and_the_others_follow(
    start_server: StartServer,
) -> None:
    second = await start_server(resume_grace=0.3)
    a, ja = await create(second, "A")
    code = ja["room"]
    await a.close()
    # the room is gone, as after a restart of an in-memory server
    assert second.app is not None
    store = second.app[HUB_KEY].store
    async with asyncio.timeout(10):
        while await store.get(code) is not None and not await gone(store, code):
            await asyncio.sleep(0.1)
    b = await second.ws()
    await send(b, {"type": "join", "room": code, "name": "B", "resume": "stale"})
    await expect_error(b, "no-room")
    a2 = await second.ws()
    await send(a2, {"type": "create", "room": code.lower()[:3] + "-" + code[3:], "name": "A"})
    joined = await recv(a2)
    assert joined["type"] == "joined" and joined["room"] == code
    assert joined["host"] == joined["you"] and joined["roster"][0]["order"] == 1
    await send(b, {"type": "join", "room": code, "name": "B", "resume": "stale"})
    jb = await recv(b)
    assert jb["type"] == "joined" and jb["host"] == joined["you"]
    assert [p["name"] for p in jb["roster"]] == ["A", "B"]
    assert (await recv(a2))["type"] == "peer-joined"
    # a room that exists is never taken over by create: the asker must join it
    c = await second.ws()
    await send(c, {"type": "create", "room": code, "name": "C"})
    await expect_error(c, "room-taken")
    for ws in (a2, b, c):
        await ws.close()


async def gone(store: Store, code: str) -> bool:
    """An empty room past its grace is gone for a join (memory purges it on the next change)."""
    room = await store.get(code)
    return room is None or room.expired(0.3)


@pytest.mark.parametrize("room", ["ABC", "ABCDEFG", "ABCDE0", "ABCDEI", 12, ""])
async def test_a_malformed_code_in_create_is_bad_message(
    start_server: StartServer, room: object
) -> None:
    server = await start_server()
    ws = await server.ws()
    await send(ws, {"type": "create", "room": room, "name": "A"})
    await expect_error(ws, "bad-message")
    await send(ws, {"type": "create", "name": "A"})  # nothing changed: a plain create works
    assert (await recv(ws))["type"] == "joined"
    await ws.close()


async def test_create_with_a_code_counts_against_the_join_limit(start_server: StartServer) -> None:
    server = await start_server(join_limit=2)
    ws = await server.ws()
    for code in ("22222A", "22222B"):
        await send(ws, {"type": "create", "room": code, "name": "A"})
        assert (await recv(ws))["type"] == "joined"
        await send(ws, {"type": "leave"})
    await send(ws, {"type": "create", "room": "22222C", "name": "A"})
    await expect_error(ws, "join-rate-limit")
    await ws.close()
