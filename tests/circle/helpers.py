"""Positions for the rule tests: set up with the scenario runner, then driven step by step."""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, Kind, Knowledge
from engine.games.circle.rules import CircleRules
from engine.games.circle.scenario import ScenarioRun

FILLER = ["wind_left", "wind_right", "dispel", "wind_all", "wind_right", "wind_left"]


def position(players: list[dict[str, Any]], **extra: Any) -> ScenarioRun:
    """A table at the start of a turn (see ``docs/scenarios.md`` for the fields)."""
    return ScenarioRun({"players": players, **extra})


def hands(*sizes_or_cards: Any, life: int = 5) -> list[dict[str, Any]]:
    """Players with the given hands: a list of card ids, or a count of cards from ``FILLER``
    (a hand of one is one ВЕТЕР (влево))."""
    out = []
    for h in sizes_or_cards:
        cards = FILLER[:h] if isinstance(h, int) else list(h)
        out.append({"hand": cards, "life": life})
    return out


def to_race(run: ScenarioRun) -> None:
    """Let the table answer chance, reveals and reshuffles until the «переполох» (or the end)."""
    while run.table.decision().kind not in (Kind.RACE, Kind.TERMINAL):
        run.table.step({})


def slot_of(run: ScenarioRun, seat: int, card: str) -> int:
    """A slot of ``seat``'s hand holding ``card``."""
    know = run.table.knowledge[seat]
    return next(s for s in run.table.state["g"]["hands"][seat] if know.cards.get(s) == card)


def action(
    run: ScenarioRun, seat: int, card: str, target: int | None = None, step: int | None = None
) -> Action:
    """The move as the page sends it (with ``show``), on the current or a given step."""
    slot = slot_of(run, seat, card)
    spell = run.table.state["g"]["spell"]
    act: Action = {
        "type": "play",
        "seat": seat,
        "slot": slot,
        "show": [slot],
        "step": spell["step"] if step is None else step,
    }
    if target is not None:
        act["target"] = target
    return act


def opened(run: ScenarioRun, act: Action) -> Action:
    """The move as the engine receives it: ``show`` replaced by the opened card."""
    return run.table.public(act["seat"], act, "scramble")


def play(
    run: ScenarioRun, seat: int, card: str, target: int | None = None, step: int | None = None
) -> None:
    """Play ``card`` from ``seat``'s hand through the table (a spell that leaves the table ends
    the turn: the state then waits for the next turn's spell)."""
    run.table.apply(opened(run, action(run, seat, card, target, step)))


def settle(run: ScenarioRun) -> None:
    """Nobody acts in time: the spell lands; the table goes on to the next turn's RACE."""
    run.table.apply({"type": "settle"})
    to_race(run)


def g(run: ScenarioRun) -> dict[str, Any]:
    """The current game data (the state's ``g``: every step asks before it changes anything)."""
    data: dict[str, Any] = run.table.state["g"]
    return data


def spell(run: ScenarioRun) -> dict[str, Any]:
    """The flying spell."""
    flying: dict[str, Any] = run.table.state["g"]["spell"]
    return flying


def view(run: ScenarioRun, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator)."""
    rules: CircleRules = run.rules
    know = run.table.knowledge[seat] if seat is not None else Knowledge(None)
    out: dict[str, Any] = rules.view(run.table.state, know)
    return out


def hand_cards(run: ScenarioRun, seat: int) -> list[str]:
    """The card ids in ``seat``'s hand (omniscient)."""
    return [run.table.slot_card[s] for s in run.table.state["g"]["hands"][seat]]
