"""A page in the lobby lays each game's board out once, unseen, the chosen game's first
(``web.ui.rehearsal``): a hidden holder with a sample board is added and taken away in one task,
so nothing is shown and nothing stays; no warning is printed, and no picture of a game that is not
chosen is downloaded."""

from __future__ import annotations

import pytest

from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

# Every holder added to the page's body, as it was when added, and whether it was still there
# when the observer ran (after the task that added it).
WATCH = """() => {
  window.__rehearsed = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!(node instanceof Element) || !node.hasAttribute("data-rehearsal")) continue;
      const board = node.querySelector(".board-wrap > section");
      window.__rehearsed.push({
        game: node.getAttribute("data-rehearsal"),
        board: board ? board.className : null,
        pictures: node.querySelectorAll("img").length,
        hidden: node.getAttribute("aria-hidden") === "true" && node.style.visibility === "hidden",
        stayed: node.isConnected,
      });
    }
  }).observe(document.body, {childList: true});
}"""
DONE = "() => window.__rehearsed.length >= 3"
LEFT = "() => document.querySelectorAll('[data-rehearsal]').length"


async def test_the_lobby_lays_out_each_games_board_once_unseen() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            player = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            said: list[str] = []
            player.page.on("console", lambda message: said.append(message.text))
            await player.page.evaluate(WATCH)
            await player.create_room()
            await player.page.wait_for_function(DONE, timeout=30_000)
            await player.page.wait_for_timeout(500)  # time for a fourth, which must not come
            rehearsed = await player.page.evaluate("() => window.__rehearsed")
            left = await player.page.evaluate(LEFT)
            warnings = [line for line in said + player.errors if "rehearse" in line]
            other_art = [
                url for url in player.requests if "/art/nevermore/" in url or "/art/circle/" in url
            ]
    assert [r["game"] for r in rehearsed] == ["rumble", "nevermore", "circle"]
    assert [r["board"] for r in rehearsed] == ["rumble", "nevermore", "circle-board"]
    assert all(r["pictures"] > 0 and r["hidden"] and not r["stayed"] for r in rehearsed)
    assert left == 0
    assert warnings == []
    assert other_art == []
