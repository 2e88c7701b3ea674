"""Every field of a peer's fair-play table, and the roster line and pending move it holds.

``TableFields`` is the dataclass; ``TableState`` (``table_state``) adds what follows from the
fields, and the mixins in ``table_*`` the checks of each kind of message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.model import Action, Rules
from engine.fairness import sharing
from engine.fairness.backends.base import CryptoBackend
from engine.fairness.deck import DeckLayout, DeckTranscript, ShuffleSeed
from engine.protocol.envelope import Entry


@dataclass(frozen=True)
class Member:
    """One roster line: a peer, its seat (``None``: spectator) and its public keys."""

    peer: str
    seat: int | None
    sign: bytes
    dh: bytes

    def to_json(self) -> dict[str, Any]:
        """Roster JSON."""
        return {"peer": self.peer, "seat": self.seat, "sign": self.sign.hex(), "dh": self.dh.hex()}

    @classmethod
    def from_json(cls, data: Any) -> Member:
        """Parse a roster line."""
        seat = data["seat"]
        if seat is not None and not isinstance(seat, int):
            raise ValueError("seat must be an int or null")
        return cls(str(data["peer"]), seat, bytes.fromhex(data["sign"]), bytes.fromhex(data["dh"]))


@dataclass(frozen=True)
class Awaiting:
    """A move in the log that waits for its author's ``cardkeys``."""

    seat: int
    action: Action
    commits: list[str]
    slots: list[int]
    seq: int
    # Made on an earlier state at a real-time node: if the game refuses it once its cards are
    # shown, it is void (a late play), not its author's fault.
    stale: bool = False


@dataclass
class TableFields:
    """Deterministic table state; one per peer (the fields only)."""

    """Deterministic table state; one per peer (the fields, and what follows from them)."""

    room: str
    game: str
    rules: Rules[Any]
    backend: CryptoBackend
    roster: list[Member]
    log: list[Entry] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    # Where each entry hash stands in the log, and the messages whose author signature this
    # peer has already checked (a post seen before its entry: the entry need not check it again).
    positions: dict[str, int] = field(default_factory=dict)
    verified: set[str] = field(default_factory=set)
    stage: str = "new"
    host: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    timer: int = 30
    state: Any = None
    round: int = 0
    round_start: int = 0
    # Real time: for each entry, the hash of the entry that began the round in force after it
    # (the state a move made there was made on); where the current RACE node began; the highest
    # rank logged for each base in this race (``race_order``); the stale moves the game refused
    # once shown, as (seat, seq of the move, reason); and the seat and round of the last move.
    bases: list[str] = field(default_factory=list)
    race_start: int = 0
    race_ranks: dict[str, str] = field(default_factory=dict)
    voided: list[tuple[int, int, str]] = field(default_factory=list)
    last_move: tuple[int, int] = (-1, -1)
    node: tuple[str, str] = ("", "")
    node_waiting: frozenset[int] = frozenset()
    chance_event: int = 0
    tips: dict[int, bytes] = field(default_factory=dict)
    chain_last: dict[int, bytes] = field(default_factory=dict)
    layout: DeckLayout = field(default_factory=lambda: DeckLayout(()))
    cards: dict[int, str] = field(default_factory=dict)
    decks: dict[str, DeckTranscript] = field(default_factory=dict)
    # Verifiable sharing of each seat's escrow secret: its Feldman commitments, the boxed share of
    # every other seat, shares made public on a holder's request, requests still unanswered, and
    # the shares posted to recover a departed seat ({departed: {holder: share}}).
    sharings: dict[int, list[sharing.Point]] = field(default_factory=dict)
    share_boxes: dict[int, dict[int, str]] = field(default_factory=dict)
    public_shares: dict[tuple[int, int], int] = field(default_factory=dict)
    share_requests: list[tuple[int, int]] = field(default_factory=list)
    recovery: dict[int, dict[int, int]] = field(default_factory=dict)
    out: dict[int, str] = field(default_factory=dict)
    recovered: dict[int, ShuffleSeed] = field(default_factory=dict)
    recovered_chains: dict[int, bytes] = field(default_factory=dict)
    blame: dict[int, str] = field(default_factory=dict)
    given: set[tuple[int, int, int]] = field(default_factory=set)
    boxes: list[tuple[int, int, str]] = field(default_factory=list)
    revealed: dict[int, str] = field(default_factory=dict)
    reveal_keys: dict[int, dict[int, int]] = field(default_factory=dict)
    preimages: dict[int, bytes] = field(default_factory=dict)
    commits: dict[int, list[tuple[str, int, str]]] = field(default_factory=dict)
    # Where each seat's latest batch of commitments starts in ``commits[seat]``: openings name a
    # commitment by its index within that batch, the index the game itself uses.
    batches: dict[int, int] = field(default_factory=dict)
    paused: bool = False
    hurried: set[tuple[int, int]] = field(default_factory=set)
    audits: dict[int, ShuffleSeed] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    # Re-shuffles: every one started (epoch r is index r-1; abandoned ones stay for the audit),
    # the one running now, each slot's current epoch (absent: 0, the initial shuffle), the card
    # point under each revealed slot, and the reveals a re-shuffle superseded (slot, epoch, x).
    # Logged moves whose cards their authors have still to show (commit, sequence, open); the
    # cards, once shown, are kept in ``points`` and re-derived by the audit.
    awaiting: dict[int, Awaiting] = field(default_factory=dict)
    # Every opening the log accepted, as (seat, index among all its commitments, nonce, item):
    # the audit checks each against its commitment again.
    opened_items: list[tuple[int, int, str, Any]] = field(default_factory=list)
    deposed: list[str] = field(default_factory=list)
    reshuffles: list[DeckTranscript] = field(default_factory=list)
    reshuffling: int | None = None
    epochs: dict[int, int] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    past_reveals: list[tuple[int, int, int]] = field(default_factory=list)
    _digest: tuple[tuple[Any, ...], str] | None = None
    _owed: tuple[Any, tuple[int, ...], dict[tuple[int, int], list[int]]] | None = None
