"""The seal choices of the assembly: every legal spell from a hand, listed lazily.

``SealChoices`` enumerates the spells as compact tuples and builds a choice's action only when it
is read, so a bot that picks one of them (``RandomBot``) does not pay for building them all;
``list(choices)`` is the list ``RumbleRules.seal_choices`` returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, overload

from engine.core.model import Action

from .cards import SLOTS, WILD, SpellCard

Seal = tuple[Any, ...]
"""A spell in short: ``(initiative, slot, place, slot, place, ...)``, places in name order."""


def enumerate_seals(
    hand: list[int], cards: list[str], spells: Mapping[str, SpellCard]
) -> list[Seal]:
    """Every legal spell from the known ``hand`` (sorted slots) holding ``cards``: 1–3 cards, one
    per place, wild magic fills a gap; a spell of the same cards on the same places once.

    In the order of ``combinations`` of the hand by size, then ``product`` of each card's places;
    the initiative is the delivery's, or 0 with none or a wild one (as ``Flow.initiative_of``).
    """
    inits = [0 if c == WILD else spells[c].get("initiative", 0) for c in cards]
    if WILD not in cards:
        return _plain_seals(hand, cards, [spells[c]["slot"] for c in cards], inits)
    opts = [SLOTS if c == WILD else (spells[c]["slot"],) for c in cards]
    out: list[Seal] = []
    seen: set[tuple[str, ...]] = set()
    n = len(hand)
    for i in range(n):
        for p in opts[i]:
            key1 = (p, cards[i])
            if key1 not in seen:
                seen.add(key1)
                out.append((inits[i] if p == "delivery" else 0, hand[i], p))
    for i in range(n):
        for j in range(i + 1, n):
            for p in opts[i]:
                for q in opts[j]:
                    if p == q:
                        continue
                    if p < q:
                        key2 = (p, cards[i], q, cards[j])
                        if key2 not in seen:
                            seen.add(key2)
                            out.append((inits[i] if p == "delivery" else 0, hand[i], p, hand[j], q))
                    else:
                        key2 = (q, cards[j], p, cards[i])
                        if key2 not in seen:
                            seen.add(key2)
                            out.append((inits[j] if q == "delivery" else 0, hand[j], q, hand[i], p))
    for i in range(n):
        for j in range(i + 1, n):
            pairs = [(p, q) for p in opts[i] for q in opts[j] if p != q]
            if not pairs:
                continue
            for k in range(j + 1, n):
                for p, q in pairs:
                    for r in opts[k]:
                        if r in (p, q):
                            continue
                        d = i if p == "delivery" else j if q == "delivery" else k
                        qu = i if p == "quality" else j if q == "quality" else k
                        so = i if p == "source" else j if q == "source" else k
                        key3 = ("3", cards[d], cards[qu], cards[so])
                        if key3 in seen:
                            continue
                        seen.add(key3)
                        out.append(
                            (inits[d], hand[d], "delivery", hand[qu], "quality", hand[so], "source")
                        )
    return out


def _plain_seals(
    hand: list[int], cards: list[str], places: list[str], inits: list[int]
) -> list[Seal]:
    """``enumerate_seals`` of a hand without wild magic: each card has its one place, so a card
    (or the cards of a spell) names the spell."""
    out: list[Seal] = []
    singles: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    triples: set[tuple[str, str, str]] = set()
    n = len(hand)
    for i in range(n):
        if cards[i] not in singles:
            singles.add(cards[i])
            p = places[i]
            out.append((inits[i] if p == "delivery" else 0, hand[i], p))
    for i in range(n):
        p = places[i]
        for j in range(i + 1, n):
            q = places[j]
            if p == q:
                continue
            a, b = (i, j) if p < q else (j, i)
            key2 = (cards[a], cards[b])
            if key2 not in pairs:
                pairs.add(key2)
                fp = places[a]
                out.append((inits[a] if fp == "delivery" else 0, hand[a], fp, hand[b], places[b]))
    for i in range(n):
        p = places[i]
        for j in range(i + 1, n):
            q = places[j]
            if p == q:
                continue
            for k in range(j + 1, n):
                r = places[k]
                if r in (p, q):
                    continue
                d = i if p == "delivery" else j if q == "delivery" else k
                qu = i if p == "quality" else j if q == "quality" else k
                so = i if p == "source" else j if q == "source" else k
                key3 = (cards[d], cards[qu], cards[so])
                if key3 not in triples:
                    triples.add(key3)
                    out.append(
                        (inits[d], hand[d], "delivery", hand[qu], "quality", hand[so], "source")
                    )
    return out


def seal_action(seat: int, seal: Seal) -> Action:
    """The private seal move of one spell: its items, then the initiative."""
    items: list[dict[str, Any]] = [
        {"slot": seal[i], "as": seal[i + 1]} for i in range(1, len(seal), 2)
    ]
    items.append({"initiative": seal[0]})
    return {"type": "seal", "seat": seat, "secret": {"items": items}}


class SealChoices(Sequence[Action]):
    """The seal moves of ``seat`` for ``seals``, each built (afresh) when it is read."""

    __slots__ = ("seals", "seat")

    def __init__(self, seat: int, seals: list[Seal]) -> None:
        self.seat, self.seals = seat, seals

    def __len__(self) -> int:
        return len(self.seals)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [seal_action(self.seat, s) for s in self.seals[index]]
        return seal_action(self.seat, self.seals[index])

    def __iter__(self) -> Any:
        seat = self.seat
        return (seal_action(seat, s) for s in self.seals)
