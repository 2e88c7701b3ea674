"""«Невермор» public choices: every choice met in seeded games is declared in ``agenda.CHOICES``,
its options are what the declaration says they pick, and the view's shared prompt tells the page
so; a choice the declaration lacks is an engine fault, not a move."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.local_table import LocalTable
from engine.core.model import Knowledge
from engine.core.view_schema import KEY
from engine.games.nevermore.agenda import CHOICES, Agenda
from engine.games.nevermore.cards import SUITS
from engine.games.nevermore.rules import NevermoreRules
from tests.engine.digests import bots, specs
from tests.nevermore.helpers import data

GAMES = 25
MAX_STEPS = 20_000


def fits(g: dict[str, Any], seat: int, what: str, pick: Any) -> bool:
    """``pick`` is the kind of thing ``CHOICES[what]`` says the choice picks."""
    kind = CHOICES[what]
    if kind == "seat":
        return (type(pick) is int and 0 <= pick < g["n"]) or (what == "attack" and pick == "all")
    if kind == "card":
        seen = g["hand"][seat] + g["look"][seat] + g["peek"][seat]
        return (type(pick) is int and pick in seen) or (what == "brilliance" and pick is None)
    if kind == "suit":
        return pick in SUITS
    if kind == "flag":
        return type(pick) is bool
    return pick in ("none", "hp", "vp")


def test_every_choice_of_seeded_games_picks_what_it_declares() -> None:
    rules = NevermoreRules()
    met: set[str] = set()
    for spec in specs("nevermore")[:GAMES]:
        table = LocalTable(rules, spec.config, seed=spec.seed)
        policies = bots(spec)
        for _ in range(MAX_STEPS):
            need = table.state["need"]
            if need.get("phase") == "choose":
                what, (seat,) = need["what"], need["seats"]
                g = data(table.state)
                assert what in CHOICES, what
                assert all(fits(g, seat, what, o["pick"]) for o in need["options"]), need
                for viewer in (seat, None):
                    knowledge = Knowledge(None) if viewer is None else table.knowledge[viewer]
                    view = rules.view(table.state, knowledge)
                    assert view[KEY]["prompt"]["picks"] == CHOICES[what]
                met.add(what)
            elif need.get("phase"):
                assert rules.view(table.state, Knowledge(None))[KEY]["prompt"]["picks"] is None
            if not table.step(policies):
                break
    assert {"attack", "peck", "foretell", "steal", "spite"} <= met and len(met) >= 12, sorted(met)


def test_an_undeclared_choice_is_an_engine_fault() -> None:
    g: Any = {"need": None}
    with pytest.raises(KeyError, match="not declared"):
        Agenda.ask(Agenda.__new__(Agenda), g, 0, "no_such_choice", [1, 2], {})
    assert g["need"] is None
