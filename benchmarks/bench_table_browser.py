"""Click-to-every-peer time at a real table: pages play a game over WebRTC, each page logs when it
clicked a move and when every log entry appeared; compared with a raw data-channel ping.

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.bench_table_browser [GAME] [PAGES]'``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from benchmarks import options
from tests.e2e.harness import Player, chromium, signaling_server, stage_of
from tests.e2e.rumble_driver import setup_lobby
from web.ui.boards import BOARDS

NAMES = ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор"]
TRACE = """() => { const t = window.magicTableApp.table; return JSON.stringify({
  applied: t.applied_at.toJs(), submitted: t.submitted_at.toJs(), tid: t.session.tid,
  log: t.session.peer.table.log.toJs({dict_converter: Object.fromEntries})
    .map((e) => [e.msg.from, e.msg.body.t]) }); }"""
PINGS = """async (n) => { const mesh = window.magicTableApp.mesh; const out = [];
  for (let i = 0; i < n; i++) for (const id of mesh.peers.keys()) out.push(await mesh.ping(id));
  return out; }"""


async def panel_stage(player: Player) -> dict[str, Any]:
    """The table's stage as its panel shows it, for ``table_driver.play_until``.

    A benchmark waits for the end of a game with this, not with the tests' full reading of the
    table through the page's Python (its whole log said in words, the view, the digest): that
    reading is a main-thread task of its own every tenth of a second, which no player's page
    runs, and it was counted among the game's long tasks and delayed the clicks it measures."""
    return {"stage": await stage_of(player)}


def finished(state: dict[str, Any]) -> bool:
    """The game is over (its audit is done)."""
    return state["stage"] == "done"


async def play(players: list[Player], timeout: float = 600) -> None:
    """Every page makes its first offered move as soon as one is offered, until the game ends."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while [await stage_of(p) for p in players] != ["done"] * len(players):
        if loop.time() > deadline:
            raise RuntimeError("the game did not finish")
        for player in players:
            button = player.page.locator("#moves button").first
            if await button.count():
                with contextlib.suppress(PlaywrightError):
                    await button.click(timeout=1000)
        await asyncio.sleep(0.05)


def click_entries(traces: list[dict[str, Any]], near: int | None = None) -> list[tuple[float, int]]:
    """For each click, ms until the resulting action entry (or the ``cardkeys`` entry that shows
    its cards) was shown on the slowest page, and that entry's index in the log.

    A click's entry is this page's first action in the log after the click (automatic moves and
    timer choices made no click and are skipped). With ``near``, only an entry at most ``near``
    entries after the click counts: in real time a refused move has no entry, and its click must
    not borrow a later one."""
    result = []
    log = traces[0]["log"]
    for trace in traces:
        for clicked, entries in trace["submitted"]:
            start = int(entries)
            stop = len(log) if near is None else min(len(log), start + near + 1)
            index = next(
                (
                    i
                    for i in range(start, stop)
                    if log[i][0] == trace["tid"] and log[i][1] == "action"
                ),
                None,
            )
            if index is None:
                continue
            index = shown_by(log, index)
            shown = [t["applied"][index] for t in traces if index < len(t["applied"])]
            if len(shown) == len(traces):
                result.append((max(shown) - clicked, index))
    return result


def shown_by(log: list[list[Any]], index: int) -> int:
    """The entry that puts the action at ``index`` on screen: its author's ``cardkeys`` when the
    move shows cards (commit, sequence, open: the cards come in a later entry, before that
    author's next action), else the action itself. A later action of the same author (an opening
    the game makes at once, say) and its cards belong to that action, not to this one."""
    author = log[index][0]
    for j in range(index + 1, min(len(log), index + 4)):
        if log[j][0] == author and log[j][1] == "action":
            break
        if log[j][0] == author and log[j][1] == "cardkeys":
            return j
    return index


def latencies(traces: list[dict[str, Any]], near: int | None = None) -> list[float]:
    """The times of ``click_entries``."""
    return [ms for ms, _ in click_entries(traces, near)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(game: str, pages: int) -> tuple[list[float], list[float]]:
    with signaling_server() as server:
        async with chromium() as browser:
            players = [
                await Player.open(browser, server.origin + "/", NAMES[i], voice=False)
                for i in range(pages)
            ]
            code = await players[0].create_room()
            for player in players[1:]:
                await player.join_room(code)
            for player in players:
                await player.wait_open_channels(pages - 1)
            await setup_lobby(players)
            host = players[0].page
            await host.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
            await host.select_option("#table-game", game)
            await host.fill("#table-timer", "600")
            await host.click("#open-table")
            await play(players)
            traces = [json.loads(await p.page.evaluate(TRACE)) for p in players]
            pings: list[float] = []
            for player in players:
                pings += list(await player.page.evaluate(PINGS, 20))
            return latencies(traces), pings


def command_line(args: list[str] | None = None) -> argparse.Namespace:
    """``[GAME] [PAGES]``, checked before anything starts (``--help``: the docstring above)."""
    parser = options.parser(__doc__)
    parser.add_argument("game", nargs="?", choices=list(BOARDS), default="toy")
    parser.add_argument("pages", nargs="?", type=options.whole(2, 6, "pages"), default=4)
    return parser.parse_args(args)


def main() -> None:
    asked = command_line()
    game, pages = asked.game, asked.pages
    clicks, pings = asyncio.run(run(game, pages))
    one_way = pct(pings, 0.5) / 2
    print(f"## Table «{game}», {pages} Chromium pages over WebRTC ({len(clicks)} clicks)")
    p50, p95 = pct(clicks, 0.5), pct(clicks, 0.95)
    print(f"click to shown on every page: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(
        f"raw data-channel ping round trip: p50 {pct(pings, 0.5):.2f} ms;"
        f" click p50 / one-way ping: {pct(clicks, 0.5) / one_way:.0f}x"
    )


if __name__ == "__main__":
    main()
