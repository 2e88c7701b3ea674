"""Fair play in the browser: three pages (WebCrypto) and an aiortc peer (cryptography) shuffle,
deal, play «Проба» and audit together over real WebRTC; one page reloads mid-game."""

from __future__ import annotations

import json

import pytest

from .harness import Player, PythonPeer, chromium, click_until, signaling_server, stage_of
from .rumble_driver import setup_lobby

pytestmark = pytest.mark.browser

SPY = "async (code) => await window.magicTable.pyodide.runPythonAsync(code)"
SPY_CODE = """
import json
from engine.fairness import curve, sharing
from engine.fairness.deck import ShuffleSeed, check_key
from engine.protocol.boxes import open_box
from web.ui import app

peer = app.APP.table.session.peer
table, seat = peer.table, peer.seat
sent = [(d, f"share {d}->{seat}", b[seat]) for d, b in table.share_boxes.items() if seat in b]
sent += [(g, f"deliver {g}->{r}", box) for g, r, box in table.boxes if r == seat]
seeds = []
for other, context, box in sent:
    raw = await open_box(
        peer.backend, peer.bundle.dh, table.seat_member(other).dh, table.room, table.game,
        context, box,
    )
    seeds.append(ShuffleSeed(raw[:32]))
    value = int.from_bytes(raw[:32], "big")
    if 0 < value < curve.N:
        seeds.append(sharing.seeds_of(value)[0])
    try:
        keys = json.loads(json.loads(raw)["plain"])["keys"]
        seeds += [ShuffleSeed(bytes.fromhex(k)) for k in keys.values()]
    except (ValueError, KeyError, TypeError):
        pass
leaked = 0
for other in range(table.seats):
    if other == seat:
        continue
    for slot in range(table.layout.total):
        digest = table.slot_commitment(other, slot)
        keys = [s.slot_key(slot) for s in seeds]
        if any(check_key(table.room, table.game, other, slot, k, digest) for k in keys):
            leaked += 1
json.dumps({"boxes": len(sent), "leaked": leaked})
"""


IDLE_DIGEST = """() => { const s = document.querySelector('#table-status');
  const t = window.magicTableApp.table.session.peer.table;
  return t.stage === 'play' && !!s && s.dataset.digest === t.digest(); }"""


async def test_pages_and_python_peer_play_and_audit_together() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            names = ["Аня", "Боря", "Вера"]
            players = [
                await Player.open(browser, server.origin + "/", n, voice=False) for n in names
            ]
            code = await players[0].create_room()
            for player in players[1:]:
                await player.join_room(code)
            bot = PythonPeer(server, "--room", code, "--name", "Робот", "--play", "random")
            try:
                for player in players:
                    await player.wait_open_channels(3)
                await setup_lobby(players)  # heroes and «Я готов»; the Python peer is ready at once
                host = players[0].page
                await host.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
                # Wait until the host's table knows everyone (table-hello from each peer).
                await host.wait_for_function(
                    "() => window.magicTableApp.table.session.hellos.length === 4", timeout=20_000
                )
                await host.select_option("#table-game", "toy")
                await host.fill("#table-timer", "60")
                await host.click("#open-table")
                for player in players:
                    await player.page.wait_for_selector("#table-status", timeout=20_000)
                    crypto = await player.page.inner_text("#table")
                    assert "webcrypto" in crypto, crypto
                await bot.wait_line("TABLE", timeout=20)

                # Play until the cards are dealt, then Boris reloads in the middle of the game.
                await click_until(players, {"play", "audit", "done"}, timeout=60)
                assert await stage_of(players[1]) == "play"
                # Mid-game the redraw leaves the digest out; the idle page puts it on its status.
                await players[0].page.wait_for_function(IDLE_DIGEST, timeout=10_000)
                # A curious page: its Python opens every box it was sent and tries each plaintext
                # as another seat's seed. It holds one share of each other seat, nothing more.
                spied = json.loads(await players[2].page.evaluate(SPY, SPY_CODE))
                assert spied["boxes"] >= 3, spied
                assert spied["leaked"] == 0, spied
                await players[1].page.reload()
                await players[1].wait_ready()
                await players[1].page.wait_for_selector("#table-status", timeout=30_000)

                await click_until(players, {"done"}, timeout=120)
                await bot.wait_line("TABLE done", timeout=30)
            finally:
                await bot.stop()

            result = await bot.wait_line("RESULT")
            assert result == 'RESULT {"blame": {}, "ok": true}'
            bot_digest = (await bot.wait_line("DIGEST")).split()[1]
            for player in players:
                element = await player.page.query_selector("#table-result")
                assert element is not None
                assert await element.get_attribute("data-ok") == "true"
                status = await player.page.query_selector("#table-status")
                assert status is not None
                assert await status.get_attribute("data-digest") == bot_digest
                assert not player.errors, (player.name, player.errors)
            await players[0].screenshot("fair-table-done")

            # The next game at the same table: the host opens it from the finished one.
            await host.select_option("#table-game", "toy")
            await host.click("#open-table")
            for player in players:
                await player.page.wait_for_function(
                    "(old) => { const s = document.querySelector('#table-status');"
                    " return s && s.dataset.digest !== old; }",
                    arg=bot_digest,
                )
            await click_until(players, {"done"}, timeout=120)
            for player in players:
                assert await player.page.get_attribute("#table-result", "data-ok") == "true"
