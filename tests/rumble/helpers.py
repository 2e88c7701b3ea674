"""Shared helpers for the «Схватка» tests: scenario shortcuts and test-only cards."""

from __future__ import annotations

from typing import Any

from engine.games.rumble.cards import load_catalog
from engine.games.rumble.scenario import run_scenario
from web.ui.phrases import rumble as phrases


def dmg(target: str, amount: int) -> dict[str, Any]:
    return {"op": "damage", "target": target, "amount": amount}


def power(target: str, low: int, mid: int, high: int) -> dict[str, Any]:
    return {
        "op": "power",
        "target": target,
        "bands": [[dmg("it", low)], [dmg("it", mid)], [dmg("it", high)]],
    }


def source(cid: str, school: str, effect: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "slot": "source",
        "school": school,
        "name": f"Тест {cid}",
        "genitive": f"Теста {cid}",
        "count": 1,
        "effect": effect,
        **extra,
    }


def delivery(
    cid: str, school: str, initiative: int, effect: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    return {
        "id": cid,
        "slot": "delivery",
        "school": school,
        "name": f"Тест {cid}",
        "gender": "m",
        "initiative": initiative,
        "count": 1,
        "effect": effect,
        **extra,
    }


def quality(cid: str, school: str, effect: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    forms = {k: f"Тестовый-{k}" for k in ("m", "f", "n", "pl")}
    return {
        "id": cid,
        "slot": "quality",
        "school": school,
        "name": f"Тест {cid}",
        "forms": forms,
        "count": 1,
        "effect": effect,
        **extra,
    }


TEST_SPELLS = [
    source("x_left5", "spark", [dmg("left", 5)]),
    source("x_right5", "spark", [dmg("right", 5)]),
    source("x_all3", "storm", [dmg("all_enemies", 3)]),
    source("x_allp3", "storm", [dmg("all_players", 3)]),
    source("x_self30", "gloom", [dmg("self", 30)]),
    source("x_weak2", "gloom", [dmg("weakest", 2)]),
    source("x_strong2", "gloom", [dmg("strongest", 2)]),
    source("x_rand1", "storm", [dmg("random", 1)]),
    source("x_infect_left", "gloom", [{"op": "infect", "target": "left"}]),
    source("x_infect_self", "gloom", [{"op": "infect", "target": "self"}]),
    source("x_infect_all", "gloom", [{"op": "infect_roll", "target": "all_enemies", "upto": 6}]),
    source("x_transfer_left", "gloom", [{"op": "transfer", "target": "left"}]),
    source("x_power", "spark", [power("left", 1, 2, 3)]),
    source("x_boost", "spark", [], boost=True),
    source("x_add", "haze", [{"op": "add_card"}]),
    source("x_palace", "thicket", [{"op": "palace"}]),
    source("x_heal10", "thicket", [{"op": "heal", "amount": 10}]),
    source("x_surprise", "thicket", [], surprise=True),
    quality("x_q_left1", "spark", [dmg("left", 1)]),
    quality("x_q_self30", "gloom", [dmg("self", 30)]),
    quality("x_q_copy", "haze", [{"op": "copy", "slot": "delivery"}]),
    quality("x_q_surprise", "thicket", [], surprise=True),
    delivery("x_beast", "spark", 5, [power("right", 1, 2, 3)], creature=True),
    delivery("x_d10a", "storm", 10, [dmg("left", 1)]),
    delivery("x_d10b", "storm", 10, [dmg("left", 1)]),
    delivery("x_d3", "storm", 3, [dmg("left", 1)]),
    delivery("x_d_left2", "spark", 12, [dmg("left", 2)]),
]


def play(players: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Play one scripted round (or more with ``stop``) with the test cards available."""
    data: dict[str, Any] = {"players": players, "extra_cards": {"spells": TEST_SPELLS}, **extra}
    return run_scenario(data)


def sentences(result: dict[str, Any]) -> list[str]:
    """A scenario's log events as their Russian sentences (test cards named too)."""
    catalog = load_catalog().extended({"spells": TEST_SPELLS})
    return [phrases.say(e, "ru", result["names"], catalog) for e in result["log"]]


def lines(result: dict[str, Any], needle: str) -> list[str]:
    """Log sentences that contain ``needle``."""
    return [line for line in sentences(result) if needle in line]
