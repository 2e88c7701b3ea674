"""Seal choices read one by one: the number and every spell read by index equal the full list of
the plain reference, on random hands with one wild magic (counted, not listed) and others."""

from __future__ import annotations

import random

import pytest

from engine.games.rumble.cards import WILD
from engine.games.rumble.seals import OneWildSeals, SealChoices, enumerate_seals, seal_action

from .test_seals import RULES, SPELLS, reference


def random_hand(rng: random.Random, wilds: int) -> tuple[list[int], list[str]]:
    """Up to 8 cards drawn from a few ids (so equal cards are common) with ``wilds`` wild ones."""
    ids = sorted(set(RULES.cat.spell_deck()) - {WILD})
    few = rng.sample(ids, rng.randrange(2, 7))
    cards = [rng.choice(few) for _ in range(rng.randrange(0, 9 - wilds))]
    for _ in range(wilds):
        cards.insert(rng.randrange(len(cards) + 1), WILD)
    return sorted(rng.sample(range(100), len(cards))), cards


@pytest.mark.parametrize("wilds", [0, 1, 2, 3])
def test_every_spell_read_by_index_is_the_references(wilds: int) -> None:
    rng = random.Random(11 + wilds)
    for _ in range(300):
        hand, cards = random_hand(rng, wilds)
        expected = reference(hand, cards)
        seals = enumerate_seals(hand, cards, SPELLS)
        assert isinstance(seals, OneWildSeals) == (wilds == 1)
        assert len(seals) == len(expected)
        assert [seals[i] for i in range(len(seals))] == expected
        assert list(seals) == expected
        if expected:
            assert seals[-1] == expected[-1] and seals[1:4] == expected[1:4]
        with pytest.raises(IndexError):
            seals[len(expected)]


def test_the_moves_of_one_wild_hand_are_built_from_the_read_spell() -> None:
    rng = random.Random(3)
    hand, cards = random_hand(rng, 1)
    choices = SealChoices(2, enumerate_seals(hand, cards, SPELLS))
    expected = [seal_action(2, seal) for seal in reference(hand, cards)]
    assert len(choices) == len(expected) and list(choices) == expected
    assert choices[len(expected) // 2] == expected[len(expected) // 2]
