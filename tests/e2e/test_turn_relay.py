"""Two browsers that may not reach each other directly play through a real coturn.

The signalling server hands each page short-lived TURN credentials in its ``joined`` frame
(``--turn-url``, ``--turn-secret-file``) and tells it to use only the relay
(``--turn-relay-only``: ICE transport policy ``relay``), so no host candidate is ever tried:
every byte of the game goes through ``turnserver``. The selected candidate pair must be relay on
both sides, and the game ends with a clean audit on both pages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.signaling.turn_proc import running_turn

from .harness import chromium, click_until, signaling_server
from .table_driver import seat_players
from .toy_driver import open_toy_table, table_result

pytestmark = pytest.mark.browser


async def test_two_pages_play_through_turn_only(tmp_path: Path) -> None:
    with running_turn() as turn:
        secret = tmp_path / "turn-secret"
        secret.write_text(turn.secret + "\n")
        turn_args = ["--turn-url", turn.url, "--turn-secret-file", str(secret)]
        with signaling_server(*turn_args, "--turn-relay-only", "--turn-ttl", "600") as server:
            async with chromium() as browser:
                players = await seat_players(browser, server, ["Аня", "Боря"], bot=False)
                for player in players:
                    config = await player.page.evaluate(
                        "() => { const m = window.magicTableApp.mesh;"
                        " return {policy: m.icePolicy, servers: m.iceServers}; }"
                    )
                    assert config["policy"] == "relay", config
                    (ice,) = config["servers"]
                    you = await player.page.evaluate("() => window.magicTableApp.mesh.you")
                    assert ice["urls"] == [turn.url] and ice["username"].endswith(":" + you)
                    assert turn.secret not in str(config)
                await open_toy_table(players)
                await click_until(players, {"done"}, timeout=120)
                results = [await table_result(p) for p in players]
                assert results[0][0] == "true" and results == [results[0]] * 2, results
                for player in players:
                    (link,) = (await player.mesh_debug()).values()
                    assert link["pair"] == {"local": "relay", "remote": "relay"}, link
                    assert all(c.startswith("127.0.0.1:") for c in link["candidates"]), link
                    assert not player.errors, (player.name, player.errors)
        log = turn.log_text()
        assert log.count("ALLOCATE processed, success") >= 2, log[-3000:]
