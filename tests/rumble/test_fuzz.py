"""Random fights (2–6 players): no exception, cards in one place, bounded life, medals add up."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.rumble import RumbleRules
from engine.games.rumble.bot import HeuristicBot

RULES = RumbleRules()
ALL_SLOTS = list(range(len(RULES.cat.spell_deck())))
ALL_TREASURES = Counter(RULES.cat.treasure_pile())
ALL_GHOSTS = Counter(RULES.cat.ghost_pile())
ALL_TOKENS = Counter(RULES.cat.disease_bag())


def check_invariants(g: dict[str, Any]) -> None:
    """Every card in exactly one place; life in bounds; medals consistent."""
    places = list(g["draw"]) + list(g["discard"])
    for s in range(g["n"]):
        places += g["hand"][s] + [c["slot"] for c in g["creatures"][s]]
    if g["cast"] is not None:
        places += [c["slot"] for c in g["cast"]["cards"]]
    assert sorted(places) == ALL_SLOTS
    treasures = Counter(g["t_pile"]) + Counter(g["t_discard"])
    ghosts = Counter(g["ghost_pile"]) + Counter(g["ghost_discard"])
    tokens = Counter(g["bag"])
    for s in range(g["n"]):
        treasures += Counter(g["treasures"][s])
        ghosts += Counter(g["ghost_next"][s]) + Counter(g["ghost_active"][s])
        tokens += Counter(g["diseases"][s])
    assert treasures == ALL_TREASURES
    assert ghosts == ALL_GHOSTS
    assert tokens == ALL_TOKENS
    for s in range(g["n"]):
        assert g["life"][s] <= 25
        if g["in_fight"]:
            assert (g["life"][s] >= 1) == g["alive"][s]
        assert len(g["hand"][s]) <= 8
    finished = len(g["results"])
    assert sum(g["survivals"]) == finished
    deaths = sum(len(r["death_order"]) for r in g["results"]) + (
        len(g["dead_order"]) if g["in_fight"] else 0
    )
    assert sum(g["kills"]) <= deaths


def play_checked(
    seats: int, seed: int, mode: str = "tournament", smart: bool = False
) -> LocalTable:
    table = LocalTable(RULES, {"seats": seats, "mode": mode}, seed=seed)
    bots: dict[int, Any] = {}
    for s in range(seats):
        bot = HeuristicBot(seed + s) if smart and s % 2 == 0 else RandomBot(seed * 7 + s)
        bots[s] = bot.choose
    steps = 0
    while table.step(bots):
        steps += 1
        check_invariants(table.state["g"])
        assert steps < 50_000
    assert table.decision().kind == Kind.TERMINAL
    return table


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**31), smart=st.booleans())
def test_random_tournaments_end_cleanly(seats: int, seed: int, smart: bool) -> None:
    table = play_checked(seats, seed, smart=smart)
    g = table.state["g"]
    assert g["fight"] == 3 and len(g["results"]) == 3
    medals = [k + s for k, s in zip(g["kills"], g["survivals"], strict=True)]
    assert g["winners"] == [s for s in range(seats) if medals[s] == max(medals)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_random_two_win_matches_end_cleanly(seats: int, seed: int) -> None:
    table = play_checked(seats, seed, mode="two_wins")
    g = table.state["g"]
    assert [s for s in range(seats) if g["survivals"][s] >= 2] == g["winners"]


@given(seats=st.integers(2, 6), seed=st.integers(0, 2**31))
@settings(max_examples=10, deadline=None)
def test_same_inputs_give_the_same_state_hash(seats: int, seed: int) -> None:
    a = play_checked(seats, seed)
    b = play_checked(seats, seed)
    assert RULES.state_hash(a.state) == RULES.state_hash(b.state)
    assert a.history == b.history


@pytest.mark.slow
def test_thousands_of_fights() -> None:
    fights = 0
    seed = 0
    while fights < 3000:
        seats = 2 + seed % 5
        table = play_checked(seats, seed, mode="tournament", smart=seed % 3 == 0)
        fights += len(table.state["g"]["results"])
        seed += 1
