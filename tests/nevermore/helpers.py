"""Shared helpers for the «Невермор» tests: scenario shortcuts and the conservation check."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.games.nevermore.rules import NevermoreRules
from engine.games.nevermore.scenario import run_scenario
from engine.games.nevermore.table import ZONES, G, undrawn
from web.ui.phrases import render_log

FILL = ["healing", "radiance", "victory", "attack", "radiance"]


_RULES = NevermoreRules()


def data(state: dict[str, Any]) -> G:
    """The game data of a state as it is now (mid-task changes included)."""
    return _RULES.data(state)


def player(name: str, hand: list[str], **extra: Any) -> dict[str, Any]:
    return {"name": name, "hand": hand, **extra}


def play(
    players: list[dict[str, Any]], moves: list[dict[str, Any]] | None = None, **kw: Any
) -> Any:
    """Run one scripted round and return the scenario result."""
    return run_scenario({"players": players, "moves": moves or [], **kw})


def lines(value: dict[str, Any]) -> list[str]:
    """The log of the game data or of a scenario's result, said in Russian."""
    names = value["names"] if "names" in value else value["seats"][0]["view"]["names"]
    return render_log("nevermore", value["log"], "ru", names)


def logged(result: dict[str, Any], text: str) -> bool:
    return any(text in line for line in lines(result))


def conserved(g: G) -> None:
    """Every slot of every deck is in exactly one place."""
    seen: Counter[int] = Counter()
    for zone in ZONES:
        for slots in g[zone]:
            seen.update(slots)
    seen.update(g["discard"])
    seen.update(undrawn(g))
    assert set(seen) == set(range(g["total_slots"]))
    assert max(seen.values()) == 1
