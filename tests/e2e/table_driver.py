"""What every game's browser test does around the table: seat the pages (and a server bot) in one
room, say ready, and let the pages play until the game gets somewhere. Each game's driver supplies
how to read its table (``state``) and how a page makes one step (``act``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Browser

from .harness import Player, Server

State = Callable[[Player], Awaitable[dict[str, Any]]]
Act = Callable[[Player], Awaitable[Any]]
OnPhase = Callable[[Player, str], Awaitable[None]]


async def seat_players(
    browser: Browser,
    server: Server,
    names: list[str],
    *,
    bot: bool = True,
    viewports: dict[str, dict[str, int]] | None = None,
) -> list[Player]:
    """One page per name; the first creates the room, the others join, the host adds a server bot
    (``bot``); returns once every page has a data channel to every other peer."""
    players = [
        await Player.open(
            browser, server.origin + "/", name, voice=False, viewport=(viewports or {}).get(name)
        )
        for name in names
    ]
    code = await players[0].create_room()
    for player in players[1:]:
        await player.join_room(code)
    if bot:
        await players[0].page.click("#add-bot")
    for player in players:
        await player.wait_open_channels(len(players) - 1 + bot, timeout=60)
    return players


async def say_ready(players: list[Player]) -> None:
    """Every page says it is ready."""
    for player in players:
        await player.page.click("#ready")


async def play_until(
    players: list[Player],
    done: Callable[[dict[str, Any]], bool],
    *,
    state: State,
    act: Act,
    idle: frozenset[str] = frozenset(),
    timeout: float = 300,
    on_phase: OnPhase | None = None,
) -> dict[str, Any]:
    """Pages (but the ``idle`` ones) keep playing until ``done(state of the first page)``;
    ``on_phase(player, phase)`` sees each prompt before the page answers it. On time-out the
    assertion shows what every page saw."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        seen = await state(players[0])
        if done(seen):
            return seen
        if loop.time() > deadline:
            report = []
            for player in players:
                last = await state(player)
                last["log"] = last.get("log", [])[-6:]
                report.append(f"{player.name}: {json.dumps(last, ensure_ascii=False)}")
            raise AssertionError("the game did not get there in time:\n" + "\n".join(report))
        for player in players:
            if player.name in idle:
                continue
            if on_phase is not None:  # before acting: the prompt is still on the page
                prompt = await player.page.query_selector("#prompt")
                if prompt is not None:
                    await on_phase(player, str(await prompt.get_attribute("data-phase") or ""))
            await act(player)
        await asyncio.sleep(0.1)


def count(state: dict[str, Any], text: str) -> int:
    """How many log lines contain ``text``."""
    return sum(1 for line in state["log"] if text in line)
