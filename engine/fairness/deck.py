"""Mental-poker deck on P-256: encoding, two-pass shuffle, checks, unmasking and audit.

Encoding: card ``i`` of deck ``d`` (id ``c``) is the point whose x-coordinate is
``hash_to_x(tag, room, game, d, i, c)``, so copies of one card id are still distinct points and no
point has a known discrete log. Masking with key ``k`` maps x to ``x(k·P)``.

Shuffle (seats in order): pass 1, each seat masks every card with its deck key ``e`` and permutes;
pass 2, each seat removes ``e`` and applies a fresh key ``k_j`` per slot ``j`` (one multiplication
by ``k_j·e⁻¹ mod n``) and publishes ``commit(k_j)``. Slot ``j`` then holds ``x((Π_s k_sj)·P)``.

Unmasking: whoever holds every seat's key for a slot multiplies by ``(Π_s k_sj)⁻¹ mod n`` and looks
the x-coordinate up in the table of card x-coordinates built from the encoding; a value absent from
the table means somebody cheated, and the audit names who.

All of a seat's shuffle secrets (deck keys, permutations, slot keys) derive from one 32-byte seed,
so the audit publishes one seed per seat and the departure policy escrows one seed.

Re-shuffle (epoch ``r ≥ 1``): publicly revealed slots go back face down. Their card points are
public, so the same two passes run over them alone, among the seats still present, with a deck
key, a permutation and slot keys derived from the seed *and* ``r`` (epoch 0 is the initial shuffle,
whose derivations are unchanged). A ``DeckTranscript`` then names its epoch, its slots (ascending)
and its seats.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.fairness import curve
from engine.fairness.backends.base import CryptoBackend, CryptoError
from engine.fairness.encoding import join_fields
from engine.fairness.randomness import reduce_uniform

CARD_TAG = b"magic-table/card/v1"
KEY_TAG = b"magic-table/slot-key/v1"


class DeckError(ValueError):
    """A published deck or key failed a check; ``seat`` is the seat to blame (if known)."""

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message if seat is None else f"seat {seat}: {message}")
        self.seat = seat


@dataclass(frozen=True)
class DeckLayout:
    """The hidden decks of one game with their global slot numbering (``Rules.hidden_decks``)."""

    decks: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def from_rules(cls, decks: Mapping[str, Sequence[str]]) -> DeckLayout:
        """Keep the order the game listed its decks in."""
        return cls(tuple((name, tuple(cards)) for name, cards in decks.items()))

    @property
    def total(self) -> int:
        """Number of slots over every deck."""
        return sum(len(cards) for _, cards in self.decks)

    def first_slot(self, deck: str) -> int:
        """Global slot number of the deck's first position."""
        start = 0
        for name, cards in self.decks:
            if name == deck:
                return start
            start += len(cards)
        raise KeyError(deck)

    def cards(self, deck: str) -> tuple[str, ...]:
        """Card ids of one deck before the shuffle."""
        return dict(self.decks)[deck]

    def deck_of(self, slot: int) -> str:
        """Name of the deck that slot belongs to."""
        start = 0
        for name, cards in self.decks:
            if start <= slot < start + len(cards):
                return name
            start += len(cards)
        raise KeyError(slot)


def card_point(room: str, game: str, deck: str, index: int, card: str) -> int:
    """x-coordinate of the card ``card`` listed at ``index`` in ``deck``."""
    return curve.hash_to_x(CARD_TAG, *(f.encode() for f in (room, game, deck, str(index), card)))


def card_points(room: str, game: str, deck: str, cards: Sequence[str]) -> list[int]:
    """x-coordinates of a deck's cards in their listed order."""
    return [card_point(room, game, deck, i, card) for i, card in enumerate(cards)]


def card_table(
    room: str, game: str, layout: DeckLayout, points: Mapping[str, Sequence[int]] | None = None
) -> dict[int, str]:
    """Map from a card's x-coordinate to its id, over every deck of the game (``points``: each
    deck's ``card_points`` when the caller has them already)."""
    table: dict[int, str] = {}
    for deck, cards in layout.decks:
        xs = points[deck] if points is not None else card_points(room, game, deck, cards)
        for x, card in zip(xs, cards, strict=True):
            table[x] = card
    return table


@dataclass(frozen=True)
class ShuffleSeed:
    """One seat's shuffle secrets, all derived from a 32-byte seed."""

    seed: bytes

    def deck_key(self, deck: str, epoch: int = 0) -> int:
        """The pass-1 key for ``deck`` (``epoch`` > 0: for that re-shuffle)."""
        if epoch:
            return curve.scalar_from_bytes(b"deck-key", self.seed, deck.encode(), _epoch(epoch))
        return curve.scalar_from_bytes(b"deck-key", self.seed, deck.encode())

    def slot_key(self, slot: int, epoch: int = 0) -> int:
        """The pass-2 key for global slot ``slot`` (``epoch`` > 0: after that re-shuffle)."""
        if epoch:
            extra = _epoch(epoch)
            return curve.scalar_from_bytes(b"slot-key", self.seed, str(slot).encode(), extra)
        return curve.scalar_from_bytes(b"slot-key", self.seed, str(slot).encode())

    def permutation(self, deck: str, size: int, epoch: int = 0) -> list[int]:
        """Output position j takes input position ``perm[j]`` (Fisher–Yates, hashed randomness)."""
        perm = list(range(size))
        extra = (_epoch(epoch),) if epoch else ()
        for i in range(size - 1, 0, -1):
            digest = hashlib.sha256(join_fields(b"perm", self.seed, deck, i, *extra)).digest()
            j = reduce_uniform(digest, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return perm


def _epoch(epoch: int) -> bytes:
    """The derivation field of a re-shuffle epoch (never empty, never a bare slot number)."""
    if epoch < 0:
        raise ValueError("epochs count up from 0")
    return b"epoch:" + str(epoch).encode()


def key_commitment(room: str, game: str, seat: int, slot: int, key: int) -> str:
    """Public commitment to one slot key (the key is a 256-bit secret, so no nonce is needed)."""
    return hashlib.sha256(
        join_fields(KEY_TAG, room, game, seat, slot, key.to_bytes(32, "big"))
    ).hexdigest()


def check_key(room: str, game: str, seat: int, slot: int, key: int, digest: str) -> bool:
    """True when ``key`` is what ``seat`` committed to for ``slot``."""
    if not 0 < key < curve.N:
        return False
    return hmac.compare_digest(key_commitment(room, game, seat, slot, key), digest)


def check_deck(xs: Sequence[int], size: int, seat: int | None = None) -> None:
    """Structural checks every peer runs on a published deck: length, distinct, valid x."""
    check_deck_shape(xs, size, seat)
    check_xs(xs, seat)


def check_deck_shape(xs: Sequence[int], size: int, seat: int | None = None) -> None:
    """The first part of ``check_deck``: the length and that no card comes twice."""
    if len(xs) != size:
        raise DeckError(f"deck has {len(xs)} cards, expected {size}", seat)
    if len(set(xs)) != size:
        raise DeckError("deck holds a duplicated card", seat)


def check_xs(xs: Sequence[int], seat: int | None = None) -> None:
    """The rest of ``check_deck`` (for any part of a deck): every value is a valid x (a Legendre
    symbol each, so callers may check a deck a part at a time)."""
    for x in xs:
        if not isinstance(x, int) or not curve.is_valid_x(x):
            raise DeckError("deck holds a value that is not a P-256 x-coordinate", seat)


async def pass_one(
    backend: CryptoBackend, seed: ShuffleSeed, deck: str, xs: Sequence[int], epoch: int = 0
) -> list[int]:
    """Mask every card with the deck key and permute."""
    key = seed.deck_key(deck, epoch)
    perm = seed.permutation(deck, len(xs), epoch)
    return await backend.mult_many([(key, xs[perm[j]]) for j in range(len(xs))])


async def pass_zero(
    backend: CryptoBackend,
    seed: ShuffleSeed,
    deck: str,
    xs: Sequence[int],
    hidden: Mapping[int, tuple[int, int]],
    epoch: int,
) -> list[int]:
    """Before a re-shuffle that takes never-revealed cards: mask every position with the deck key,
    and at each hidden position (``position: (slot, its old epoch)``) take off this seat's old slot
    key in the same step, so the card is never bare. No permutation: positions stay linked to slots
    until pass 1."""
    key = seed.deck_key(deck, epoch)
    pairs = []
    for j, x in enumerate(xs):
        if j in hidden:
            slot, old = hidden[j]
            pairs.append((key * pow(seed.slot_key(slot, old), -1, curve.N) % curve.N, x))
        else:
            pairs.append((key, x))
    return await backend.mult_many(pairs)


async def pass_two(
    backend: CryptoBackend,
    seed: ShuffleSeed,
    deck: str,
    first_slot: int,
    xs: Sequence[int],
    *,
    slots: Sequence[int] | None = None,
    epoch: int = 0,
    deck_power: int = 1,
) -> list[int]:
    """Swap the deck key for a fresh key per slot (``slots``: position j is ``slots[j]``;
    by default the consecutive slots from ``first_slot``). ``deck_power`` is 2 after a pass 0,
    which applied the deck key once more."""
    numbers = _slot_numbers(first_slot, len(xs), slots)
    inverse = pow(seed.deck_key(deck, epoch), -deck_power, curve.N)
    pairs = [
        (seed.slot_key(slot, epoch) * inverse % curve.N, x)
        for slot, x in zip(numbers, xs, strict=True)
    ]
    return await backend.mult_many(pairs)


def slot_commitments(
    room: str,
    game: str,
    seat: int,
    seed: ShuffleSeed,
    first_slot: int,
    size: int,
    *,
    slots: Sequence[int] | None = None,
    epoch: int = 0,
) -> list[str]:
    """The commitments a seat publishes with its pass-2 deck."""
    return [
        key_commitment(room, game, seat, slot, seed.slot_key(slot, epoch))
        for slot in _slot_numbers(first_slot, size, slots)
    ]


def _slot_numbers(first_slot: int, size: int, slots: Sequence[int] | None) -> list[int]:
    if slots is None:
        return list(range(first_slot, first_slot + size))
    if len(slots) != size:
        raise ValueError("one slot number per position")
    return list(slots)


async def unmask(
    backend: CryptoBackend, masked_x: int, keys: Sequence[int], table: Mapping[int, str]
) -> str:
    """Card id under a slot given every seat's key for it; ``DeckError`` if it is no card."""
    total = 1
    for key in keys:
        total = total * key % curve.N
    try:
        (x,) = await backend.mult_many([(pow(total, -1, curve.N), masked_x)])
    except CryptoError as exc:
        raise DeckError("slot does not unmask to a point") from exc
    card = table.get(x)
    if card is None:
        raise DeckError("slot does not unmask to a card of this game")
    return card


async def unmask_points(
    backend: CryptoBackend, items: Sequence[tuple[int, Sequence[int]]]
) -> list[int]:
    """Batch unmasking to x-coordinates (the card points, when nobody cheated)."""
    pairs = []
    for masked_x, keys in items:
        total = 1
        for key in keys:
            total = total * key % curve.N
        pairs.append((pow(total, -1, curve.N), masked_x))
    return await backend.mult_many(pairs) if pairs else []


async def unmask_many(
    backend: CryptoBackend,
    items: Sequence[tuple[int, Sequence[int]]],
    table: Mapping[int, str],
) -> list[str | None]:
    """Batch ``unmask``: ``None`` where the slot is no card of this game."""
    return [table.get(x) for x in await unmask_points(backend, items)]


@dataclass
class DeckTranscript:
    """Everything published for one deck: the input and each seat's pass outputs.

    The initial shuffle of a deck has ``epoch`` 0, every seat in order and the deck's consecutive
    slots; a re-shuffle has its epoch ``r ≥ 1``, its ``slots`` (ascending) and the ``seats`` that
    took part (in pass order).
    """

    name: str
    first_slot: int
    initial: list[int]
    pass1: list[list[int]]
    pass2: list[list[int]]
    commitments: list[list[str]]
    epoch: int = 0
    slots: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    # A re-shuffle of never-revealed cards: position → the old epoch of its slot, and pass 0.
    hidden: dict[int, int] = field(default_factory=dict)
    pass0: list[list[int]] = field(default_factory=list)

    def hidden_slots(self) -> dict[int, tuple[int, int]]:
        """Hidden positions with their slot and old epoch (the input of ``pass_zero``)."""
        numbers = self.slot_numbers()
        return {j: (numbers[j], old) for j, old in self.hidden.items()}

    def pass1_input(self) -> list[int]:
        """What pass 1 starts from: pass 0's result when there is one."""
        if self.hidden:
            return self.pass0[-1]
        return self.initial

    @property
    def final(self) -> list[int]:
        """The shuffled, slot-keyed deck."""
        return self.pass2[-1]

    def slot_numbers(self) -> list[int]:
        """Global slot of each position."""
        return _slot_numbers(self.first_slot, len(self.initial), self.slots or None)

    def seat_numbers(self, seats: int) -> list[int]:
        """The seats that shuffle, in pass order (every seat of the table by default)."""
        return list(self.seats) if self.seats else list(range(seats))

    def complete(self, seats: int) -> bool:
        """True once every taking-part seat has posted both passes."""
        return len(self.pass2) == len(self.seat_numbers(seats))


async def _no_pause() -> None:
    """No pause (outside a page)."""


async def audit_deck(
    backend: CryptoBackend,
    room: str,
    game: str,
    transcript: DeckTranscript,
    seeds: Sequence[ShuffleSeed],
    pause: Callable[[], Awaitable[None]] = _no_pause,
) -> None:
    """Redo every seat's passes from its published seed; raise ``DeckError`` naming the first cheat.

    ``seeds`` are those of the transcript's seats, in pass order. Each seat is checked against its
    own input, so an honest seat that processed a forged deck is never blamed for it. A transcript
    left unfinished (a re-shuffle abandoned when a seat left) is checked as far as it goes.
    ``pause`` is awaited between the pieces of work (a page ends its browser task there when it
    has run long).
    """
    size = len(transcript.initial)
    epoch = transcript.epoch
    slots = transcript.slot_numbers()
    seats = transcript.seat_numbers(len(seeds))
    what = f"deck {transcript.name!r}" + (f" (re-shuffle {epoch})" if epoch else "")
    current = transcript.initial
    hidden = transcript.hidden_slots()
    if hidden:
        for i, (seat, seed) in enumerate(zip(seats, seeds, strict=True)):
            if i >= len(transcript.pass0):
                return
            await pause()
            expected = await pass_zero(backend, seed, transcript.name, current, hidden, epoch)
            if expected != transcript.pass0[i]:
                raise DeckError(f"pass 0 of {what} does not match its seed", seat)
            current = transcript.pass0[i]
    for i, (seat, seed) in enumerate(zip(seats, seeds, strict=True)):
        if i >= len(transcript.pass1):
            return
        await pause()
        expected = await pass_one(backend, seed, transcript.name, current, epoch)
        if expected != transcript.pass1[i]:
            raise DeckError(f"pass 1 of {what} does not match its seed", seat)
        current = transcript.pass1[i]
    for i, (seat, seed) in enumerate(zip(seats, seeds, strict=True)):
        if i >= len(transcript.pass2):
            return
        await pause()
        expected = await pass_two(
            backend,
            seed,
            transcript.name,
            transcript.first_slot,
            current,
            slots=slots,
            epoch=epoch,
            deck_power=2 if hidden else 1,
        )
        if expected != transcript.pass2[i]:
            raise DeckError(f"pass 2 of {what} does not match its seed", seat)
        await pause()
        commitments = slot_commitments(
            room, game, seat, seed, transcript.first_slot, size, slots=slots, epoch=epoch
        )
        if commitments != transcript.commitments[i]:
            raise DeckError(f"slot-key commitments of {what} are wrong", seat)
        current = transcript.pass2[i]
