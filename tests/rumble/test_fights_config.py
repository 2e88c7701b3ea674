"""A tournament may be shortened to one or two fights (quick games, phone tests); three is usual."""

from __future__ import annotations

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import IllegalAction
from engine.games.rumble.rules import RumbleRules


@pytest.mark.parametrize("fights", [1, 2])
def test_a_short_tournament_ends_after_its_fights(fights: int) -> None:
    rules = RumbleRules()
    table = LocalTable(rules, {"seats": 3, "mode": "tournament", "fights": fights}, seed=fights)
    bots = {s: RandomBot(s) for s in range(3)}
    table.play(lambda r, st, s, k: bots[s].choose(r, st, s, k))
    g = rules.current(table.state)
    assert table.state["need"]["kind"] == "terminal"
    assert g["fight"] == fights
    assert sum(g["survivals"]) <= fights


def test_fights_out_of_range_are_refused() -> None:
    with pytest.raises(IllegalAction):
        RumbleRules().new_game({"seats": 3, "fights": 4})
