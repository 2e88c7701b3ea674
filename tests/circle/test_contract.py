"""The model contract: pure apply, canonical JSON, decisions, views for seats and spectators."""

from __future__ import annotations

import json

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import IllegalAction, Kind, Knowledge, canonical_json
from engine.games.circle.rules import CircleRules
from web.ui.phrases import render_log

from .helpers import g, hands, play, position, to_race, view

RULES = CircleRules()


def played_table(seed: int, seats: int = 5, steps: int = 80) -> LocalTable:
    table = LocalTable(RULES, {"seats": seats}, seed=seed)
    bots = {s: RandomBot(seed + s).choose for s in range(seats)}
    for _ in range(steps):
        if not table.step(bots):
            break
    return table


def test_apply_is_pure_and_the_state_is_canonical_json() -> None:
    table = LocalTable(RULES, {"seats": 4}, seed=3)
    bots = {s: RandomBot(s).choose for s in range(4)}
    for _ in range(300):
        before = canonical_json(RULES.to_json(table.state))
        old = table.state
        if not table.step(bots):
            break
        assert canonical_json(RULES.to_json(old)) == before
        text = canonical_json(RULES.to_json(table.state))
        assert json.loads(text) == table.state


def test_decisions_name_their_phase_and_deck() -> None:
    run = position(hands(1, 1, 1))
    d = run.table.decision()
    assert (d.kind, d.phase, d.chance_range) == (Kind.CHANCE, "spell", 28)
    to_race(run)
    d = run.table.decision()
    assert (d.kind, d.phase, d.seats) == (Kind.RACE, "scramble", (0, 1, 2))
    assert RULES.hidden_decks({"seats": 3}) == {"actions": RULES.cat.action_deck()}


def test_reserved_table_actions_are_refused_at_the_wrong_node() -> None:
    run = position(hands(1, 1, 1))
    with pytest.raises(IllegalAction):
        RULES.apply(run.table.state, {"type": "reshuffled", "slots": []})
    with pytest.raises(IllegalAction):
        RULES.apply(run.table.state, {"type": "reveal", "cards": {}})
    with pytest.raises(IllegalAction):
        RULES.apply(run.table.state, {"type": "chance", "value": True})
    with pytest.raises(IllegalAction):
        RULES.apply(run.table.state, {"type": "dance"})
    with pytest.raises(IllegalAction):
        RULES.apply(run.table.state, ["not", "a", "move"])  # type: ignore[arg-type]


def test_view_of_a_seat_shows_the_table_the_spell_its_hand_and_moves() -> None:
    run = position(hands(["wind_left", "gust"], 1, 1), spells=["fire"])
    to_race(run)
    play(run, 0, "wind_left")
    v = view(run, 1)
    assert [s["life"] for s in v["seats"]] == [5, 5, 5]
    assert [s["hand"] for s in v["seats"]] == [1, 1, 1]
    assert [s["totem"] for s in v["seats"]] == [True, False, False]
    assert {"name", "alive", "seat"} <= set(v["seats"][0])
    spell = v["spell"]
    assert spell["card"] == "fire" and spell["name"] == "ОГОНЬ"
    assert spell["keyword"] == "fan" and spell["keyword_name"] == "РАЗДУВАНИЕ"
    assert (spell["target"], spell["previous"], spell["step"], spell["changes"]) == (1, 0, 1, 1)
    assert spell["power"] == 1
    assert v["hand"] == [
        {
            "slot": g(run)["hands"][1][0],
            "card": "wind_left",
            "name": "ВЕТЕР",
            "direction": "влево",
            "text": RULES.cat.actions["wind_left"]["text"],
        }
    ]
    assert v["legal"] and all(a["step"] == 1 for a in v["legal"])
    assert v["phase"] == "scramble" and v["racing"] == [0, 1, 2]
    changes = [e for e in v["log"] if e["e"] == "change"]
    assert changes[0]["spell"] == "fire" and changes[0]["to"] == 1 and changes[0]["changes"] == 1
    texts = render_log("circle", v["log"], "ru", [s["name"] for s in v["seats"]])
    assert "ОГОНЬ → Игрок 2 (смена цели №1)." in texts
    english = render_log("circle", v["log"], "en", [s["name"] for s in v["seats"]])
    assert "FIRE → Игрок 2 (change of target no. 1)." in english
    assert v["winner"] is None and v["result"] is None and v["over"] is False
    json.dumps(v)


def test_spectators_see_no_hand_and_no_moves() -> None:
    run = position(hands(1, 1, 1))
    to_race(run)
    v = view(run, None)
    assert v["hand"] == [] and v["legal"] == [] and v["seat"] is None
    assert all(isinstance(s["hand"], int) for s in v["seats"])


def test_a_seat_sees_only_its_own_hand_cards() -> None:
    table = played_table(11)
    for seat in range(5):
        v = RULES.view(table.state, table.knowledge[seat])
        assert [h["slot"] for h in v["hand"]] == table.state["g"]["hands"][seat]
        assert all(h["card"] == table.slot_card[h["slot"]] for h in v["hand"])
        others = {s for o in range(5) if o != seat for s in table.state["g"]["hands"][o]}
        assert not others & set(RULES.visible_slots(table.state, seat))


def test_view_at_the_end_names_the_winner() -> None:
    table = played_table(5, seats=3, steps=100_000)
    v = RULES.view(table.state, Knowledge(None))
    assert v["over"] is True and v["result"] in ("winner", "nobody")
    assert (v["winner"] is None) == (v["result"] == "nobody")


@pytest.mark.parametrize(
    "change",
    [
        {"open": [{"slot": 0, "card": ["wind_left"]}]},
        {"open": "wind_left"},
        {"open": [["slot", 0]]},
        {"slot": [0]},
        {"step": "0"},
        {"seat": None},
        {"target": {"seat": 1}},
    ],
)
def test_malformed_moves_are_refused_cleanly(change: dict[str, object]) -> None:
    run = position(hands(["wind_all"], 1, 1))
    to_race(run)
    slot = g(run)["hands"][0][0]
    act = {
        "type": "play",
        "seat": 0,
        "slot": slot,
        "step": 0,
        "target": 1,
        "open": [{"slot": slot, "card": "wind_all"}],
    }
    RULES.apply(run.table.state, act)  # the well-formed move is fine
    with pytest.raises(IllegalAction):
        RULES.apply(run.table.state, {**act, **change})


def test_a_malformed_reveal_is_refused_cleanly() -> None:
    run = position([{"hand": ["gust"], "life": 1}, *hands(1, 1)], spells=["meteor"])
    to_race(run)
    run.table.apply({"type": "settle"})
    slot = g(run)["hands"][0][0]
    for cards in ({str(slot): ["gust"]}, {str(slot): None}, [slot]):
        with pytest.raises(IllegalAction):
            RULES.apply(run.table.state, {"type": "reveal", "cards": cards})
