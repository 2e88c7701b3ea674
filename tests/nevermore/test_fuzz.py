"""Fuzzing: random and heuristic games of 3–6 players end without an exception, every slot is in
exactly one place after every step, the same inputs give the same state hash, and bots see only
their own knowledge."""

from __future__ import annotations

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot

from .helpers import conserved, data

RULES = NevermoreRules()


def _game(seed: int, heuristic: bool = False, check: bool = True) -> LocalTable:
    n = 3 + seed % 4
    t = LocalTable(RULES, {"seats": n, "max_rounds": 8}, seed=seed)
    if heuristic:
        bots = {
            s: (HeuristicBot().choose if s % 2 else RandomBot(seed + s).choose) for s in range(n)
        }
    else:
        bots = {s: RandomBot(seed * 7 + s).choose for s in range(n)}
    while t.step(bots):
        if check:
            conserved(data(t.state))
    assert t.decision().kind == Kind.TERMINAL
    return t


@pytest.mark.parametrize("block", range(4))
def test_random_games_conserve_cards(block: int) -> None:
    for seed in range(block * 40, block * 40 + 40):
        t = _game(seed, check=seed % 4 == 0)
        conserved(data(t.state))
        assert data(t.state)["over"]


def test_heuristic_games() -> None:
    for seed in range(40):
        t = _game(seed, heuristic=True, check=False)
        conserved(data(t.state))


def test_same_inputs_same_hash() -> None:
    for seed in (3, 4, 5, 6):
        a, b = _game(seed, check=False), _game(seed, check=False)
        assert RULES.state_hash(a.state) == RULES.state_hash(b.state)
        assert a.history == b.history
    c = _game(99, check=False)
    assert RULES.state_hash(c.state) != RULES.state_hash(_game(98, check=False).state)


def test_views_hold_only_the_seats_knowledge() -> None:
    t = LocalTable(RULES, {"seats": 4}, seed=11)
    bots = {s: RandomBot(s).choose for s in range(4)}
    for _ in range(60):
        t.step(bots)
    for seat in range(4):
        view = RULES.view(t.state, t.knowledge[seat])
        mine = set(view["me"]["hand"]) | set(view["me"]["magic"])
        for other in range(4):
            if other != seat:
                hidden = {
                    str(s) for s in data(t.state)["hand"][other] + data(t.state)["magic"][other]
                }
                assert not (hidden & mine)
        assert all(v is not None for v in view["me"]["hand"].values())
    spectator = RULES.view(t.state, type(t.knowledge[0])(None))
    assert "me" not in spectator


def test_auto_action_is_legal_with_and_without_knowledge() -> None:
    t = LocalTable(RULES, {"seats": 5, "max_rounds": 3}, seed=5)
    steps = 0
    while t.decision().kind != Kind.TERMINAL and steps < 3000:
        d = t.decision()
        if d.kind in (Kind.MOVE, Kind.SIMULTANEOUS):
            seat = d.seats[0]
            know = t.knowledge[seat] if steps % 3 else None
            action = RULES.auto_action(t.state, seat, know)
            t.apply(t.public(seat, action, d.phase))
        else:
            t.step({})
        steps += 1
    assert t.decision().kind == Kind.TERMINAL


@pytest.mark.slow
def test_many_random_games() -> None:
    for seed in range(1000, 2000):
        _game(seed, check=seed % 10 == 0)
