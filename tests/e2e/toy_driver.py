"""«Проба» (the toy game) at the table: the shortest real game, for tests about the network."""

from __future__ import annotations

from .harness import Player
from .rumble_driver import setup_lobby

LOG_LENGTH = "() => window.magicTableApp.table.session.peer.table.log.length"


async def open_toy_table(players: list[Player]) -> None:
    """Everyone says ready; once the host's table knows every page, it opens «Проба»."""
    await setup_lobby(players)
    host = players[0].page
    await host.wait_for_selector("#open-table:not([disabled])", timeout=30_000)
    await host.wait_for_function(
        f"() => window.magicTableApp.table.session.hellos.length === {len(players)}",
        timeout=30_000,
    )
    await host.select_option("#table-game", "toy")
    await host.fill("#table-timer", "60")
    await host.click("#open-table")
    for player in players:
        await player.page.wait_for_selector("#table-status", timeout=30_000)


async def log_length(player: Player) -> int:
    """How many entries this page's table log holds."""
    return int(await player.page.evaluate(LOG_LENGTH))


async def table_result(player: Player) -> tuple[str | None, str | None]:
    """The audit's verdict and the table digest this page shows."""
    ok = await player.page.get_attribute("#table-result", "data-ok")
    digest = await player.page.get_attribute("#table-status", "data-digest")
    return ok, digest
