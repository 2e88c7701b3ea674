"""The chat keeps its newest line in view: each line that comes, and the history a reloaded page
draws again, leave the chat log scrolled to its end (``app.stick_to_end``: after the next layout,
not by laying the page out at once)."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser

LINES = 30  # more than the chat log's height holds
AT_END = """() => { const log = document.getElementById("chat-log");
  return !!log && log.scrollHeight > log.clientHeight
    && log.scrollTop + log.clientHeight >= log.scrollHeight - 1; }"""


async def test_the_chat_log_shows_its_newest_line() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            anya = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            code = await anya.create_room()
            boris = await Player.open(browser, server.origin + "/", "Боря", voice=False)
            await boris.join_room(code)
            for player in (anya, boris):
                await player.wait_open_channels(1)
            for number in range(1, LINES + 1):
                await anya.say(f"строка {number}")
            await boris.wait_chat(f"Аня: строка {LINES}")
            for player in (anya, boris):  # the sender's own lines and the received ones
                await player.page.wait_for_function(AT_END, timeout=5_000)
            await boris.page.reload()
            await boris.wait_ready()
            await boris.wait_chat(f"Аня: строка {LINES}")
            await boris.page.wait_for_function(AT_END, timeout=5_000)
            for player in (anya, boris):
                assert not player.errors, (player.name, player.errors)
