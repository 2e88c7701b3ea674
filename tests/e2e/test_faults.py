"""Faults in real browsers: the host's tab closes, the signalling server dies, a network drops.

Each test plays a real game over real WebRTC and checks that it still ends with every page's audit
clean and every page agreeing on the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Error as PlaywrightError

from tests.signaling.turn_proc import running_turn

from .harness import Player, chromium, click_until, free_port, signaling_server
from .rumble_driver import mid_fight, play_until, setup_lobby, start_rumble, table_state
from .table_driver import seat_players
from .toy_driver import log_length, open_toy_table, table_result

pytestmark = pytest.mark.browser

MESH = """() => { const m = window.magicTableApp.mesh;
  return {you: m.you, room: m.room, seated: m.seated, asked: m.asked ? m.asked.type : null,
          ws: m.ws ? m.ws.readyState : -1, trace: m.trace}; }"""


SEQUENCER = """() => window.magicTable.pyodide.runPython(`
from js import window
s = window.magicTableApp.table.session
s.peer.table.host == s.tid
`)"""


async def hurry_once_sequencing(player: Player) -> None:
    """Once the page sequences the table, it hurries every seat the table waits for (the absent
    one's automatic choices come at once instead of at the end of each timer)."""
    while not await player.page.evaluate(SEQUENCER):
        await asyncio.sleep(0.5)
    while True:
        button = player.page.locator('button[data-command="hurry-all"]')
        with contextlib.suppress(PlaywrightError):
            if await button.count():
                await button.click(timeout=1000)
        await asyncio.sleep(1.0)


def unexpected(player: Player) -> list[str]:
    """The page's errors, but the browser's own notes of what it could not reach while the
    server was down (each reconnection attempt, a resource): refused by a stopped server, or,
    through a ``Blackhole``, a fetch begun while it was cut and aborted when it was restored."""
    notes = (
        "net::ERR_CONNECTION_REFUSED",
        "net::ERR_CONNECTION_RESET",
        "net::ERR_EMPTY_RESPONSE",
        "console: WebSocket connection to",
    )
    return [e for e in player.errors if not any(note in e for note in notes)]


SETTLED = """async () => { await window.magicTable.snapshot;
  if (await window.magicTable.offline) await navigator.serviceWorker.ready; return true; }"""


async def settled(players: list[Player]) -> None:
    """Until each page is done with what it does after it starts: its offline copy (the service
    worker's cache) and its interpreter snapshot, made by a worker that loads Pyodide once more.
    A network cut before then breaks those loads, which is not what a test is about."""
    for player in players:
        await player.page.evaluate(SETTLED)


async def mesh_state(player: Player) -> dict[str, Any]:
    return dict(await player.page.evaluate(MESH))


async def wait_for(check: Any, what: str, timeout: float = 60) -> Any:
    """Poll ``check()`` (a coroutine function) until it returns something true."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.2)


async def test_the_host_tab_closes_mid_rumble_and_the_next_peer_sequences_to_the_end() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, ["Аня", "Боря"])
            anya, borya = players
            await setup_lobby(players)
            await start_rumble(anya, "tournament", 1, 10, 10)
            await play_until(players, mid_fight, timeout=180)
            before = await table_state(borya)
            await anya.context.close()  # the host's tab is gone for good
            hurrying = asyncio.create_task(hurry_once_sequencing(borya))
            try:
                final = await play_until([borya], lambda s: s["stage"] == "done", timeout=400)
            finally:
                hurrying.cancel()
            assert final["entries"] > before["entries"]
            assert any("Партия окончена" in line for line in final["log"]), final["log"][-5:]
            # Boris sequenced the rest (the present seats voted the silent host out) ...
            assert await borya.page.evaluate(SEQUENCER) is True
            # ... and the audit passed for everyone still there: the only seat blamed is the one
            # that left, for the contribution its closed tab could no longer make
            assert final["out"] == [0], final
            assert set(final["result"]["blame"]) == {"0"}, final["result"]
            assert "withheld" in final["result"]["blame"]["0"], final["result"]
            assert not borya.errors, borya.errors


async def test_the_server_dies_mid_game_the_game_goes_on_and_pages_rejoin() -> None:
    with signaling_server("--no-bots") as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, ["Аня", "Боря"], bot=False)
            anya, borya = players
            code = (await mesh_state(anya))["room"]
            await open_toy_table(players)
            await click_until(players, {"play", "audit", "done"}, timeout=90)
            entries = await log_length(anya)
            ids = [(await mesh_state(p))["you"] for p in players]

            server.kill()  # every socket dies; the in-memory room with it
            # the mesh keeps playing with no server at all
            await click_until(players, {"audit", "done"}, timeout=90)
            assert await log_length(anya) > entries
            server.restart()  # empty: the room is gone; the lowest-order page re-creates it

            async def back() -> bool:
                states = [await mesh_state(p) for p in players]
                return all(s["ws"] == 1 and s["room"] == code for s in states) and all(
                    s["you"] not in ids for s in states
                )

            await wait_for(back, "both pages rejoined the restarted server", timeout=60)
            await click_until(players, {"done"}, timeout=90)
            results = [await table_result(p) for p in players]
            assert results[0][0] == "true" and results == [results[0]] * 2, results
            for player in players:
                debug = await player.mesh_debug()
                assert [peer["channel"] for peer in debug.values()] == ["open"], debug

            # the same links were kept: a page reloads and resumes its seat in the new room
            await borya.page.reload()
            await borya.wait_ready()
            await borya.page.wait_for_selector("#table-result", timeout=60_000)
            assert (await borya.page.inner_text("#room-code")).strip() == code
            await borya.wait_open_channels(1)
            assert await table_result(borya) == results[0]
            roster = await anya.page.inner_text("#roster")
            assert roster.count("Боря") == 1, roster
            for player in players:
                assert not unexpected(player), (player.name, player.errors, player.failed)


class Blackhole:
    """A TCP forwarder to the signalling server whose network can be cut (bytes vanish, nothing
    is closed) and brought back (the cut connections are closed, as a lost NAT mapping does).

    It can also hold the server's answers: with ``holding`` set, a connection's first chunk from
    the server (the WebSocket handshake) goes through and the rest waits for ``release()``;
    ``asked`` is set once the page has sent a frame after the handshake (its join)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.cut = False
        self.holding = False
        self.released = asyncio.Event()
        self.asked = asyncio.Event()
        self.conns: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.conns.add(writer)
        try:
            while self.cut:  # a black hole: the connection opens, nothing ever comes back
                await asyncio.sleep(0.1)
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
            self.conns.add(up_writer)
            await asyncio.gather(
                self._pipe(reader, up_writer, up=True), self._pipe(up_reader, writer, up=False)
            )
        except OSError:
            pass
        finally:
            for w in (writer, locals().get("up_writer")):
                if isinstance(w, asyncio.StreamWriter):
                    self.conns.discard(w)
                    w.close()

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, up: bool
    ) -> None:
        chunks = 0
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                chunks += 1
                if up and chunks > 1:
                    self.asked.set()
                if not up and chunks > 1 and self.holding:
                    await self.released.wait()
                if not self.cut:
                    writer.write(data)
                    await writer.drain()
        writer.close()

    def release(self) -> None:
        """Let the held answers through, and what comes after."""
        self.holding = False
        self.released.set()

    def restore(self) -> None:
        for writer in list(self.conns):
            writer.transport.abort()
        self.conns.clear()
        self.asked.clear()
        self.cut = False

    async def stop(self) -> None:
        self.restore()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def moved_off(code: str, players: list[Player]) -> str:
    """The one room every page is seated in once they all left ``code`` (a failure shows each
    page's mesh state and its last signalling events)."""

    async def moved() -> str:
        states = [await mesh_state(p) for p in players]
        rooms = {s["room"] for s in states}
        settled = all(s["seated"] == s["room"] and not s["asked"] for s in states)
        return rooms.pop() if settled and len(rooms) == 1 and code not in rooms else ""

    try:
        return str(await wait_for(moved, "both pages seated in one new room", timeout=60))
    except AssertionError as error:
        states = [await mesh_state(p) for p in players]
        raise AssertionError(f"{error}; mesh states: {states}") from error


@pytest.mark.parametrize("answer", ["in-turn", "held", "both-taken"])
async def test_a_code_taken_while_the_server_was_down_moves_the_room_and_its_link(
    answer: str,
) -> None:
    """The pages come back to find their code holding someone else's room (with Anya's name in
    it): Anya makes a new room and tells Boris over their link. ``held``: Boris's own join of the
    old code is answered only after Anya's word has reached him (the answer to an older wish).
    ``both-taken``: Boris's name is taken there too, so both make a new room at once and must
    settle on one of the two."""
    with signaling_server("--no-bots") as server:
        holes = [Blackhole(server.port), Blackhole(server.port)]
        for hole in holes:
            await hole.start()
        hole_a, hole_b = holes if answer != "in-turn" else (holes[0], holes[0])
        try:
            async with chromium() as browser:
                origin_a, origin_b = (f"http://127.0.0.1:{h.port}/" for h in (hole_a, hole_b))
                anya = await Player.open(browser, origin_a, "Аня", voice=False)
                borya = await Player.open(browser, origin_b, "Боря", voice=False)
                code = await anya.create_room()
                await borya.join_room(code)
                players = [anya, borya]
                for player in players:
                    await player.wait_open_channels(1, timeout=60)
                await settled(players)

                hole_a.cut = hole_b.cut = True  # no page reaches the server while it restarts
                server.kill()
                server.restart()
                async with aiohttp.ClientSession() as session:
                    # ... and meanwhile someone else opens a room under the same code
                    squatter = await session.ws_connect(server.ws_url)
                    await squatter.send_json({"type": "create", "room": code, "name": "Аня"})
                    assert (await squatter.receive_json(timeout=10))["room"] == code
                    if answer == "both-taken":
                        other = await session.ws_connect(server.ws_url)
                        await other.send_json({"type": "join", "room": code, "name": "Боря"})
                        assert (await other.receive_json(timeout=10))["type"] == "joined"
                    if answer == "held":
                        hole_b.holding = True
                        hole_b.restore()
                        await asyncio.wait_for(hole_b.asked.wait(), 30)  # Boris asks to join
                        hole_a.restore()

                        async def told() -> str:
                            room = str((await mesh_state(borya))["room"])
                            return room if room != code else ""

                        first = await wait_for(
                            told, "Anya's new room reached Boris over their link"
                        )
                        hole_b.release()  # now the server's answer to his join comes
                    elif answer == "both-taken":  # both are refused at once, both make a room
                        for hole in holes:
                            hole.holding = True
                            hole.restore()
                        for hole in holes:
                            await asyncio.wait_for(hole.asked.wait(), 30)
                        for hole in holes:
                            hole.release()
                    else:
                        hole_a.restore()
                    new_code = await moved_off(code, players)
                    if answer == "held":  # the late answer did not send anyone anywhere else
                        assert new_code == first, (first, [await mesh_state(p) for p in players])
                    for player in players:  # the page shows the new room and its link
                        page = player.page
                        await page.wait_for_function(
                            "(c) => document.querySelector('#room-code').textContent.trim() === c",
                            arg=new_code,
                        )
                        assert (await page.input_value("#room-link")).endswith("/r/" + new_code)
                        assert page.url.endswith("/r/" + new_code)
                        (link,) = (await player.mesh_debug()).values()
                        # the same link all along: never closed, never renegotiated
                        assert link["channel"] == "open" and link["restarts"] == 0, link
                    await anya.say("всё ещё здесь")
                    await borya.wait_chat("Аня: всё ещё здесь")
                    roster = await anya.page.inner_text("#roster")
                    assert roster.count("Боря") == 1, roster
                    for player in players:  # no refusal was shown to the players on the way
                        assert "Ошибка" not in await player.chat_text(), player.name
                    await squatter.close()
                await borya.page.reload()  # the stored session follows the room too
                await borya.wait_ready()
                await borya.page.wait_for_selector("#room-code", timeout=60_000)
                assert (await borya.page.inner_text("#room-code")).strip() == new_code
                await borya.wait_open_channels(1)
                await borya.say("и я")
                await anya.wait_chat("Боря: и я")
                state = await mesh_state(anya)  # and the move stayed made
                assert state["room"] == state["seated"] == new_code, state
                for player in players:
                    assert not unexpected(player), (player.name, player.errors, player.failed)
        finally:
            for hole in holes:
                await hole.stop()


async def test_one_peers_network_drops_for_ten_seconds_and_it_recovers(tmp_path: Path) -> None:
    with running_turn() as turn:
        secret = tmp_path / "turn-secret"
        secret.write_text(turn.secret)
        turn_args = ["--turn-url", turn.url, "--turn-secret-file", str(secret), "--no-bots"]
        with signaling_server(*turn_args) as server:
            hole = Blackhole(server.port)
            await hole.start()
            try:
                async with chromium() as browser:
                    # Three players: a lone other one could vote the host out on its own word
                    # while the network is down (the majority of one voter is one).
                    anya = await Player.open(browser, server.origin + "/", "Аня", voice=False)
                    borya = await Player.open(browser, server.origin + "/", "Боря", voice=False)
                    # Vera's whole network: signalling through the forwarder, WebRTC only
                    # through the TURN relay; cutting both is her network going down.
                    vera_url = f"http://127.0.0.1:{hole.port}/"
                    vera = await Player.open(browser, vera_url, "Вера", voice=False, relay=True)
                    code = await anya.create_room()
                    await borya.join_room(code)
                    await vera.join_room(code)  # the newcomer: she offers, so she restarts ICE
                    players = [anya, borya, vera]
                    for player in players:
                        await player.wait_open_channels(2, timeout=60)
                    await open_toy_table(players)
                    await click_until(players, {"play", "audit", "done"}, timeout=90)
                    first = (await mesh_state(vera))["you"]
                    await settled(players)

                    hole.cut = True
                    turn.stop()
                    await asyncio.sleep(10)
                    turn.start()
                    hole.restore()

                    async def relinked() -> bool:
                        links = (await vera.mesh_debug()).values()
                        state = await mesh_state(vera)
                        up = all(
                            link["connection"] == "connected" and link["channel"] == "open"
                            for link in links
                        )
                        restarted = all(link["restarts"] >= 1 for link in links)
                        return up and restarted and state["you"] != first and len(links) == 2

                    await wait_for(relinked, "Vera's links restarted and she rejoined", 90)
                    await click_until(players, {"done"}, timeout=90)
                    results = [await table_result(p) for p in players]
                    assert results[0][0] == "true" and results == [results[0]] * 3, results
                    for link in (await vera.mesh_debug()).values():
                        assert link["pair"]["local"] == "relay", link
                    for player in players:
                        assert not unexpected(player), (player.name, player.errors, player.failed)
            finally:
                await hole.stop()
