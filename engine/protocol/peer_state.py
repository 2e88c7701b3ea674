"""A peer's own state: who it is, what it has seen and posted, its secrets' handles.

``PeerState`` holds every field of a ``Peer``; the mixins ``peer_watch`` (the host's word
checked), ``peer_duties`` (what this seat posts), ``peer_knowledge`` (what it learns from the log)
and ``peer_moves`` (its game moves) add behaviour, and ``Peer`` (``peer.py``) puts them together.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from engine.core.model import JSON, Action, Knowledge, Rules, canonical_json
from engine.fairness.backends.base import CryptoBackend
from engine.fairness.deck import (
    ShuffleSeed,
)
from engine.protocol.bundle import SecretBundle
from engine.protocol.envelope import (
    Entry,
    Envelope,
    entry_hash,
)
from engine.protocol.errors import ProtocolError
from engine.protocol.players import Player, Waiting
from engine.protocol.proofs import HeldProofs
from engine.protocol.race_order import RaceQueue
from engine.protocol.table import Member, Table
from engine.protocol.transport import Transport
from engine.protocol.watch import PendingPosts, Votes


class PeerState:
    """One participant's state (player or spectator) at a table."""

    def __init__(
        self,
        *,
        peer_id: str,
        roster: list[Member],
        room: str,
        game: str,
        rules: Rules[Any],
        backend: CryptoBackend,
        transport: Transport,
        bundle: SecretBundle,
        player: Player | None = None,
        clock: Callable[[], float] = time.monotonic,
        host_timeout: float = 10.0,
        grace: float = 5.0,
    ) -> None:
        # What this peer was made with, to start over from the log (``_start_over``).
        self._made_with: dict[str, Any] = {
            "peer_id": peer_id,
            "roster": list(roster),
            "room": room,
            "game": game,
            "rules": rules,
            "backend": backend,
            "transport": transport,
            "bundle": bundle,
            "player": player,
            "clock": clock,
            "host_timeout": host_timeout,
            "grace": grace,
        }
        self.id = peer_id
        self._lock = asyncio.Lock()
        self.rules = rules
        self.backend = backend
        self.transport = transport
        self.bundle = bundle
        self.player = player or Waiting()
        self.clock = clock
        self.host_timeout = host_timeout
        self.grace = grace
        self.table = Table(room, game, rules, backend, list(roster))
        member = self.table.member(peer_id)
        self.seat = member.seat if member is not None else None
        sealed = {str(index): choice for index, (_, choice) in bundle.openings.items()}
        self.knowledge = Knowledge(self.seat, {}, {"sealed": sealed})
        # Keys other seats delivered: (slot, epoch) → {giver: key}.
        self.slot_keys: dict[tuple[int, int], dict[int, int]] = {}
        # The givers' signed deliveries behind those keys, to prove a slot that is no card.
        self.delivery_proofs: dict[tuple[int, int], dict[int, tuple[str, str]]] = {}
        # The epoch of each slot in ``knowledge.cards`` when it was learnt.
        self.card_epochs: dict[int, int] = {}
        self.errors: list[ProtocolError] = []
        self.halted: str | None = None
        self.outbox: dict[str, Envelope] = {}
        self.posted: set[tuple[Any, ...]] = set()
        self.since: dict[tuple[Any, ...], float] = {}
        self.buffer: dict[int, tuple[Entry, str]] = {}
        # When each peer last asked for the log, and up to where it was sent (replies bounded).
        self._synced: dict[str, tuple[float, int]] = {}
        self.remote_checkpoints: dict[int, tuple[str, str, str]] = {}
        self.last_progress = clock()
        self.boxes_read = 0
        # Checked shares of other seats' escrow secrets (dealer → share), and the dealers whose
        # share this seat has looked at.
        self.shares: dict[int, int] = {}
        self._share_checked: set[int] = set()
        # Clicks not yet posted, each with the table round it was made in (``peer_moves``); the
        # rounds this seat's own moves began; real-time plays re-posted after a late refusal.
        self.submitted: list[tuple[Action, int]] = []
        self.own_rounds: set[int] = set()
        self.reposts: dict[bytes, int] = {}
        self._voided_seen = 0
        self.on_bundle_change: Callable[[SecretBundle], None] | None = None
        # Called once an entry is applied, before this peer makes its own follow-up moves, so a
        # page can show the entry at once.
        self.on_entry: Callable[[], None] | None = None
        # Called with its author's peer id when a real-time play is seen, before the host has
        # sequenced it (the play's post is checked, nothing in the table changes): a page can show
        # the play in flight at once.
        self.on_play: Callable[[str], None] | None = None
        self._checkpointed: tuple[str, int] = ("", -1)
        self._timed_out: set[tuple[Any, ...]] = set()
        self.catching_up: str | None = None
        # Since when this peer has followed the table live (its own timer starts are real).
        self.live_since = clock() - 1e-3
        # Timers of obligations that began in an entry this peer did not get from the host as
        # it was sequenced (passed on by another peer): their start is not known here.
        self.unseen_starts: set[tuple[Any, ...]] = set()
        # When this peer accepted each entry, by number (a takeover may undo only recent ones).
        self.accepted_at: dict[int, float] = {}
        # Hashes of entries a takeover undid, and of entries that follow them (``_start_over``).
        self.abandoned: set[str] = set()
        # Real time: (round, when its state began on this peer's clock), and this peer's own
        # actions the host refused (an action on a spell that had already moved on).
        self.race_since: tuple[int, float] = (-1, 0.0)
        self.refused: list[str] = []
        # Posts seen but not logged yet, and votes to depose the host (``watch``); as host, the
        # real-time plays held for the room's window (``race_order``).
        self.pending = PendingPosts()
        # Checked preimages and keys of the seats, until the log carries them (``proofs``).
        self.proofs = HeldProofs()
        self.race_queue = RaceQueue()
        self.votes = Votes()
        transport.on_receive(self.receive)

    @property
    def room(self) -> str:
        """Room id."""
        return self.table.room

    @property
    def game(self) -> str:
        """Game id."""
        return self.table.game

    @property
    def host(self) -> str:
        """Current sequencer."""
        return self.table.host or self.table.roster[0].peer

    def _start_over(self, via: str, undone: int) -> None:
        """Forget the table and every obligation met on it, keeping the secrets (the bundle),
        the errors seen and the page's callbacks, and ask ``via`` for the whole log again: as a
        reloaded page does, without the reload. The last ``undone`` entries, and any that
        follow them, are another branch: never taken in again."""
        kept = (self._lock, self.errors, self.on_entry, self.on_bundle_change, self.on_play)
        abandoned = self.abandoned | set(self.table.hashes[len(self.table.log) - undone :])
        PeerState.__init__(self, **self._made_with)
        self._lock, self.errors, self.on_entry, self.on_bundle_change, self.on_play = kept
        self.abandoned = abandoned
        self._ask_for_log(via)

    def _ask_for_log(self, via: str) -> None:
        """Catch up from ``via``: ask it for the log from this peer's end (``Peer.rejoin``)."""
        self.catching_up = via
        self.transport.send(via, wire_text({"k": "sync", "from": len(self.table.log)}))

    @property
    def is_host(self) -> bool:
        """True when this peer sequences the log."""
        return self.host == self.id

    def view(self) -> JSON:
        """What this peer may see of the game."""
        if self.table.state is None:
            return None
        return self.rules.view(self.table.state, self.knowledge)

    def _note(self, error: ProtocolError) -> None:
        self.errors.append(error)

    def _once(self, key: tuple[Any, ...]) -> bool:
        """True the first time ``key`` is seen (an obligation not yet posted)."""
        if key in self.posted:
            return False
        self.posted.add(key)
        return True

    def _seed(self) -> ShuffleSeed:
        """This seat's shuffle seed (a hook for tests of a dishonest peer)."""
        return self.bundle.shuffle_seed(self.room, self.game)

    def _escrow_secret(self) -> int:
        """This seat's escrow secret, the root of its seeds (a hook for dishonest-peer tests)."""
        return self.bundle.escrow_secret(self.room, self.game)

    def _keys_hex(self, slot: int) -> dict[str, str]:
        """Every seat's key for ``slot`` that this seat holds (its own and those delivered)."""
        assert self.seat is not None
        table = self.table
        keys = dict(self.slot_keys.get((slot, table.epoch(slot)), {}))
        keys[self.seat] = table.slot_key_of(self._seed(), slot)
        return {str(s): key_hex(k) for s, k in keys.items() if s not in table.recovered}

    async def receive(self, sender: str, raw: str) -> None:
        """Handle one wire message (``Peer``)."""
        raise NotImplementedError

    async def _post(self, body: dict[str, Any]) -> None:
        """Sign ``body`` and post it (``Peer``)."""
        raise NotImplementedError

    async def _sequence(self, envelope: Any, sender: str) -> None:
        """Host: the next log entry (``Peer``)."""
        raise NotImplementedError

    async def _receive_entry(self, entry: Any, sender: str) -> None:
        """Check and apply a log entry, or keep it for later (``Peer``)."""
        raise NotImplementedError

    def _seen_play(self, envelope: Any) -> None:
        """Tell ``on_play`` about a checked real-time play (see there)."""
        body = envelope.get("body") if isinstance(envelope, dict) else None
        if self.on_play is None or not isinstance(body, dict) or body.get("t") != "action":
            return
        if self.table.racing_node() and self.catching_up is None:
            self.on_play(str(envelope.get("from")))


def wire_text(message: dict[str, Any]) -> str:
    return canonical_json(message).decode()


def hex_list(values: list[int]) -> list[str]:
    return [format(v, "064x") for v in values]


def key_hex(key: int) -> str:
    return format(key, "064x")


def safe_hash(entry: Any) -> str:
    try:
        return entry_hash(entry)
    except (KeyError, TypeError, ValueError):
        return ""
