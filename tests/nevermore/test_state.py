"""The typed game data holds what the game really keeps: at every step of seeded games the data
has every required field of ``state.State`` and no field it does not name, and the same for the
round's effects, the agenda's tasks, the pending need and an open damage event."""

from __future__ import annotations

import copy
from typing import Any, NotRequired, Required, get_origin, get_type_hints

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot
from engine.games.nevermore.state import (
    TOKENS,
    Effects,
    Hit,
    Need,
    State,
    Task,
    as_token,
    new_round,
    new_state,
)


def fields(typed: Any) -> tuple[set[str], set[str]]:
    """A TypedDict's required and optional fields (read from its hints: the string annotations
    hide ``NotRequired`` from ``__required_keys__``)."""
    hints = get_type_hints(typed, include_extras=True)
    optional = {k for k, h in hints.items() if get_origin(h) is NotRequired}
    optional |= {k for k in typed.__optional_keys__ if get_origin(hints[k]) is not Required}
    return set(hints) - optional, optional


def fits(value: dict[str, Any], typed: Any, what: str) -> None:
    keys = set(value)
    required, optional = fields(typed)
    missing = required - keys
    unknown = keys - required - optional
    assert not missing, f"{what} lacks {sorted(missing)}"
    assert not unknown, f"{what} has fields its type does not name: {sorted(unknown)}"


def check(g: dict[str, Any]) -> None:
    fits(g, State, "the game data")
    fits(g["fx"], Effects, "the round's effects")
    for task in g["agenda"]:
        fits(task, Task, f"task {task}")
    if g["need"] is not None:
        fits(g["need"], Need, f"need {g['need']}")
    for hit in [g[k] for k in ("attack",) if k in g] + g.get("outer_hits", []):
        fits(hit, Hit, "a damage event")


def test_every_step_of_seeded_games_fits_the_typed_data() -> None:
    rules = NevermoreRules()
    seen: set[str] = set()
    for seed in range(4):
        n = 3 + seed
        table = LocalTable(rules, {"seats": n, "max_rounds": 4}, seed=seed)
        bots = {s: (HeuristicBot() if s % 2 else RandomBot(seed * 7 + s)).choose for s in range(n)}
        steps = 0
        while True:
            g = rules.game(table.state, peek=True)
            check(dict(g))
            seen |= set(g)
            if not table.step(bots):
                break
            steps += 1
        assert steps > 100
    assert "attack" in seen  # the damage events were checked too


def test_the_types_name_their_optional_fields() -> None:
    assert fields(State)[1] == {
        "attack", "cancel", "hold_win", "outer_hits", "preset", "rescue", "rescue_hp"
    }  # fmt: skip
    assert fields(Task)[0] == {"k"}
    assert fields(Need)[0] == {"kind", "phase", "seats"}


def test_the_check_refuses_a_missing_or_an_unknown_field() -> None:
    g: dict[str, Any] = dict(new_state(3, ["А", "Б", "В"], 0))
    check(g)
    with pytest.raises(AssertionError, match="lacks"):
        check({k: v for k, v in g.items() if k != "hp"})
    with pytest.raises(AssertionError, match="does not name"):
        check({**g, "hp_left": [1, 1, 1]})
    with pytest.raises(AssertionError, match="does not name"):
        check({**g, "agenda": [{"k": "deal", "cards": 5}]})


def test_a_new_round_starts_the_round_bookkeeping_afresh() -> None:
    g = new_state(4, ["А", "Б", "В", "Г"], 0)
    before = copy.deepcopy(dict(g))
    g["plan"].append("attack")
    g["items"][2].append(7)
    g["skulk"][1] = 3
    g["sealed"][0] = True
    g["through"].append(1)
    g["vp"][0] = 2
    new_round(g)
    after = dict(g)
    assert {k: v for k, v in after.items() if k != "vp"} == {
        k: v for k, v in before.items() if k != "vp"
    }
    assert after["vp"] == [2, 0, 0, 0]  # what lasts the whole game stays


def test_a_token_is_one_of_the_four() -> None:
    assert [as_token(t) for t in TOKENS] == list(TOKENS)
    for bad in ("raven", None, "", 3):
        with pytest.raises(KeyError):
            as_token(bad)
