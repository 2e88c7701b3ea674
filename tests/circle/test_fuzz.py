"""Random games (3–8 players): no exception, cards in one place, same seed same game, an end."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.circle.bot import HeuristicBot
from engine.games.circle.cards import MAX_LIFE
from engine.games.circle.flow import HAND_LIMIT
from engine.games.circle.rules import CircleRules

RULES = CircleRules()
ALL_SLOTS = list(range(len(RULES.cat.action_deck())))
ALL_SPELLS = Counter(RULES.cat.spell_deck())
MAX_STEPS = 20_000


def check_invariants(table: LocalTable) -> None:
    """Every card in exactly one place; the discard public; life and hands within bounds."""
    g = table.state["g"]
    places = g["deck"] + g["discard"] + [s for h in g["hands"] for s in h]
    assert sorted(places) == ALL_SLOTS
    flying = [g["spell"]["card"]] if g["spell"] else []
    assert Counter(g["spells"] + g["spell_discard"] + flying) == ALL_SPELLS
    assert set(g["known"]) == {str(s) for s in g["discard"]}
    assert all(table.slot_card[int(s)] == c for s, c in g["known"].items())
    for seat in range(g["n"]):
        assert g["life"][seat] <= MAX_LIFE
        assert g["alive"][seat] == (g["life"][seat] > 0)
        assert len(g["hands"][seat]) <= HAND_LIMIT
        if not g["alive"][seat] and seat not in g["dying"]:
            assert g["hands"][seat] == []
        for slot in g["hands"][seat]:
            assert table.knowledge[seat].cards[slot] == table.slot_card[slot]


def play_checked(seats: int, seed: int, smart: bool = False, check: bool = True) -> LocalTable:
    table = LocalTable(RULES, {"seats": seats, "first": seed % seats}, seed=seed)
    bots: dict[int, Any] = {}
    for s in range(seats):
        bot = HeuristicBot(seed + s) if smart and s % 2 == 0 else RandomBot(seed * 7 + s)
        bots[s] = bot.choose
    steps = 0
    while table.step(bots):
        steps += 1
        if check:
            check_invariants(table)
        assert steps < MAX_STEPS
    assert table.decision().kind == Kind.TERMINAL
    g = table.state["g"]
    alive = [s for s in range(seats) if g["alive"][s]]
    assert len(alive) <= 1
    if alive:
        assert g["result"] == "winner" and g["winner"] == alive[0]
    else:
        assert g["result"] == "nobody" and g["winner"] is None
    return table


@pytest.mark.parametrize("block", range(6))
def test_hundreds_of_random_games_end_cleanly(block: int) -> None:
    for k in range(50):
        seed = block * 50 + k
        play_checked(3 + seed % 6, seed, smart=seed % 3 == 0)


def test_same_seed_gives_the_same_game() -> None:
    for seed in (1, 22, 333):
        a = play_checked(3 + seed % 6, seed, check=False)
        b = play_checked(3 + seed % 6, seed, check=False)
        assert a.history == b.history
        assert RULES.state_hash(a.state) == RULES.state_hash(b.state)
    c = play_checked(4, 2, check=False)
    d = play_checked(4, 3, check=False)
    assert RULES.state_hash(c.state) != RULES.state_hash(d.state)


def test_reshuffles_reveals_plays_and_hits_happen_in_random_games() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        table = play_checked(3 + seed % 6, 10_000 + seed, check=False)
        seen.update(Counter(a["type"] for a in table.history))
    assert seen["reshuffled"] and seen["reveal"] and seen["settle"] and seen["play"]


@pytest.mark.slow
def test_thousands_of_random_games() -> None:
    for seed in range(3000):
        play_checked(3 + seed % 6, 50_000 + seed, smart=seed % 2 == 0)
