"""The draft (seed «Фаза Драфта»): deal five, private passes of 3, 2, 1, the direction flipping
every round; passes are commitments opened by slot only (only the receiver learns the cards)."""

from __future__ import annotations

from typing import Any

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.nevermore import NevermoreRules

from .helpers import data


def _to_pass(t: LocalTable, bots: dict[int, Any]) -> None:
    while t.decision().phase != "pass_commit":
        assert t.step(bots)


def test_passes_of_three_two_one_to_the_left_then_to_the_right() -> None:
    rules = NevermoreRules()
    t = LocalTable(rules, {"seats": 4, "max_rounds": 3}, seed=7)
    bots = {s: RandomBot(s).choose for s in range(4)}
    sizes = []
    for rnd in (1, 2):
        for k in (3, 2, 1):
            _to_pass(t, bots)
            assert data(t.state)["round"] == rnd
            before = [list(h) for h in data(t.state)["hand"]]
            d = data(t.state)["dir"]
            assert d == (1 if rnd == 1 else -1)
            while t.decision().phase in ("pass_commit", "pass_open"):
                dec = t.decision()
                assert dec.kind == (Kind.SIMULTANEOUS if dec.phase == "pass_commit" else Kind.MOVE)
                if dec.phase == "pass_commit":
                    seat = dec.seats[0]
                    action = rules.legal_actions(t.state, seat, t.knowledge[seat])[0]
                    public = t.public(seat, action, dec.phase)
                    assert len(public["commit"]) == k and "secret" not in public
                    t.apply(public)
                else:
                    t.step(bots)
            after = data(t.state)["hand"]
            for seat in range(4):
                gone = set(before[seat]) - set(after[seat])
                assert len(gone) == k
                assert gone <= set(after[(seat + d) % 4])
                assert all(t.knowledge[(seat + d) % 4].cards.get(s) for s in gone)
            sizes.append([len(h) for h in after])
        while data(t.state)["round"] == rnd:
            t.step(bots)
    assert all(s == [5, 5, 5, 5] for s in sizes)


def test_pass_openings_reveal_slots_not_cards() -> None:
    rules = NevermoreRules()
    t = LocalTable(rules, {"seats": 3}, seed=1)
    bots = {s: RandomBot(s).choose for s in range(3)}
    _to_pass(t, bots)
    while t.decision().phase != "pass_open":
        t.step(bots)
    seat = t.decision().seats[0]
    passed = [item["slot"] for item in t.knowledge[seat].secrets["pass_commit"]["items"]]
    for i, slot in enumerate(passed):
        (action,) = rules.legal_actions(t.state, seat, t.knowledge[seat])
        # One top-level opening per passed card: the fair-play table opens it without the card.
        assert action == {"type": "pass_open", "seat": seat, "index": i, "slot": slot}
        t.apply(t.public(seat, action, "pass_open"))
        assert str(slot) not in data(t.state)["known"]
    assert seat not in t.decision().seats


def test_absent_player_passes_without_a_secret() -> None:
    rules = NevermoreRules()
    t = LocalTable(rules, {"seats": 3}, seed=2)
    bots = {s: RandomBot(s).choose for s in range(3)}
    _to_pass(t, bots)
    seat = t.decision().seats[0]
    hand = list(data(t.state)["hand"][seat])
    t.apply(rules.auto_action(t.state, seat, None))
    while t.decision().phase == "pass_commit":
        t.step(bots)
    while t.decision().phase == "pass_open":
        s = t.decision().seats[0]
        if s == seat:
            t.apply(rules.auto_action(t.state, s, None))
        else:
            t.step(bots)
    assert not set(hand[:3]) & set(data(t.state)["hand"][seat])
