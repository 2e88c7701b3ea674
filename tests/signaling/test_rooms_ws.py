"""Rooms over the WebSocket: create, join, roster, relay, leave, host hand-over, resume."""

from __future__ import annotations

import aiohttp

from signaling.rooms import CODE_ALPHABET
from tests.signaling.conftest import (
    Server,
    StartServer,
    create,
    expect_error,
    join,
    left_room,
    recv,
    send,
    sync,
)


async def test_create_returns_room_code_ids_and_roster(server: Server) -> None:
    ws, joined = await create(server, "  Аня  ")
    code = joined["room"]
    assert len(code) == 6 and all(c in CODE_ALPHABET for c in code)
    assert joined["host"] == joined["you"]
    assert joined["roster"] == [{"id": joined["you"], "name": "Аня", "role": "player", "order": 1}]
    assert isinstance(joined["resume"], str) and len(joined["resume"]) >= 16
    assert 8 <= len(joined["you"]) <= 12
    await ws.close()


async def test_join_announces_newcomer_and_keeps_roster_sorted(server: Server) -> None:
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"].lower(), "B", "spectator")
    assert jb["host"] == ja["you"]
    assert [p["name"] for p in jb["roster"]] == ["A", "B"]
    assert [p["order"] for p in jb["roster"]] == [1, 2]
    assert jb["roster"][1] == {"id": jb["you"], "name": "B", "role": "spectator", "order": 2}
    assert await recv(a) == {"type": "peer-joined", "peer": jb["roster"][1]}
    c, jc = await join(server, ja["room"], "C")
    assert [p["order"] for p in jc["roster"]] == [1, 2, 3]
    assert (await recv(a))["peer"]["name"] == "C"
    assert (await recv(b))["peer"]["name"] == "C"
    for ws in (a, b, c):
        await ws.close()


async def test_signal_reaches_only_the_named_peer(server: Server) -> None:
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"], "B")
    c, jc = await join(server, ja["room"], "C")
    await recv(a), await recv(a), await recv(b)  # peer-joined frames
    data = {"sdp": {"type": "offer", "sdp": "v=0..."}, "extra": [1, None]}
    await send(c, {"type": "signal", "to": jb["you"], "data": data})
    await sync(c)
    assert await recv(b) == {"type": "signal", "from": jc["you"], "data": data}
    await sync(a)  # a's first frame is the pong: nothing was relayed to it
    for ws in (a, b, c):
        await ws.close()


async def test_signal_to_peer_of_another_room_is_no_peer(server: Server) -> None:
    a, _ = await create(server, "A")
    b, jb = await create(server, "B")
    await send(a, {"type": "signal", "to": jb["you"], "data": 1})
    await expect_error(a, "no-peer")
    await sync(b)
    await send(a, {"type": "signal", "to": "nobody", "data": 1})
    await expect_error(a, "no-peer")
    await a.close(), await b.close()


async def test_leave_and_host_handover(server: Server) -> None:
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"], "B")
    c, jc = await join(server, ja["room"], "C")
    await recv(a), await recv(a), await recv(b)
    await send(a, {"type": "leave"})
    assert await recv(b) == {"type": "peer-left", "peer": ja["you"], "host": jb["you"]}
    assert await recv(c) == {"type": "peer-left", "peer": ja["you"], "host": jb["you"]}
    await sync(a)  # still connected, no longer in a room
    await send(a, {"type": "signal", "to": jb["you"], "data": 1})
    await expect_error(a, "not-in-room")
    await c.close()  # closing the socket is leaving
    assert await recv(b) == {"type": "peer-left", "peer": jc["you"], "host": jb["you"]}
    # a may join again, later than b: b stays host
    await send(a, {"type": "join", "room": ja["room"], "name": "A"})
    again = await recv(a)
    assert again["host"] == jb["you"] and again["roster"][-1]["order"] == 4
    await a.close(), await b.close()


async def test_empty_room_vanishes_after_the_grace_period(start_server: StartServer) -> None:
    server = await start_server(resume_grace=0)
    a, ja = await create(server, "A")
    await a.close()
    await left_room(server, ja["room"])
    ws = await server.ws()
    await send(ws, {"type": "join", "room": ja["room"], "name": "B"})
    await expect_error(ws, "no-room")
    await ws.close()


async def test_name_taken_without_matching_resume(server: Server) -> None:
    a, ja = await create(server, "Аня")
    b = await server.ws()
    await send(b, {"type": "join", "room": ja["room"], "name": "аня"})
    await expect_error(b, "name-taken")
    await send(b, {"type": "join", "room": ja["room"], "name": "Аня", "resume": "wrong"})
    await expect_error(b, "name-taken")
    await sync(a)  # a was not disturbed
    await a.close(), await b.close()


async def test_resume_replaces_the_old_peer(server: Server) -> None:
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"], "B")
    await recv(a)
    fresh = await server.ws()
    await send(fresh, {"type": "join", "room": ja["room"], "name": "B", "resume": jb["resume"]})
    rejoined = await recv(fresh)
    assert rejoined["type"] == "joined" and rejoined["you"] != jb["you"]
    assert [p["name"] for p in rejoined["roster"]] == ["A", "B"]
    assert await recv(a) == {"type": "peer-left", "peer": jb["you"], "host": ja["you"]}
    assert (await recv(a))["peer"]["id"] == rejoined["you"]
    await expect_error(b, "replaced")
    closing = await b.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    # the old token no longer works, the new one does
    other = await server.ws()
    await send(other, {"type": "join", "room": ja["room"], "name": "B", "resume": jb["resume"]})
    await expect_error(other, "name-taken")
    for ws in (a, fresh, other):
        await ws.close()


async def test_reload_after_close_takes_back_seat_order_and_host(server: Server) -> None:
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"], "B")
    await a.close()  # the host's page reloads: its socket closes first
    assert await recv(b) == {"type": "peer-left", "peer": ja["you"], "host": jb["you"]}
    back = await server.ws()
    await send(back, {"type": "join", "room": ja["room"], "name": "A", "resume": ja["resume"]})
    rejoined = await recv(back)
    assert rejoined["host"] == rejoined["you"]
    assert [(p["name"], p["order"]) for p in rejoined["roster"]] == [("A", 1), ("B", 2)]
    announced = await recv(b)
    assert announced["peer"]["order"] == 1
    # the token was spent: a second resume with it is an ordinary join under a taken name
    again = await server.ws()
    await send(again, {"type": "join", "room": ja["room"], "name": "A", "resume": ja["resume"]})
    await expect_error(again, "name-taken")
    for ws in (b, back, again):
        await ws.close()


async def test_empty_room_waits_for_a_reload(server: Server) -> None:
    a, ja = await create(server, "A")
    await a.close()
    back = await server.ws()
    await send(back, {"type": "join", "room": ja["room"], "name": "A", "resume": ja["resume"]})
    rejoined = await recv(back)
    assert rejoined["type"] == "joined" and rejoined["room"] == ja["room"]
    assert rejoined["roster"][0]["order"] == 1
    await back.close()


async def test_ping_pong_before_joining(server: Server) -> None:
    ws = await server.ws()
    await sync(ws)
    await ws.close()
