"""The hidden decks: one main deck of 60 slots, gathered and re-shuffled by the table between rounds
(a RESHUFFLE of all 60; cards nobody showed stay unseen), Light and Shadow of 25 each; a pile that
runs short in a round is topped up with its discards the same way; knowledge of re-shuffled slots
is forgotten and re-dealt cards are delivered again; every card is in exactly one place."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Decision, Kind
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot
from engine.games.nevermore.scenario import ScenarioRun
from engine.games.nevermore.table import pile_of

from .helpers import conserved, data, lines

RULES = NevermoreRules()
MAIN = list(range(60))


def bots(n: int, seed: int) -> dict[int, Any]:
    return {
        s: (HeuristicBot().choose if s % 2 else RandomBot(seed * 7 + s).choose) for s in range(n)
    }


@pytest.mark.parametrize("max_rounds", [1, 20, 200])
def test_one_main_deck_of_sixty_and_the_two_magic_decks(max_rounds: int) -> None:
    config = {"seats": 4, "max_rounds": max_rounds}
    decks = RULES.hidden_decks(config)
    assert list(decks) == ["main", "light", "shadow", "tokens"]
    assert [len(cards) for cards in decks.values()] == [60, 25, 25, 4]
    assert Counter(decks["main"]) == Counter(dict.fromkeys(RULES.cat.deck("main"), 12))
    t = LocalTable(RULES, config, seed=1)
    assert sorted(t.slot_card) == list(range(114))
    g = data(t.state)
    assert g["total_slots"] == 114
    assert {p: (v["base"], v["size"]) for p, v in g["piles"].items()} == {
        "main": (0, 60),
        "light": (60, 25),
        "shadow": (85, 25),
        "tokens": (110, 4),
    }


class Boundaries:
    """Checks every REVEAL/RESHUFFLE of a LocalTable game and the knowledge around them."""

    def __init__(self, t: LocalTable) -> None:
        self.t = t
        self.count = 0
        self.dealt: dict[int, list[list[int]]] = {}

    def step(self, policy: Any) -> bool:
        t = self.t
        d = t.decision()
        assert not (d.kind == Kind.REVEAL and d.phase in ("new_deck", "restock")), "nothing shown"
        if d.kind == Kind.RESHUFFLE and d.phase == "new_deck":
            self.before_reshuffle(d)
        going = t.step(policy)
        if d.kind == Kind.RESHUFFLE and d.phase == "new_deck":
            self.after_reshuffle()
        g = data(t.state)
        if g["round"] >= 1 and g["round"] not in self.dealt and any(g["hand"]):
            self.after_deal()
        return going

    def before_reshuffle(self, d: Decision) -> None:
        g = data(self.t.state)
        # The round has begun (its header is logged) and nothing is dealt yet.
        assert g["log"][-1]["e"] == "round" and g["log"][-1]["round"] == g["round"]
        assert g["round"] >= 2 and not any(g["hand"])
        assert d.deck == "main" and list(d.slots) == MAIN
        # What is public is what the round showed; the undrawn rest, at least, stays unseen.
        assert all(g["known"][k] == self.t.slot_card[int(k)] for k in g["known"] if int(k) < 60)
        assert [s for s in MAIN if str(s) not in g["known"]]
        self.count += 1

    def after_reshuffle(self) -> None:
        g = data(self.t.state)
        # The table's answer is applied and the new hands dealt from the top, in one step.
        assert not any(str(s) in g["known"] for s in MAIN)
        assert g["piles"]["main"]["draw"] == MAIN[5 * g["n"] :]
        assert not [s for s in g["discard"] if s < 60]
        for seat, know in self.t.knowledge.items():
            assert set(know.cards) & set(MAIN) == set(g["hand"][seat])
        assert Counter(self.t.slot_card[s] for s in MAIN) == Counter(RULES.cat.deck("main"))

    def after_deal(self) -> None:
        g = data(self.t.state)
        self.dealt[g["round"]] = [list(h) for h in g["hand"]]
        for seat, hand in enumerate(g["hand"]):
            know = self.t.knowledge[seat]
            assert all(know.cards[s] == self.t.slot_card[s] for s in hand)
        if g["round"] >= 2:
            # Dealt again from the top of the re-shuffled deck, ascending.
            dealt = sorted(s for h in g["hand"] for s in h)
            assert dealt == list(range(5 * g["n"]))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_each_round_boundary_reshuffles_all_sixty_without_showing_the_unseen(n: int) -> None:
    for seed in range(3):
        t = LocalTable(RULES, {"seats": n, "max_rounds": 5}, seed=100 * n + seed)
        check = Boundaries(t)
        policy = bots(n, seed)
        while check.step(policy):
            conserved(data(t.state))
            main = Counter(t.slot_card[s] for s in MAIN)
            assert main == Counter(RULES.cat.deck("main"))
        g = data(t.state)
        played = min(g["round"], g["max_rounds"])
        assert check.count == played - 1
        assert sum(e["e"] == "new_deck" for e in g["log"]) == played - 1
        assert len(check.dealt) == played


def test_a_redealt_slot_is_delivered_again_and_forgotten_by_its_old_holder() -> None:
    t = LocalTable(RULES, {"seats": 4, "max_rounds": 3}, seed=7)
    policy = bots(4, 7)
    while not any(data(t.state)["hand"]):
        t.step(policy)
    holder = {s: seat for seat, hand in enumerate(data(t.state)["hand"]) for s in hand}
    while data(t.state)["round"] < 2 or t.decision().kind != Kind.RESHUFFLE:
        t.step(policy)
    assert all(t.knowledge[seat].cards[s] for s, seat in holder.items())
    t.step(policy)  # the re-shuffle, and the deal of round two right after it
    for seat, know in t.knowledge.items():
        assert set(know.cards) & set(MAIN) == set(data(t.state)["hand"][seat])
    moved = 0
    for seat, hand in enumerate(data(t.state)["hand"]):
        for s in hand:
            assert t.knowledge[seat].cards[s] == t.slot_card[s]
            old = holder.get(s)  # dealt in round one (else drawn to find the dealer)
            if old is not None and old != seat:
                moved += 1
                assert s not in t.knowledge[old].cards
    assert moved


def test_cards_hidden_when_a_flock_ends_the_round_stay_hidden_through_the_reshuffle() -> None:
    run = ScenarioRun(
        {
            "players": [
                {"hand": ["raven"] * 5},
                {"hand": ["attack", "attack", "healing", "victory", "radiance"]},
                {"hand": ["healing", "healing", "victory", "victory", "radiance"]},
            ],
            "stop": "game",
            "max_rounds": 2,
        }
    )
    t = run.table
    hands = [list(h) for h in data(t.state)["hand"]]
    while t.decision().kind != Kind.RESHUFFLE or t.decision().phase != "new_deck":
        assert t.decision().kind != Kind.REVEAL or t.decision().phase == "dealer"
        assert t.step(run.policy)
    assert any("стая воронов" in line for line in lines(data(t.state)))
    assert list(t.decision().slots) == MAIN
    known = data(t.state)["known"]
    assert not {str(s) for s in hands[1] + hands[2]} & set(known), "unshown hands stay unseen"
    assert {str(s) for s in hands[0]} <= set(known), "the flock was shown"


def test_a_long_first_dealer_search_tops_the_deck_up_with_its_cards() -> None:
    deck = RULES.cat.deck("main")
    others = [c for c in deck if c != "raven"]
    order = others[:47] + ["raven"] + others[47:] + ["raven"] * 11
    t = LocalTable(RULES, {"seats": 6}, deck_orders={"main": order}, seed=2)
    seen: list[Decision] = []
    while data(t.state)["round"] == 0 or t.decision().phase in ("dealer", "restock"):
        seen.append(t.decision())
        t.step({})
    assert data(t.state)["dealer"] == 47 % 6
    restock = [d for d in seen if d.phase == "restock"]
    # The dealer search showed every card it drew, so nothing needs revealing first.
    assert [d.kind for d in restock] == [Kind.RESHUFFLE]
    assert restock[0].deck == "main" and list(restock[0].slots) == list(range(48))
    assert [len(h) for h in data(t.state)["hand"]] == [5] * 6
    assert any("основной колоды кончилась" in line for line in lines(data(t.state)))
    conserved(data(t.state))


@pytest.mark.parametrize(
    ("pile", "task", "zone"),
    [
        ("main", {"k": "draw_main", "seat": 0, "count": 3}, "hand"),
        ("light", {"k": "light_gain", "seat": 0, "amount": 3}, "magic"),
        ("shadow", {"k": "draw_magic", "seat": 0, "pile": "shadow", "count": 3}, "magic"),
    ],
)
def test_a_pile_that_runs_short_is_topped_up_with_its_reshuffled_discards(
    pile: str, task: dict[str, Any], zone: str
) -> None:
    t = LocalTable(RULES, {"seats": 3}, seed=5)
    policy = bots(3, 5)
    while t.decision().phase != "window":
        t.step(policy)
    g = data(t.state)
    order = g["piles"][pile]["draw"]
    last, shown, face_down = order[-1], order[-2], order[-3]
    g[zone][1] += order[:-3]
    g["piles"][pile]["draw"] = [last]
    g["discard"] += [shown, face_down]
    g["known"][str(shown)] = t.slot_card[shown]
    before = sorted(s for s in g["discard"] if pile_of(g, s) == pile)
    # The draw comes next; the window asked now is asked again afterwards.
    g["agenda"].insert(0, task)
    g["need"] = None
    t.state = RULES.runner.advance({"g": g, "inputs": []})
    t.sync()
    g = data(t.state)
    conserved(g)
    d = t.decision()
    # The face-down discard is re-shuffled with the shown one without being shown.
    assert (d.kind, d.phase, d.deck, list(d.slots)) == (Kind.RESHUFFLE, "restock", pile, before)
    assert str(face_down) not in g["known"]
    t.step(policy)
    g = data(t.state)
    got = g[zone][0][-3:]
    assert got == [last, *before[:2]]
    assert not {str(s) for s in before} & set(g["known"])
    assert all(t.knowledge[0].cards[s] == t.slot_card[s] for s in got)
    assert not set(before[2:]) & set(t.knowledge[0].cards)
    assert g["piles"][pile]["draw"] == before[2:]
    assert g["piles"][pile]["shuffles"] == 1
    assert t.decision().phase == "window"
    conserved(g)


def play_checking_nodes(t: LocalTable, policy: Any, rounds: int = 10**6) -> list[str]:
    """Play on, checking the fair-play table's node rule: a new node when the decision's kind or
    phase changes, at every MOVE / REVEAL / RESHUFFLE / RACE, or when a SIMULTANEOUS node asks
    again the seat that just acted; a seat acts at most once in a node. Returns the phases of the
    table-made RESHUFFLE nodes seen."""
    node: tuple[str, str] | None = None
    acted: set[int] = set()
    last: int | None = None
    reshuffles: list[str] = []
    while data(t.state)["round"] <= rounds:
        d = t.decision()
        key = (str(d.kind), d.phase)
        again = d.kind == Kind.SIMULTANEOUS and last in d.seats
        if again or key != node or d.kind in (Kind.MOVE, Kind.REVEAL, Kind.RESHUFFLE, Kind.RACE):
            node, acted = key, set()
        last = d.seats[0] if d.kind == Kind.SIMULTANEOUS else None
        if d.kind == Kind.SIMULTANEOUS:
            seat = d.seats[0]
            assert seat not in acted, (key, data(t.state)["round"])
            acted.add(seat)
        if d.kind == Kind.RESHUFFLE:
            reshuffles.append(d.phase)
        if not t.step(policy):
            break
    return reshuffles


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_no_seat_is_asked_twice_in_what_the_table_takes_for_one_node(n: int) -> None:
    for seed in range(6):
        t = LocalTable(RULES, {"seats": n, "max_rounds": 4}, seed=seed)
        play_checking_nodes(t, bots(n, seed))
        assert t.decision().kind == Kind.TERMINAL
