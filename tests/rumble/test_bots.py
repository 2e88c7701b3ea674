"""Bots: the heuristic bot plays from its own knowledge only and beats random play."""

from __future__ import annotations

from typing import Any

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Knowledge
from engine.games.rumble import RumbleRules
from engine.games.rumble.bot import HeuristicBot

RULES = RumbleRules()


def test_heuristic_bots_earn_more_medals_than_random_bots() -> None:
    smart = dumb = 0
    for seed in range(12):
        bots: dict[int, Any] = {
            s: HeuristicBot(seed + s).choose if s % 2 == 0 else RandomBot(seed + s).choose
            for s in range(4)
        }
        table = LocalTable(RULES, {"seats": 4}, seed=seed)
        table.play(bots)
        g = table.state["g"]
        medals = [g["kills"][s] + g["survivals"][s] for s in range(4)]
        smart += medals[0] + medals[2]
        dumb += medals[1] + medals[3]
    assert smart > 1.5 * dumb


def test_heuristic_bot_uses_only_its_own_knowledge() -> None:
    table = LocalTable(RULES, {"seats": 3}, seed=3)
    seat = table.decision().seats[0]
    own = table.knowledge[seat]
    blind = Knowledge(seat, cards=dict(own.cards))
    action = HeuristicBot(1).choose(RULES, table.state, seat, blind)
    assert action["type"] == "seal"
    slots = {item["slot"] for item in action["secret"]["items"][:-1]}
    assert slots <= set(own.cards)
    assert HeuristicBot(1).choose(RULES, table.state, seat, blind) == action  # deterministic


def test_heuristic_bot_prefers_a_full_spell_of_one_school() -> None:
    hand = [
        "src_gloom_duchess",
        "q_spark_sparkling",
        "d_thicket_troll",
        "src_spark_lord",
        "q_gloom_rotten",
        "d_spark_thunderbolt",
        "src_haze_whisper",
        "q_haze_ghostly",
    ]
    rest = list(RULES.cat.spell_deck())
    for card in hand:
        rest.remove(card)
    table = LocalTable(RULES, {"seats": 2}, deck_orders={"spells": hand + rest})
    action = HeuristicBot(0).choose(RULES, table.state, 0, table.knowledge[0])
    chosen = sorted(table.knowledge[0].cards[i["slot"]] for i in action["secret"]["items"][:-1])
    assert chosen == ["d_spark_thunderbolt", "q_spark_sparkling", "src_spark_lord"]
    assert action["secret"]["items"][-1] == {"initiative": 17}
