"""The seal choices of the assembly: every legal spell from a hand, listed lazily.

``SealChoices`` enumerates the spells as compact tuples (a hand without wild magic as index
combinations) and builds a choice's action only when it is read, so a bot that picks one of them
(``RandomBot``) does not pay for building them all; ``list(choices)`` is the list
``RumbleRules.seal_choices`` returns.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import chain, combinations, islice
from typing import Any, overload

from engine.core.model import Action

from .cards import SLOTS, WILD, SpellCard
from .state import Place

Seal = tuple[Any, ...]
"""A spell in short: ``(initiative, slot, place, slot, place, ...)``, places in name order."""


def enumerate_seals(
    hand: list[int], cards: list[str], spells: Mapping[str, SpellCard]
) -> Sequence[Seal]:
    """Every legal spell from the known ``hand`` (sorted slots) holding ``cards``: 1–3 cards, one
    per place, wild magic fills a gap; a spell of the same cards on the same places once.

    In the order of ``combinations`` of the hand by size, then ``product`` of each card's places;
    the initiative is the delivery's, or 0 with none or a wild one (as ``Flow.initiative_of``).
    """
    if WILD not in cards:
        inits = [spells[c].get("initiative", 0) for c in cards]
        return _plain_seals(hand, cards, [spells[c]["slot"] for c in cards], inits)
    # A spell's first combination takes the first copy of each card but wild magic (two equal
    # cards of one place are never in one spell): later copies add nothing.
    firsts = set(_firsts(cards))
    keep = [i for i, c in enumerate(cards) if c == WILD or i in firsts]
    hand, cards = [hand[i] for i in keep], [cards[i] for i in keep]
    inits = [0 if c == WILD else spells[c].get("initiative", 0) for c in cards]
    opts = [SLOTS if c == WILD else (spells[c]["slot"],) for c in cards]
    if cards.count(WILD) == 1:
        return OneWildSeals(hand, inits, opts)
    return _wild_seals(hand, cards, inits, opts)


class OneWildSeals(Sequence[Seal]):
    """The spells of a hand whose cards all differ but for one wild magic, in ``_wild_seals``'s
    order: no spell is met twice (its cards and places name its combination), so none is looked
    up, their number follows from the count of each place, and a spell read by index is made by
    running only through the spells of its size."""

    __slots__ = ("hand", "inits", "n", "opts", "sizes")

    def __init__(self, hand: list[int], inits: list[int], opts: list[tuple[Place, ...]]) -> None:
        self.hand, self.inits, self.opts, self.n = hand, inits, opts, len(hand)
        count = {place: 0 for place in SLOTS}
        for places in opts:
            if len(places) == 1:
                count[places[0]] += 1
        s, q, d = count["source"], count["quality"], count["delivery"]
        pairs = s * q + s * d + q * d  # two ordinary cards of two places
        # Singles: every ordinary card, the wild one on each place; pairs: the ordinary ones and
        # the wild one beside each ordinary card on the two other places; triples: the ordinary
        # ones and the wild one on the place each ordinary pair leaves.
        self.sizes = (self.n + 2, pairs + 2 * (self.n - 1), s * q * d + pairs)

    def __len__(self) -> int:
        return sum(self.sizes)

    @overload
    def __getitem__(self, index: int) -> Seal: ...

    @overload
    def __getitem__(self, index: slice) -> list[Seal]: ...

    def __getitem__(self, index: int | slice) -> Seal | list[Seal]:
        if isinstance(index, slice):
            return list(self)[index]
        index = checked_index(index, len(self))
        for size, block in zip(self.sizes, (self.singles, self.pairs, self.triples), strict=True):
            if index < size:
                return next(islice(block(), index, None))
            index -= size
        raise AssertionError("unreachable")

    def __iter__(self) -> Iterator[Seal]:
        return chain(self.singles(), self.pairs(), self.triples())

    def singles(self) -> Iterator[Seal]:
        hand, inits = self.hand, self.inits
        for i, places in enumerate(self.opts):
            for p in places:
                yield (inits[i] if p == "delivery" else 0, hand[i], p)

    def pairs(self) -> Iterator[Seal]:
        hand, inits, opts, n = self.hand, self.inits, self.opts, self.n
        for i in range(n):
            hi, oi = hand[i], opts[i]
            for j in range(i + 1, n):
                hj = hand[j]
                for p in oi:
                    for q in opts[j]:
                        if p < q:
                            yield (inits[i] if p == "delivery" else 0, hi, p, hj, q)
                        elif q < p:
                            yield (inits[j] if q == "delivery" else 0, hj, q, hi, p)

    def triples(self) -> Iterator[Seal]:
        hand, inits, opts, n = self.hand, self.inits, self.opts, self.n
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
                            hd, hq, hs = hand[d], hand[qu], hand[so]
                            yield (inits[d], hd, "delivery", hq, "quality", hs, "source")


def _wild_seals(
    hand: list[int], cards: list[str], inits: list[int], opts: list[tuple[Place, ...]]
) -> list[Seal]:
    """The spells of a hand with wild magic (``opts``: each card's places), equal spells once.

    A spell with m wild magics is first met in a combination holding the first m wild cards of
    the hand (a combination holding a later one comes after the same with an earlier one in its
    place), so any other combination is passed over before its places are tried: ``bits`` marks
    the r-th wild card by 1 << r, and the wild cards of a combination that may come first make a
    value 2**m - 1."""
    out: list[Seal] = []
    seen: set[tuple[str, ...]] = set()
    n = len(hand)
    bits = [0] * n
    for rank, i in enumerate(i for i, c in enumerate(cards) if c == WILD):
        bits[i] = 1 << rank
    for i in range(n):
        if bits[i] > 1:
            continue
        for p in opts[i]:
            key1 = (p, cards[i])
            if key1 not in seen:
                seen.add(key1)
                out.append((inits[i] if p == "delivery" else 0, hand[i], p))
    for i in range(n):
        for j in range(i + 1, n):
            b = bits[i] | bits[j]
            if b & (b + 1):
                continue
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
            b = bits[i] | bits[j]
            if b & (b + 1):
                continue
            pairs = [(p, q) for p in opts[i] for q in opts[j] if p != q]
            if not pairs:
                continue
            for k in range(j + 1, n):
                b3 = b | bits[k]
                if b3 & (b3 + 1):
                    continue
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


class PlainSeals(Sequence[Seal]):
    """The spells of a hand of different cards without wild magic (each card has its one place):
    the combinations of 1–3 of its cards on different places, by size, each size in the order of
    ``combinations``. Counted from the places, and a spell read by index is found by walking the
    counts: none is made before it is read."""

    __slots__ = ("bits", "counts", "hand", "inits", "n", "places", "sizes")

    def __init__(self, hand: list[int], places: list[str], inits: list[int]) -> None:
        self.hand, self.places, self.inits, self.n = hand, places, inits, len(hand)
        self.bits = [_BIT[p] for p in places]
        # counts[b]: how many cards lie on the place of bit b (1, 2 or 4).
        self.counts = counts = [0] * 5
        for place, bit in _BIT.items():
            counts[bit] = places.count(place)
        d, q, s = counts[1], counts[2], counts[4]
        self.sizes = (self.n, d * q + d * s + q * s, d * q * s)

    def __len__(self) -> int:
        return sum(self.sizes)

    @overload
    def __getitem__(self, index: int) -> Seal: ...

    @overload
    def __getitem__(self, index: slice) -> list[Seal]: ...

    def __getitem__(self, index: int | slice) -> Seal | list[Seal]:
        if isinstance(index, slice):
            return list(self)[index]
        index = checked_index(index, len(self))
        singles, pairs, _ = self.sizes
        if index < singles:
            return self.seal((index,))
        index -= singles
        if index < pairs:
            return self.seal(self._pair(index))
        return self.seal(self._triple(index - pairs))

    def _pair(self, index: int) -> tuple[int, int]:
        """The ``index``-th pair of cards on different places."""
        bits, n = self.bits, self.n
        rest = self.counts[:]  # by place, the cards after the first of the pair
        for i in range(n):
            bit = bits[i]
            rest[bit] -= 1
            count = n - 1 - i - rest[bit]
            if index < count:
                for j in range(i + 1, n):
                    if bits[j] != bit:
                        if index == 0:
                            return i, j
                        index -= 1
            index -= count
        raise AssertionError("unreachable")

    def _triple(self, index: int) -> tuple[int, int, int]:
        """The ``index``-th triple of cards on the three places."""
        bits, n = self.bits, self.n
        after_i = self.counts[:]  # by place, the cards after the first of the triple
        for i in range(n):
            bi = bits[i]
            after_i[bi] -= 1
            after_j = after_i[:]  # by place, the cards after the second
            for j in range(i + 1, n):
                bj = bits[j]
                after_j[bj] -= 1
                if bj == bi:
                    continue
                third = 7 ^ bi ^ bj
                count = after_j[third]
                if index < count:
                    for k in range(j + 1, n):
                        if bits[k] == third:
                            if index == 0:
                                return i, j, k
                            index -= 1
                index -= count
        raise AssertionError("unreachable")

    def __iter__(self) -> Iterator[Seal]:
        bits, n, seal = self.bits, self.n, self.seal
        for i in range(n):
            yield seal((i,))
        for i, j in combinations(range(n), 2):
            if bits[i] != bits[j]:
                yield seal((i, j))
        for i, j, k in combinations(range(n), 3):
            if bits[i] | bits[j] | bits[k] == 7:
                yield seal((i, j, k))

    def seal(self, combo: tuple[int, ...]) -> Seal:
        """The spell of the cards at ``combo``: places in name order, the delivery's initiative."""
        places = self.places
        order = sorted(combo, key=places.__getitem__)
        first = order[0]
        out: list[Any] = [self.inits[first] if places[first] == "delivery" else 0]
        for i in order:
            out += (self.hand[i], places[i])
        return tuple(out)


def checked_index(index: int, total: int) -> int:
    """``index`` of a sequence of ``total`` items, from its start (a negative one counts from its
    end); ``IndexError`` when there is no such item."""
    if index < 0:
        index += total
    if not 0 <= index < total:
        raise IndexError("seal choice index out of range")
    return index


def _firsts(cards: list[str]) -> list[int]:
    """The index of the first copy of each card, in order."""
    seen: set[str] = set()
    out: list[int] = []
    for i, card in enumerate(cards):
        if card not in seen:
            seen.add(card)
            out.append(i)
    return out


_BIT: dict[str, int] = {place: 1 << i for i, place in enumerate(SLOTS)}


def _plain_seals(
    hand: list[int], cards: list[str], places: list[str], inits: list[int]
) -> PlainSeals:
    """``enumerate_seals`` of a hand without wild magic: the combinations of 1–3 cards of
    different places, in order. A spell is its cards (each has its one place), and the first
    combination of a spell's cards takes the first of each equal card: so the combinations are
    those of the first copies of the hand's cards."""
    firsts = _firsts(cards)
    if len(firsts) != len(cards):
        hand = [hand[i] for i in firsts]
        places = [places[i] for i in firsts]
        inits = [inits[i] for i in firsts]
    return PlainSeals(hand, places, inits)


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

    def __init__(self, seat: int, seals: Sequence[Seal]) -> None:
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
