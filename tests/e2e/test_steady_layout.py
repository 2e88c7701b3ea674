"""The room's page keeps its left column still while the table grows and shrinks (a game's
table changes height with nearly every entry): the link, the players and the chat do not move,
so the browser repaints the table's changes, not the page around them."""

from __future__ import annotations

import json

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

PLACES = """async () => {
  const table = document.getElementById("table");
  const where = () => [".share", ".people", ".chat"].map(
    (s) => Math.round(document.querySelector(s).getBoundingClientRect().top));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const seen = [];
  for (const height of [0, 900, 2400, 300]) {
    table.style.minHeight = height + "px";
    await frame();
    seen.push({height, tops: where(), table: Math.round(table.getBoundingClientRect().height)});
  }
  table.style.minHeight = "";
  return JSON.stringify(seen);
}"""


async def test_the_left_column_stays_put_as_the_table_grows() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            await player.create_room()
            seen = json.loads(await player.page.evaluate(PLACES))
            assert seen[2]["table"] >= 2400, seen  # the table did grow past the column
            assert len({tuple(s["tops"]) for s in seen}) == 1, seen
