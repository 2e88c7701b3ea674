"""The bots: a random one for fuzzing, a heuristic one that blows spells away from itself."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Action, Knowledge
from engine.games.circle.bot import HeuristicBot
from engine.games.circle.rules import CircleRules
from engine.games.circle.scenario import ScenarioRun

from .helpers import g, hands, play, position, to_race

RULES = CircleRules()


def choice(run: ScenarioRun, seat: int, bot: RandomBot | None = None) -> Action | None:
    """What the bot (the heuristic one unless given) does for ``seat`` now."""
    chooser = bot or HeuristicBot(0)
    return chooser.choose(RULES, run.table.state, seat, run.table.knowledge[seat])


def card_of(run: ScenarioRun, act: Action | None) -> str | None:
    """The card a move plays."""
    return None if act is None else run.table.slot_card[act["slot"]]


def test_heuristic_bot_blows_a_spell_at_itself_towards_the_healthiest() -> None:
    players: list[dict[str, Any]] = [
        {"hand": ["wind_left", "wind_right"]},
        {"hand": ["gust"], "life": 2},
        {"hand": ["gust"], "life": 3},
        {"hand": ["gust"], "life": 5},
    ]
    run = position(players, spells=["magic_arrow"])
    to_race(run)
    assert card_of(run, choice(run, 0)) == "wind_right"  # seat 3 (5 life) rather than seat 1


def test_heuristic_bot_chooses_the_healthiest_with_the_all_directions_wind() -> None:
    players = [{"hand": ["wind_all"]}, *hands(1), {"hand": [], "life": 2}, *hands(1)]
    players[1]["life"], players[3]["life"] = 3, 4
    run = position(players, spells=["magic_arrow"])
    to_race(run)
    act = choice(run, 0)
    assert act is not None and act["target"] == 3


def test_heuristic_bot_dispels_a_strong_spell_aimed_at_itself() -> None:
    run = position(hands(["wind_left", "dispel"], 1, 1), spells=["meteor"])
    to_race(run)
    assert card_of(run, choice(run, 0)) == "dispel"
    run = position(hands(["wind_left", "dispel"], 1, 1), spells=["magic_arrow"])
    to_race(run)
    assert card_of(run, choice(run, 0)) == "wind_left"  # a weak one is only blown away


def test_heuristic_bot_shields_when_it_cannot_blow_the_spell_away() -> None:
    run = position(hands(["shield", "gust"], 1, 1), spells=["stone"])
    to_race(run)
    assert card_of(run, choice(run, 0)) == "shield"


def test_heuristic_bot_mostly_waits_when_the_spell_is_aimed_at_someone_else() -> None:
    run = position(hands(1, ["wind_left", "dispel", "wind_all"], 1), spells=["stone"])
    to_race(run)
    assert choice(run, 1) is None
    players = [{"hand": [], "life": 3}, *hands(["gust"], 1)]
    run = position(players, spells=["stone"])
    to_race(run)
    assert card_of(run, choice(run, 1)) == "gust"  # a finishing gust is worth it


def test_heuristic_bot_never_blows_the_spell_back_onto_itself() -> None:
    players = [{"hand": ["mirror"]}, {"hand": ["wind_right"]}, *hands(1)]
    run = position(players, spells=["magic_arrow"], totem=1)
    to_race(run)
    play(run, 1, "wind_right")
    assert g(run)["spell"]["target"] == 0
    assert choice(run, 0) is not None  # the mirror sends it back to seat 1, not to seat 0


def test_random_bot_at_a_race_sometimes_plays_and_sometimes_waits() -> None:
    run = position(hands(3, 3, 3))
    to_race(run)
    bot = RandomBot(1)
    picks = [choice(run, 0, bot) for _ in range(200)]
    played = [p for p in picks if p is not None]
    assert 20 < len(played) < 100
    legal = RULES.legal_actions(run.table.state, 0, run.table.knowledge[0])
    assert all(p in legal for p in played)


def test_bots_need_only_their_own_knowledge() -> None:
    run = position(hands(["wind_left"], 1, 1), spells=["meteor"])
    to_race(run)
    own = Knowledge(0, {s: run.table.slot_card[s] for s in g(run)["hands"][0]})
    assert HeuristicBot(0).choose(RULES, run.table.state, 0, own) is not None


def test_heuristic_bots_win_far_more_often_than_random_bots() -> None:
    wins: Counter[str] = Counter()
    for seed in range(30):
        table = LocalTable(RULES, {"seats": 4, "first": seed % 4}, seed=seed)
        bots = {
            s: (HeuristicBot(seed + s) if s % 2 == 0 else RandomBot(seed + s)).choose
            for s in range(4)
        }
        table.play(bots)
        winner = table.state["g"]["winner"]
        wins["none" if winner is None else "smart" if winner % 2 == 0 else "random"] += 1
    assert wins["smart"] >= 22
