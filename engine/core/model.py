"""The game model every game implements.

A game's **state is public**: every peer holds the same state and applies the same ordered log of
actions to it, so every peer computes the same state hash. A card that not everybody may see is
held in the state as a *slot* (an integer: its position in the shuffled hidden deck, see
``engine.fairness``); its identity enters the state only when the table reveals it publicly. What a
seat privately knows (the identities of the slots in its own hand, its own sealed choices) lives
outside the state, in that seat's ``Knowledge``; ``legal_actions`` and ``view`` take it as input.

The game tells the table what it waits for with ``Rules.decision``:

- ``MOVE``: one seat must choose among ``legal_actions``;
- ``SIMULTANEOUS``: every seat in ``seats`` must act, in any order (secret choices are sent as
  opaque commitments; their openings come later as ordinary moves);
- ``CHANCE``: the table supplies a uniform integer in ``range(chance_range)`` from joint randomness;
- ``REVEAL``: the table publicly reveals the identities of ``slots`` (deck keys, checked);
- ``RESHUFFLE``: the cards now in ``slots`` of hidden deck ``deck`` (revealed earlier or never
  seen: hands taken back, the undrawn rest) go back face down in a fresh secret order among the same
  slot numbers (a discard pile turned into the deck, a new round's deck); a never-seen card is not
  shown on the way. The table answers with
  ``{"type": "reshuffled", "slots": [...]}`` (the same slots, ascending). From then on the game
  must treat those slots as unknown: drop their identities from the state, and let an identity
  enter the state again only by a later REVEAL or opening. A slot dealt to a hand after the
  reshuffle is delivered privately again (list it in ``visible_slots`` as for a first deal). The
  slots must all belong to ``deck``; the table refuses to go on (halts) otherwise.
  Several RESHUFFLE decisions may follow one another at one node (each one is its own round);
- ``RACE``: real time. Every seat in ``seats`` may act, in any order and as often as the rules
  allow; each action is made on the state its author saw, and the host's sequencer orders actions
  that cross. An action made on a state that has since moved on is refused (it never enters the
  log, so a card played with it stays in hand). When no action has come for the node's countdown
  (``config["timers"][phase]`` seconds, else the table timer), the table applies
  ``{"type": "settle"}``; a RACE with no seats settles at once;
- ``TERMINAL``: the game is over.

Actions are JSON-able dicts, always with a ``"type"`` key. Five types are reserved and produced by
the table, never by a player: ``{"type": "chance", "value": int}``,
``{"type": "reveal", "cards": {slot: card_id}}`` (slot keys as strings in JSON),
``{"type": "reshuffled", "slots": [slot, ...]}``, ``{"type": "settle"}``; a game's own moves carry
``"seat"``. A move may show cards from the mover's own hand face up with ``"show": [slot, ...]``:
the table checks the slot keys and hands the engine ``"open": [{"slot": s, "card": card_id}, ...]``
in place of ``"show"`` (no commitment is involved). Fields a
table must verify before handing a move to the engine: ``"commit"`` (list of hex digests, opaque
to the engine) and ``"open"`` (list of ``{"index": i, "slot": s, "card": card_id}`` already
checked against the commitment and the deck keys). ``apply`` is pure: it returns a new state and
never mutates its input.
"""

from __future__ import annotations

import hashlib
import json
import json.encoder
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

Action = dict[str, Any]
JSON = Any


class Kind(StrEnum):
    """What the game waits for next."""

    MOVE = "move"
    SIMULTANEOUS = "simultaneous"
    CHANCE = "chance"
    REVEAL = "reveal"
    RESHUFFLE = "reshuffle"
    RACE = "race"
    TERMINAL = "terminal"


@dataclass(frozen=True)
class Decision:
    """The node the game is at: who or what must act next."""

    kind: Kind
    seats: tuple[int, ...] = ()
    phase: str = ""
    chance_range: int = 0
    slots: tuple[int, ...] = ()
    deck: str = ""


@dataclass
class Knowledge:
    """What one seat privately knows: identities of hidden slots it may see, and its own secrets."""

    seat: int | None
    cards: dict[int, str] = field(default_factory=dict)
    secrets: dict[str, JSON] = field(default_factory=dict)


class IllegalAction(ValueError):
    """An action the game's rules do not allow in this state; the state is left untouched."""


class EngineError(RuntimeError):
    """The rules themselves failed on a move they should have taken or refused: a fault of the
    engine, never of the move's author. ``position`` names where: the game, the phase it waited
    at, the hash of the state and the action."""

    def __init__(self, message: str, position: dict[str, Any]) -> None:
        super().__init__(f"{message} (в позиции {position})")
        self.position = position


S = TypeVar("S")


class Rules(ABC, Generic[S]):
    """A game's rules: pure functions over an immutable, serialisable state."""

    game_id: str = ""

    @abstractmethod
    def new_game(self, config: Mapping[str, JSON]) -> S:
        """The state at the start of a game (seats, mode, deck sizes...)."""

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        """Card ids of each deck whose cards go to hidden hands, before the shuffle.

        Slots are numbered globally in this order: the first deck's positions are slots
        ``0..n0-1``, the next deck's follow, and so on; a slot is a position in the shuffled deck.
        Games without hidden cards return ``{}``.
        """
        return {}

    def visible_slots(self, state: S, seat: int) -> frozenset[int]:
        """Hidden slots whose identity ``seat`` may know now (its hand, its sealed cards...).

        When a slot appears here that the seat has not seen yet, the table delivers it privately
        (deal or pass); revealed slots are public and need not be listed.
        """
        return frozenset()

    @abstractmethod
    def decision(self, state: S) -> Decision:
        """What the game waits for in ``state``."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int, knowledge: Knowledge) -> list[Action]:
        """Every move ``seat`` may make now, given what it privately knows (may be empty)."""

    def legal_choices(self, state: S, seat: int, knowledge: Knowledge) -> Sequence[Action]:
        """``legal_actions`` as a sequence, the same actions in the same order; a game may build
        each only when it is read (for a bot that picks one of many, or a peer that asks again
        after every message while its person decides)."""
        return self.legal_actions(state, seat, knowledge)

    @abstractmethod
    def apply(self, state: S, action: Action) -> S:
        """The state after ``action``; raises ``IllegalAction`` without changing anything."""

    @abstractmethod
    def view(self, state: S, knowledge: Knowledge) -> JSON:
        """A JSON view holding only what that seat (``None``: a spectator) may know."""

    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """Canonical JSON form of the state (no floats, no sets)."""

    def state_hash(self, state: S) -> str:
        """SHA-256 of the canonical JSON form: equal on every peer that applied the same log.

        A table hashes the whole state once per entry, so the float walk of ``canonical_json``
        (a third of the time) is left out here: a state holds only what the rules made of
        checked messages (every message's canonical form refuses floats) and the engine's own
        values, and the engine tests' per-step digests hash every state of 300 games per game
        with the check on."""
        return hashlib.sha256(canonical_dump(self.to_json(state))).hexdigest()


def canonical_json(value: JSON) -> bytes:
    """Canonical JSON bytes: sorted keys, no spaces, UTF-8, floats refused."""
    _refuse_floats(value)
    return canonical_dump(value)


def compact_encoder() -> Callable[[Any], str]:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, the same
    text, with the C encoder that ``json`` builds afresh for every value built once."""
    plain = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain.encode
    encode = make(
        None, plain.default, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
    return lambda value: "".join(encode(value, 0))


compact_text = compact_encoder()
"""Sorted keys, no spaces, not ASCII-escaped: the text of ``canonical_dump``."""


def canonical_dump(value: JSON) -> bytes:
    """``canonical_json`` without its walk for floats: only for a value already known to hold
    none (a state the rules made, a message that has passed its checks)."""
    return compact_text(value).encode()


def _refuse_floats(value: JSON) -> None:
    if isinstance(value, float):
        raise TypeError("canonical JSON holds no floats")
    if isinstance(value, dict):
        for item in value.values():
            _refuse_floats(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _refuse_floats(item)
