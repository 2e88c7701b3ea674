"""Seal choices: the fast enumeration lists exactly the spells of a plain reference, in order."""

from __future__ import annotations

import random
from itertools import combinations, product
from typing import Any

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.rumble import RumbleRules
from engine.games.rumble.cards import SLOTS, WILD
from engine.games.rumble.seals import SealChoices, enumerate_seals

RULES = RumbleRules()
SPELLS = RULES.cat.spells


def reference(hand: list[int], cards: list[str]) -> list[tuple[Any, ...]]:
    """The rule as written: combinations of the sorted hand by size, then the product of each
    card's places; one card per place; the same cards on the same places once; places in name
    order, the initiative the delivery's (0 for none or a wild one)."""
    out: list[tuple[Any, ...]] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for size in (1, 2, 3):
        for combo in combinations(range(len(hand)), size):
            options = [SLOTS if cards[i] == WILD else (SPELLS[cards[i]]["slot"],) for i in combo]
            for places in product(*options):
                if len(set(places)) != size:
                    continue
                ordered = sorted(zip(places, combo, strict=True))
                key = tuple((p, cards[i]) for p, i in ordered)
                if key in seen:
                    continue
                seen.add(key)
                init = next(
                    (
                        SPELLS[cards[i]].get("initiative", 0)
                        for p, i in ordered
                        if p == "delivery" and cards[i] != WILD
                    ),
                    0,
                )
                out.append((init, *(x for p, i in ordered for x in (hand[i], p))))
    return out


def test_seals_match_the_reference_on_random_hands() -> None:
    rng = random.Random(5)
    deck = RULES.cat.spell_deck()
    ids = sorted(set(deck))
    wilds = 0
    for _ in range(400):
        size = rng.randrange(0, 9)
        # Drawn from a few ids so that equal cards (and wild magic) are common.
        few = [*rng.sample(ids, 4), WILD]
        cards = [rng.choice(few) for _ in range(size)]
        wilds += WILD in cards
        hand = sorted(rng.sample(range(100), size))
        seals = enumerate_seals(hand, cards, SPELLS)
        expected = reference(hand, cards)
        assert list(seals) == expected
        # Read by index too (what a bot that picks one does), from either end.
        assert len(seals) == len(expected)
        assert [seals[i] for i in range(len(expected))] == expected
        assert [seals[-1 - i] for i in range(len(expected))] == expected[::-1]
        assert seals[1:4] == expected[1:4]
    assert 50 < wilds < 350  # both paths (with and without wild magic) are exercised


def test_lazy_choices_are_the_legal_actions() -> None:
    table = LocalTable(RULES, {"seats": 4}, seed=7)
    bot = RandomBot(7)
    checked = 0
    while table.step(bot.choose) and checked < 40:
        need = table.state["need"]
        if need.get("phase") != "assembly":
            continue
        for seat in need["seats"]:
            know = table.knowledge[seat]
            lazy = RULES.legal_choices(table.state, seat, know)
            assert isinstance(lazy, SealChoices)
            full = RULES.legal_actions(table.state, seat, know)
            assert list(lazy) == full and len(lazy) == len(full) and full
            assert lazy[len(full) // 2] == full[len(full) // 2] and lazy[1:3] == full[1:3]
            checked += 1
    assert checked >= 40
