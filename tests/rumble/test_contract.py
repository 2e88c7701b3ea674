"""The ``Rules`` contract: purity, illegal actions, secrets, views, hashes, auto actions."""

from __future__ import annotations

import copy

import pytest

from engine.core.local_table import LocalTable
from engine.core.model import IllegalAction, Kind, Knowledge, canonical_json
from engine.games.rumble import RumbleRules
from engine.games.rumble.bot import timer_choice
from web.ui.phrases import render_log


@pytest.fixture(scope="module")
def rules() -> RumbleRules:
    return RumbleRules()


auto = timer_choice


def test_new_game_waits_for_a_simultaneous_assembly(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 4}, seed=1)
    decision = table.decision()
    assert decision.kind == Kind.SIMULTANEOUS and decision.phase == "assembly"
    assert decision.seats == (0, 1, 2, 3)
    assert all(len(rules.visible_slots(table.state, s)) == 8 for s in range(4))


def test_apply_is_pure_and_rejects_bad_actions(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 3}, seed=2)
    before = copy.deepcopy(table.state)
    with pytest.raises(IllegalAction):
        rules.apply(table.state, {"type": "seal", "seat": 0, "commit": []})
    with pytest.raises(IllegalAction):
        rules.apply(table.state, {"type": "chance", "value": 3})
    with pytest.raises(IllegalAction):
        rules.apply(table.state, {"type": "seal", "seat": 0, "secret": {"items": []}})
    with pytest.raises(IllegalAction):
        rules.apply(table.state, {"type": "seal", "seat": 7, "commit": ["a", "b"]})
    assert table.state == before
    rules.apply(table.state, {"type": "seal", "seat": 0, "commit": ["a", "b"]})
    assert table.state == before


def test_opening_must_match_the_hand(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 2}, seed=3)
    while table.decision().phase != "open":
        table.step(auto)
    seat = table.decision().seats[0]
    good = rules.legal_actions(table.state, seat, table.knowledge[seat])[0]
    bad = copy.deepcopy(good)
    bad["open"][0]["slot"] = 96 if bad["open"][0]["slot"] != 96 else 95
    with pytest.raises(IllegalAction):
        rules.apply(table.state, bad)


def test_view_hides_other_hands(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 3}, seed=4)
    view = rules.view(table.state, table.knowledge[0])
    assert all(c["card"] for c in view["hand"])
    spectator = rules.view(table.state, Knowledge(None))
    assert spectator["hand"] == []
    text = canonical_json(view).decode()
    for slot, card in table.knowledge[1].cards.items():
        if slot not in table.knowledge[0].cards:
            assert f'"slot":{slot},' not in text or card not in text


def test_same_inputs_same_hash(rules: RumbleRules) -> None:
    a = LocalTable(rules, {"seats": 4}, seed=9)
    b = LocalTable(rules, {"seats": 4}, seed=9)
    for _ in range(300):
        a.step(auto)
        b.step(auto)
        assert rules.state_hash(a.state) == rules.state_hash(b.state)
    c = LocalTable(rules, {"seats": 4}, seed=10)
    for _ in range(300):
        c.step(auto)
    assert rules.state_hash(c.state) != rules.state_hash(a.state)


def test_replaying_the_log_gives_the_same_state(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 3}, seed=11)
    table.play(auto, max_steps=400)
    state = rules.new_game({"seats": 3})
    for action in table.history:
        state = rules.apply(state, action)
    assert rules.state_hash(state) == rules.state_hash(table.state)


def test_auto_actions_alone_finish_a_tournament(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 4}, seed=12)
    table.play(auto)
    assert table.decision().kind == Kind.TERMINAL
    g = table.state["g"]
    assert g["fight"] == 3 and g["winners"]


def test_two_wins_mode_ends_with_two_survivor_medals(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 3, "mode": "two_wins"}, seed=13)
    table.play(auto)
    g = table.state["g"]
    assert g["winners"] and all(g["survivals"][w] == 2 for w in g["winners"])
    assert sum(g["survivals"]) == g["fight"]


def test_tournament_tie_makes_every_leader_a_winner(rules: RumbleRules) -> None:
    for seed in range(20, 30):
        table = LocalTable(rules, {"seats": 5}, seed=seed)
        table.play(auto)
        g = table.state["g"]
        medals = [k + s for k, s in zip(g["kills"], g["survivals"], strict=True)]
        assert g["winners"] == [s for s in range(5) if medals[s] == max(medals)]


def test_bad_config_is_refused(rules: RumbleRules) -> None:
    with pytest.raises(IllegalAction):
        rules.new_game({"seats": 7})
    with pytest.raises(IllegalAction):
        rules.new_game({"seats": 3, "mode": "blitz"})
    with pytest.raises(IllegalAction):
        rules.new_game({"seats": 3, "names": ["А", "Б"]})


def test_discard_returns_to_the_deck_only_when_the_deck_runs_out(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 6}, seed=21)
    reshuffles = 0
    previous = table.state["g"]
    while table.step(auto):
        g = table.state["g"]
        if len(g["discard"]) < len(previous["discard"]):
            # every card left in the old deck was drawn before the discard came back
            assert not set(previous["draw"]) & set(g["draw"])
            reshuffles += 1
        previous = g
    assert reshuffles >= 1
    assert sum(1 for e in previous["log"] if e == {"e": "reshuffle"}) == reshuffles


def test_an_absent_player_skips_sealing_and_a_sealed_spell_can_be_forfeited(
    rules: RumbleRules,
) -> None:
    table = LocalTable(rules, {"seats": 3}, seed=31)
    table.apply({"type": "skip", "seat": 0})
    for _ in (1, 2):
        table.step(auto)
    g = table.state["g"]
    assert g["spell"][0] is None and {"e": "no_seal", "seat": 0} in g["log"]
    while table.decision().phase != "open":
        table.step(auto)
    seat = table.decision().seats[0]
    hand = list(table.state["g"]["hand"][seat])
    table.apply({"type": "skip", "seat": seat})
    g = rules.current(table.state)
    assert {"e": "forfeit", "seat": seat} in g["log"]
    assert sorted(g["hand"][seat]) == sorted(hand)  # the sealed cards simply stay in the hand
    table.play(auto)
    assert table.decision().kind == Kind.TERMINAL


def test_view_shows_the_spell_being_cast_while_its_dice_roll(rules: RumbleRules) -> None:
    table = LocalTable(rules, {"seats": 3}, seed=41)
    named = 0
    while table.step(auto) and named < 5:
        decision = table.decision()
        if decision.kind != Kind.CHANCE or decision.phase != "power":
            continue
        view = rules.view(table.state, Knowledge(None))
        cast = view["cast"]
        if cast is None or all(card["done"] for card in cast["cards"]):
            continue  # a creature attacking after its owner's spell
        assert view["waiting"]["kind"] == "chance"
        names = [s["name"] for s in view["seats"]]
        said = render_log("rumble", view["log"], "ru", names)
        assert any(f"творит «{cast['name']}»" in line for line in said)
        named += 1
    assert named == 5


def test_auto_action_without_knowledge_needs_no_secret(rules: RumbleRules) -> None:
    """The log choosing for an absent player: public answers, or a skip where secrets rule."""
    table = LocalTable(rules, {"seats": 4}, seed=51)
    phases: set[str] = set()
    while True:
        decision = table.decision()
        if decision.kind == Kind.TERMINAL:
            break
        if decision.kind in (Kind.MOVE, Kind.SIMULTANEOUS) and decision.seats[0] == 3:
            action = rules.auto_action(table.state, 3, None)
            phases.add(f"{decision.phase}:{action['type']}")
            table.apply(action)
        else:
            table.step(auto)
    assert "assembly:skip" in phases
    g = table.state["g"]
    assert g["winners"]
