"""Every refusal of the signalling socket, and that the server keeps serving other rooms."""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.signaling.conftest import (
    Server,
    StartServer,
    create,
    expect_error,
    join,
    recv,
    send,
    sync,
)


async def assert_other_room_works(server: Server) -> None:
    """A fresh pair of clients can still meet and relay."""
    a, ja = await create(server, "Witness")
    b, jb = await join(server, ja["room"], "Second")
    assert await recv(a) == {"type": "peer-joined", "peer": jb["roster"][-1]}
    await send(b, {"type": "signal", "to": ja["you"], "data": "hi"})
    assert await recv(a) == {"type": "signal", "from": jb["you"], "data": "hi"}
    await a.close(), await b.close()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad-json"),
        ("[1, 2]", "bad-message"),
        ('"create"', "bad-message"),
        ("{}", "bad-message"),
        ('{"type": 5}', "bad-message"),
        ('{"type": "dance"}', "unknown-type"),
        ('{"type": "create"}', "bad-message"),
        ('{"type": "create", "name": 7}', "bad-message"),
        ('{"type": "create", "name": "A", "role": "judge"}', "bad-message"),
        ('{"type": "join", "name": "A"}', "bad-message"),
        ('{"type": "join", "room": "ABCDEF", "name": "A", "resume": 3}', "bad-message"),
        ('{"type": "signal", "to": "x"}', "bad-message"),
        ('{"type": "signal", "to": 1, "data": {}}', "bad-message"),
        ('{"type": "signal", "to": "x", "data": {}}', "not-in-room"),
        ('{"type": "leave"}', "not-in-room"),
        ('{"type": "join", "room": "ZZZZZZ", "name": "A"}', "no-room"),
        ('{"type": "create", "name": "   "}', "bad-name"),
        ('{"type": "create", "name": "a\\u0007b"}', "bad-name"),
        ('{"type": "create", "name": "line\\nbreak"}', "bad-name"),
        (json.dumps({"type": "create", "name": "x" * 33}), "bad-name"),
    ],
)
async def test_bad_input_gets_an_error_and_the_socket_stays_usable(
    server: Server, raw: str, code: str
) -> None:
    ws = await server.ws()
    await ws.send_str(raw)
    await expect_error(ws, code)
    await sync(ws)
    await ws.close()
    await assert_other_room_works(server)


async def test_name_of_32_characters_is_fine(server: Server) -> None:
    ws, joined = await create(server, "я" * 32)
    assert joined["roster"][0]["name"] == "я" * 32
    await ws.close()


async def test_binary_frame_is_bad_message(server: Server) -> None:
    ws = await server.ws()
    await ws.send_bytes(b"\x00\x01")
    await expect_error(ws, "bad-message")
    await sync(ws)
    await ws.close()


async def test_too_big_frame_closes_with_1009(start_server: StartServer) -> None:
    server = await start_server(max_frame_bytes=1024)
    ws = await server.ws()
    await send(ws, {"type": "ping", "pad": "x" * 2000})
    await expect_error(ws, "too-big")
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1009
    await assert_other_room_works(server)


async def test_huge_frame_is_cut_off(start_server: StartServer) -> None:
    server = await start_server(max_frame_bytes=1024)
    ws = await server.ws()
    await ws.send_str("x" * 100_000)
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1009
    await assert_other_room_works(server)


async def test_create_and_join_twice_is_already_in_room(server: Server) -> None:
    a, ja = await create(server, "A")
    await send(a, {"type": "create", "name": "A"})
    await expect_error(a, "already-in-room")
    await send(a, {"type": "join", "room": ja["room"], "name": "Z"})
    await expect_error(a, "already-in-room")
    await a.close()


async def test_room_full_per_role(start_server: StartServer) -> None:
    server = await start_server(max_players=2, max_spectators=1)
    a, ja = await create(server, "P1")
    b, _ = await join(server, ja["room"], "P2")
    s, _ = await join(server, ja["room"], "S1", "spectator")
    extra = await server.ws()
    await send(extra, {"type": "join", "room": ja["room"], "name": "P3"})
    await expect_error(extra, "room-full")
    await send(extra, {"type": "join", "room": ja["room"], "name": "S2", "role": "spectator"})
    await expect_error(extra, "room-full")
    await b.close()
    assert (await recv(a))["type"] == "peer-joined"  # P2
    assert (await recv(a))["type"] == "peer-joined"  # S1
    assert (await recv(a))["type"] == "peer-left"
    await send(extra, {"type": "join", "room": ja["room"], "name": "P3"})
    assert (await recv(extra))["type"] == "joined"
    await assert_other_room_works(server)
    for ws in (a, s, extra):
        await ws.close()


async def test_default_room_holds_six_players_and_four_spectators(server: Server) -> None:
    socks = []
    first, joined = await create(server, "P0")
    socks.append(first)
    for i in range(1, 6):
        socks.append((await join(server, joined["room"], f"P{i}"))[0])
    for i in range(4):
        socks.append((await join(server, joined["room"], f"S{i}", "spectator"))[0])
    extra = await server.ws()
    await send(extra, {"type": "join", "room": joined["room"], "name": "P6"})
    await expect_error(extra, "room-full")
    for ws in [*socks, extra]:
        await ws.close()


async def test_too_many_rooms(start_server: StartServer) -> None:
    server = await start_server(max_rooms=2, resume_grace=0)
    a, _ = await create(server, "A")
    b, jb = await create(server, "B")
    c = await server.ws()
    await send(c, {"type": "create", "name": "C"})
    await expect_error(c, "too-many-rooms")
    d, _ = await join(server, jb["room"], "D")  # joining existing rooms still works
    assert (await recv(b))["type"] == "peer-joined"
    await a.close()  # a's room vanishes once the server has seen the close
    for _ in range(50):
        await send(c, {"type": "create", "name": "C"})
        frame = await recv(c)
        if frame["type"] == "joined":
            break
        assert frame["code"] == "too-many-rooms"
    assert frame["type"] == "joined"
    for ws in (b, c, d):
        await ws.close()


async def test_message_rate_limit_then_close(start_server: StartServer) -> None:
    server = await start_server(msg_rate=0.01, msg_burst=3, rate_strikes=3)
    ws = await server.ws()
    for _ in range(6):
        await send(ws, {"type": "ping"})
    frames = [await recv(ws) for _ in range(6)]
    assert frames[:3] == [{"type": "pong"}] * 3
    assert [f["code"] for f in frames[3:]] == ["rate-limit"] * 3
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1008
    await assert_other_room_works(server)


async def test_join_rate_limit_per_address(start_server: StartServer) -> None:
    server = await start_server(join_limit=3)
    ws = await server.ws()
    for _ in range(3):
        await send(ws, {"type": "join", "room": "AAAAAA", "name": "guess"})
        await expect_error(ws, "no-room")
    await send(ws, {"type": "join", "room": "BBBBBB", "name": "guess"})
    await expect_error(ws, "join-rate-limit")
    other = await server.ws()  # same address: also limited
    await send(other, {"type": "create", "name": "X"})
    await expect_error(other, "join-rate-limit")
    await sync(other)
    await ws.close(), await other.close()
