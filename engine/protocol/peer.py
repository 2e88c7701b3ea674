"""The peer driver: runs a ``Rules`` game over the table protocol (sans-IO, async crypto).

A peer receives opaque strings from its transport (``receive``), is told the time (``tick``), and
sends strings back. The room's first roster member is the host: it sequences every message into
the hash-chained log and broadcasts the entries; every peer (host included) validates each entry
with ``Table.accept``. A peer fulfils its own obligations as soon as the log makes them due: chain
tip, shuffle passes, private deliveries (end-to-end encrypted boxes carried by the log), escrow
openings, chance preimages, reveal keys, re-shuffle passes, moves (from its ``Player``,
``submit``, or the game's automatic choice when its timer ends or the host hurries it), and the
final audit. Keys always belong to a slot's current epoch (``Table.epoch``); when a slot is
re-shuffled the peer forgets what it knew of it.

Wire messages (canonical JSON text): ``post`` (author → host), ``entry`` (host → all),
``checkpoint`` (peer → all, at every stage or round change), ``sync``/``entries`` (catch-up for a
rejoining peer or a new host).
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from engine.core.auto import AutoRules
from engine.core.model import JSON, Action, Decision, Knowledge, Rules, canonical_json
from engine.fairness import commit as commitments
from engine.fairness import sharing
from engine.fairness.backends.base import CryptoBackend, CryptoError
from engine.fairness.deck import (
    ShuffleSeed,
    check_key,
    pass_one,
    pass_two,
    pass_zero,
    slot_commitments,
    unmask_many,
)
from engine.protocol.boxes import open_box, seal_box
from engine.protocol.bundle import SecretBundle
from engine.protocol.envelope import (
    Entry,
    Envelope,
    entry_hash,
    entry_signature_ok,
    envelope_shape_error,
    envelope_signature_ok,
    make_envelope,
    message_id,
    sign_entry,
)
from engine.protocol.errors import ProtocolError, StaleAction
from engine.protocol.players import Player, Waiting
from engine.protocol.table import CHAIN_LENGTH, DELIVERY_TAG, Member, Table
from engine.protocol.transport import Transport
from engine.protocol.watch import PendingPosts, Votes, votes_needed
from engine.protocol.wire import parse_frame

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
MAX_BUFFERED = 256
SYNC_INTERVAL = 5.0


def _one_at_a_time(method: F) -> F:
    """Run a peer's entry points strictly one after another.

    Crypto is asynchronous (WebCrypto really suspends), so without this a timer tick, a click and
    an incoming message could interleave inside one step: a host could then number two entries
    alike, which every other peer rightly reports as equivocation.
    """

    @functools.wraps(method)
    async def serialized(self: Peer, *args: Any, **kwargs: Any) -> Any:
        async with self._lock:
            return await method(self, *args, **kwargs)

    return cast(F, serialized)


class Peer:
    """One participant (player or spectator) at a table."""

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
        self.submitted: Action | None = None
        self.on_bundle_change: Callable[[SecretBundle], None] | None = None
        # Called once an entry is applied, before this peer makes its own follow-up moves, so a
        # page can show the entry at once.
        self.on_entry: Callable[[], None] | None = None
        self._checkpointed: tuple[str, int] = ("", -1)
        self._timed_out: set[tuple[Any, ...]] = set()
        self.catching_up: str | None = None
        # Real time: when the current RACE node began (this peer's clock), and this peer's own
        # actions the host refused (an action on a spell that had already moved on).
        self.race_since: tuple[int, float] = (-1, 0.0)
        self.refused: list[str] = []
        # Posts seen but not logged yet, and votes to depose the host (``watch``).
        self.pending = PendingPosts()
        self.votes = Votes()
        transport.on_receive(self.receive)

    # ----- identity helpers -----------------------------------------------------------------

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

    # ----- host powers and UI ---------------------------------------------------------------

    @_one_at_a_time
    async def start(self, config: dict[str, Any], timer: int = 30) -> None:
        """Host only: the first log entry, with the roster and the game's settings."""
        body = {
            "t": "start",
            "rules": self.rules.game_id,
            "config": config,
            "timer": timer,
            "roster": [m.to_json() for m in self.table.roster],
        }
        await self._post(body)

    @_one_at_a_time
    async def host_command(self, kind: str, seat: int | None = None) -> None:
        """Host only: ``pause``, ``resume``, ``hurry``, ``kick``."""
        body: dict[str, Any] = {"t": kind}
        if seat is not None:
            body["seat"] = seat
        await self._post(body)

    @_one_at_a_time
    async def submit(self, action: Action) -> None:
        """The local human's move (one of ``legal_actions``)."""
        self.submitted = action
        await self._act()

    @_one_at_a_time
    async def leave(self) -> None:
        """Leave the game for good (the escrow lets the others carry on)."""
        await self._post({"t": "leave"})

    @_one_at_a_time
    async def rejoin(self, via: str) -> None:
        """Ask ``via`` for the whole log; entries replay through ``receive``; act once caught up."""
        self.catching_up = via
        self.transport.send(via, _wire({"k": "sync", "from": len(self.table.log)}))

    # ----- receiving ------------------------------------------------------------------------

    @_one_at_a_time
    async def receive(self, sender: str, raw: str) -> None:
        """Handle one wire message from ``sender``; bad input is recorded, never raised.

        A sender outside the roster is refused before its frame is even parsed; every other
        failure, whatever it is, becomes a refusal naming the sender: no message stops a peer."""
        if self.table.member(sender) is None:
            self._note(ProtocolError(sender, "message from a peer that is not at the table"))
            return
        try:
            await self._receive(sender, raw)
        except ProtocolError as exc:
            self._note(exc)
        except Exception as exc:  # the guard of last resort: note, never die
            self._note(ProtocolError(sender, f"message broke a check ({type(exc).__name__})"))
        if self.halted is None:
            try:
                await self._act()
            except ProtocolError as exc:
                self._note(exc)
            except Exception as exc:  # its own step failed: keep going
                self._note(ProtocolError(self.id, f"own step failed ({type(exc).__name__}: {exc})"))

    async def _receive(self, sender: str, raw: str) -> None:
        message = parse_frame(sender, raw)
        kind = message.get("k")
        if kind == "post":
            envelope = message.get("m")
            ident = _safe_id(envelope)
            if ident in self.table.seen:
                return  # a copy forwarded by another peer of a post the log carries already
            if not self.is_host:
                # Posts go to every peer: hold it, so a move the host does not sequence is seen.
                self.pending.add(envelope, self.clock())
                return
            try:
                await self._sequence(envelope, sender)
            except ProtocolError as exc:
                # Tell the author, so a refused move is not left waiting (its card stays in hand).
                # Every peer holds the post too: all are told, and each checks the host's word.
                self.transport.broadcast(_wire({"k": "refused", "id": ident, "why": str(exc)}))
                if not isinstance(exc, StaleAction):  # normal in real time, not an error
                    raise
        elif kind == "refused":
            refused_id = message.get("id")
            if sender != self.host or not isinstance(refused_id, str):
                raise ProtocolError(sender, "a refusal that does not come from the host")
            if refused_id in self.outbox:
                self.outbox.pop(refused_id)
                self.refused.append(str(message.get("why", ""))[:200])
            held = self.pending.posts.get(refused_id)
            if held is not None:
                # The host says this post cannot go in: check its word before letting it go.
                if await self._valid_now(held.envelope):
                    await self._vote("refused a valid move")
                    raise ProtocolError(sender, "refused a move that is valid")
                self.pending.logged(refused_id)
        elif kind == "entry":
            await self._receive_entry(message.get("e"), sender)
        elif kind == "entries":
            entries = message.get("e")
            if not isinstance(entries, list):
                raise ProtocolError(sender, "entries must be a list")
            for entry in entries:
                await self._receive_entry(entry, sender)
        elif kind == "sync":
            start = message.get("from")
            if not isinstance(start, int) or isinstance(start, bool) or start < 0:
                raise ProtocolError(sender, "bad sync request")
            log = self.table.log
            now = self.clock()
            last = self._synced.get(sender)
            if last is not None and now - last[0] < SYNC_INTERVAL and start < last[1]:
                # It was sent all of this a moment ago: send only what it lacks since then.
                start = last[1]
            self._synced[sender] = (now, len(log))
            for i in range(start, len(log), 32):
                self.transport.send(sender, _wire({"k": "entries", "e": log[i : i + 32]}))
            self.transport.send(sender, _wire({"k": "synced", "n": len(log)}))
        elif kind == "synced":
            if isinstance(message.get("n"), int):
                self.catching_up = None
        elif kind == "checkpoint":
            await self._receive_checkpoint(message, sender)
        elif kind == "vote":
            await self._receive_vote(message.get("m"), sender)
        else:
            raise ProtocolError(sender, f"unknown wire message {kind!r}")

    async def _receive_entry(self, entry: Any, sender: str) -> None:
        if self.halted is not None:
            return
        if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int):
            raise ProtocolError(sender, "log entry is malformed")
        seq = entry["seq"]
        if seq < len(self.table.log):
            if _safe_hash(entry) != self.table.hashes[seq]:
                await self._check_equivocation(seq, entry, sender)
            return
        if seq > len(self.table.log):
            # Early entries wait, each with who sent it (a bad one then names its sender, not
            # whoever filled the gap); the host's copy wins, and the buffer stays small.
            near = seq - len(self.table.log) <= MAX_BUFFERED
            if not near:
                raise ProtocolError(sender, f"entry {seq} is far ahead of the log")
            room = len(self.buffer) < MAX_BUFFERED or seq in self.buffer
            if near and room and (seq not in self.buffer or sender == self.host):
                self.buffer[seq] = (entry, sender)
            if self._once(("gap", sender, len(self.table.log))):
                # Entries are missing (a host that fell silent mid-broadcast): ask the sender.
                self.transport.send(sender, _wire({"k": "sync", "from": len(self.table.log)}))
            return
        log = self.table.log
        if log and entry.get("prev") != self.table.head and entry.get("host") == log[-1]["host"]:
            # The host signed an entry that follows a different previous entry than the one it
            # sent us: with a valid signature that is proof of equivocation.
            await self._check_equivocation(seq, entry, sender)
            return
        await self._accept(entry, sender)
        while len(self.table.log) in self.buffer:
            early, early_sender = self.buffer.pop(len(self.table.log))
            await self._accept(early, early_sender)
        for stale in [s for s in self.buffer if s < len(self.table.log)]:
            del self.buffer[stale]

    async def _accept(self, entry: Entry, sender: str) -> None:
        sequencer = entry.get("host")
        if not self.is_host and self.catching_up is None and sequencer == self.host:
            await self._check_timeout(entry)
        try:
            await self.table.accept(entry, sender)
        except ProtocolError as exc:
            if exc.peer != sender and isinstance(sequencer, str):
                # The host sequenced what it should have refused: blame the host.
                raise ProtocolError(sequencer, f"sequenced bad input: {exc}") from exc
            raise
        await self._after_entry(entry)

    async def _sequence(self, envelope: Any, sender: str) -> None:
        """Host: turn a message into the next log entry and broadcast it."""
        table = self.table
        entry: Entry = {"seq": len(table.log), "prev": table.head, "msg": envelope, "host": self.id}
        try:
            entry["hsig"] = await sign_entry(
                self.backend, self.bundle.sign, entry["seq"], entry_hash(entry)
            )
        except (TypeError, ValueError) as exc:
            raise ProtocolError(sender, "message is not canonical JSON") from exc
        await table.accept(entry, sender)
        self.transport.broadcast(_wire({"k": "entry", "e": entry}))
        await self._after_entry(entry)

    async def _after_entry(self, entry: Entry) -> None:
        self.last_progress = self.clock()
        self.race_since = (len(self.table.log), self.last_progress)
        self._forget_reshuffled()
        self._remember_batch(entry)
        self.outbox.pop(message_id(entry["msg"]), None)
        self.pending.logged(message_id(entry["msg"]))
        self._start_timers()
        body = entry["msg"]["body"]
        if body["t"] == "takeover":
            self.pending.restart(self.clock())  # the new host gets a fresh hold period
        if body["t"] == "takeover" and not self.is_host:
            for envelope in self.outbox.values():
                self.transport.send(self.host, _wire({"k": "post", "m": envelope}))
        elif body["t"] == "takeover" and entry["host"] == self.id:
            # The new host sequences what the old one left waiting (a censored move first).
            for envelope in [*self.pending.all(), *self.outbox.values()]:
                self.pending.logged(message_id(envelope))
                try:
                    await self._sequence(envelope, envelope["from"])
                except ProtocolError as exc:
                    self._note(exc)
        await self._read_shares()
        await self._read_boxes()
        if self.on_entry is not None and self.catching_up is None:
            self.on_entry()
        seq = entry["seq"]
        remote = self.remote_checkpoints.pop(seq, None)
        if (
            remote is not None
            and remote[0] != self.table.hashes[seq]
            and remote[2] == entry["host"]
        ):
            self._equivocation(remote[2])
        marker = (self.table.stage, self.table.round)
        if marker != self._checkpointed:
            self._checkpointed = marker
            self.transport.broadcast(
                _wire(
                    {
                        "k": "checkpoint",
                        "seq": seq,
                        "hash": self.table.hashes[seq],
                        "hsig": entry["hsig"],
                        "host": entry["host"],
                    }
                )
            )

    # ----- equivocation ---------------------------------------------------------------------

    async def _receive_checkpoint(self, message: dict[str, Any], sender: str) -> None:
        seq, digest, hsig, host = (message.get(k) for k in ("seq", "hash", "hsig", "host"))
        if not (isinstance(seq, int) and isinstance(digest, str) and isinstance(hsig, str)):
            raise ProtocolError(sender, "checkpoint is malformed")
        if seq < len(self.table.hashes) and self.table.hashes[seq] == digest:
            return  # it agrees with an entry we checked already: nothing to verify
        member = self.table.member(host) if isinstance(host, str) else None
        if member is None or not await entry_signature_ok(
            self.backend, member.sign, seq, digest, hsig
        ):
            raise ProtocolError(sender, "checkpoint carries no valid host signature")
        assert isinstance(host, str)
        if seq < len(self.table.hashes):
            if self.table.hashes[seq] != digest and self.table.log[seq]["host"] == host:
                self._equivocation(host)
        elif len(self.remote_checkpoints) < 4096:
            self.remote_checkpoints[seq] = (digest, hsig, host)

    async def _check_equivocation(self, seq: int, entry: Entry, sender: str) -> None:
        host = entry.get("host")
        member = self.table.member(host) if isinstance(host, str) else None
        if member is not None and await entry_signature_ok(
            self.backend, member.sign, entry.get("seq"), _safe_hash(entry), entry.get("hsig")
        ):
            if self.table.log[min(seq, len(self.table.log) - 1)]["host"] == host:
                assert isinstance(host, str)
                self._equivocation(host)
            return
        raise ProtocolError(sender, f"conflicting entry {seq} without a valid host signature")

    # ----- watching the host ------------------------------------------------------------------

    async def _watch_host(self, now: float) -> None:
        """Forward held posts to the host; vote against a host that is silent while something
        waits on it, or that leaves a valid post unsequenced; take over with a majority."""
        if self.is_host:
            return
        table = self.table
        for envelope in self.pending.to_forward(now):
            self.transport.send(self.host, _wire({"k": "post", "m": envelope}))
        silent = now - self.last_progress > self.host_timeout
        # Someone waits on the host: a post, or a real-time node only it can settle.
        expected = bool(self.outbox or self.pending.posts) or table.racing() is not None
        if expected and not table.paused and silent:
            await self._vote("fell silent")
        elif not table.paused:
            for held in self.pending.posts.values():
                if now - held.since > self.host_timeout and await self._valid_now(held.envelope):
                    await self._vote(f"left a move of {held.envelope['from']} unsequenced")
                    break
        await self._take_over()

    async def _valid_now(self, envelope: Envelope) -> bool:
        """Whether the host could sequence ``envelope`` as the next entry (a dry run)."""
        try:
            await self.table.check_message(envelope, envelope["from"])
            await self.table._plan(envelope, self.host)
        except ProtocolError:
            return False
        except Exception:  # a post that breaks a check is not valid either
            return False
        return True

    async def _vote(self, why: str) -> None:
        """Vote once, at this point of the log, to depose the host; tell every peer."""
        table = self.table
        if self.seat is None or self.seat in table.out or not self._once(("vote", len(table.log))):
            return
        self._note(ProtocolError(self.host, f"host {why}; voting to replace it"))
        body = {"t": "depose", "host": self.host}
        vote = await make_envelope(
            self.backend, self.bundle.sign, self.room, self.game, self.id, table.head, body
        )
        self.votes.add(vote)
        self.transport.broadcast(_wire({"k": "vote", "m": vote}))

    async def _receive_vote(self, vote: Any, sender: str) -> None:
        table = self.table
        if envelope_shape_error(vote) is not None:
            raise ProtocolError(sender, "vote is malformed")
        body = vote["body"]
        if body.get("t") != "depose" or vote["from"] not in table.voters():
            raise ProtocolError(sender, "vote from a peer that cannot vote")
        if body.get("host") != self.host:
            return  # about another host: nothing to count
        if vote["prev"] != table.head:
            # The old host fell silent mid-broadcast: whoever is behind catches up from the
            # other (entries are host-signed, so any peer may pass them on), then votes again.
            if vote["prev"] in table.hashes:
                start = table.hashes.index(vote["prev"]) + 1
                if self._once(("vote-entries", sender, start)):
                    entries = table.log[start : start + 32]
                    self.transport.send(sender, _wire({"k": "entries", "e": entries}))
            elif self._once(("vote-sync", sender, vote["prev"])):
                self.transport.send(sender, _wire({"k": "sync", "from": len(table.log)}))
            return
        member = table.member(vote["from"])
        assert member is not None
        if not await envelope_signature_ok(self.backend, member.sign, vote):
            raise ProtocolError(sender, "vote carries a bad signature")
        self.votes.add(vote)
        await self._take_over()

    async def _take_over(self) -> None:
        """The successor sequences ``takeover`` once a majority has voted at this point."""
        table = self.table
        if table.successor() != self.id or self.is_host:
            return
        ballots = self.votes.at(self.host, table.head)
        if len(ballots) < votes_needed(len(table.voters())):
            return
        if not self._once(("takeover", len(table.log))):
            return
        envelope = await make_envelope(
            self.backend,
            self.bundle.sign,
            self.room,
            self.game,
            self.id,
            table.head,
            {"t": "takeover", "votes": ballots},
        )
        await self._sequence(envelope, self.id)

    async def _check_timeout(self, entry: Entry) -> None:
        """Refuse a host ``timeout`` that comes before the seat's time was up, or for a seat whose
        valid post this peer has held (and forwarded) for a while: that is censorship."""
        body = entry["msg"]["body"] if isinstance(entry.get("msg"), dict) else {}
        seat = body.get("seat") if isinstance(body, dict) else None
        table = self.table
        if body.get("t") != "timeout" or not isinstance(seat, int) or not 0 <= seat < table.seats:
            return
        now = self.clock()
        host = self.host
        for envelope in self.pending.held_from(table.seat_member(seat).peer, now):
            if await self._valid_now(envelope):
                await self._vote(f"timed out seat {seat} although its move was sent")
                raise ProtocolError(host, f"censored seat {seat}: timed it out over its move")
        owed = table.obligations().get(seat)
        if owed is not None and not table.paused:
            started = self.since.get(self._timer_key(seat, owed), now)
            if now - started < table.timer_for(owed):
                raise ProtocolError(host, f"timed out seat {seat} before its time was up")

    def _timer_key(self, seat: int, owed: str) -> tuple[Any, ...]:
        table = self.table
        return (seat, owed, table.stage, table.round, table.chance_event, len(table.given))

    def _start_timers(self) -> None:
        """Each obligation's timer starts when this peer accepts the entry that makes it due."""
        now = self.clock()
        for seat, owed in self.table.obligations().items():
            self.since.setdefault(self._timer_key(seat, owed), now)

    def _equivocation(self, host: str) -> None:
        self.halted = f"host {host} sent different log entries to different peers"
        self._note(ProtocolError(host, "equivocation: two signed log entries with one number"))

    # ----- acting ---------------------------------------------------------------------------

    async def _post(self, body: dict[str, Any]) -> None:
        envelope = await make_envelope(
            self.backend, self.bundle.sign, self.room, self.game, self.id, self.table.head, body
        )
        if self.is_host:
            await self._sequence(envelope, self.id)
        else:
            # To every peer, not only the host: a post the host drops is seen by the others.
            self.outbox[message_id(envelope)] = envelope
            self.pending.add(envelope, self.clock(), forwarded=True)
            self.transport.broadcast(_wire({"k": "post", "m": envelope}))

    async def _act(self) -> None:
        """Post whatever this peer owes now, until nothing more is due."""
        for _ in range(64):
            if self.halted is not None or self.table.stage in ("new", "done", "halted"):
                return
            if self.catching_up is not None:
                return
            if not await self._act_once():
                return

    def _once(self, key: tuple[Any, ...]) -> bool:
        """True the first time ``key`` is seen (an obligation not yet posted)."""
        if key in self.posted:
            return False
        self.posted.add(key)
        return True

    async def _act_once(self) -> bool:
        table = self.table
        racing = table.racing()
        if racing is not None:
            return await self._race(racing)
        if self.is_host:
            for absent, owes in table.obligations().items():
                if (
                    absent in table.out
                    and owes == "action"
                    and self._once(("auto", table.round, absent))
                ):
                    await self._post({"t": "auto", "seat": absent})
                    return True
        if self.seat is None or self.seat in table.out:
            return False
        seat = self.seat
        if table.stage == "play":
            for (giver, receiver), slots in sorted(table.pending_deliveries().items()):
                epochs = tuple(table.epoch(s) for s in slots)
                if giver == seat and self._once(("deliver", receiver, tuple(slots), epochs)):
                    await self._post(await self._delivery(receiver, slots))
                    return True
        due = table.obligations().get(seat)
        if due is None:
            return False
        owed = due
        key: tuple[Any, ...] = (owed, table.stage, table.round, table.chance_event)
        if owed == "cardkeys":
            key = (owed, table.awaiting[seat].seq)
        if owed == "action":
            return await self._move_once(key)
        if owed.startswith("deliver") or not self._once(key):
            return False
        body = await self._obligation_body(owed)
        await self._post(body)
        return True

    async def _race(self, decision: Decision) -> bool:
        """Real time: act at most once per state; waiting is fine (the host settles)."""
        seat = self.seat
        if seat is None or seat in self.table.out or seat not in decision.seats:
            return False
        return await self._move_once(("race", self.table.round))

    async def _move_once(self, key: tuple[Any, ...]) -> bool:
        """Choose this seat's move and post it, once for ``key`` (False: nothing to post yet)."""
        if key in self.posted:
            return False
        action = await self._choose()
        if action is None or not self._once(key):
            return False
        await self._post({"t": "action", "action": action})
        return True

    def race_left(self) -> float | None:
        """Seconds left of the current RACE countdown on this peer's clock (None: not racing)."""
        decision = self.table.racing()
        if decision is None:
            return None
        node = len(self.table.log)
        if self.race_since[0] != node or self.table.paused:
            self.race_since = (node, self.clock())
        limit = self.table.timer_for("action")
        return max(0.0, limit - (self.clock() - self.race_since[1]))

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        table = self.table
        seat = self.seat
        assert seat is not None
        seed = self._seed()
        chain = self.bundle.chain(self.room, self.game, CHAIN_LENGTH)
        if owed == "chain":
            body: dict[str, Any] = {"t": "chain", "tip": chain.tip().hex()}
            if table.threshold:
                body["shares"] = await self._deal_shares()
            return body
        if owed == "pass1":
            decks = {}
            for name, transcript in table.decks.items():
                source = transcript.pass1[-1] if transcript.pass1 else transcript.initial
                decks[name] = _hex_list(await pass_one(self.backend, seed, name, source))
            return {"t": "shuffle1", "decks": decks}
        if owed == "pass2":
            decks, commits = {}, {}
            for name, transcript in table.decks.items():
                source = transcript.pass2[-1] if transcript.pass2 else transcript.pass1[-1]
                out = await pass_two(self.backend, seed, name, transcript.first_slot, source)
                decks[name] = _hex_list(out)
                commits[name] = slot_commitments(
                    self.room, self.game, seat, seed, transcript.first_slot, len(source)
                )
            return {"t": "shuffle2", "decks": decks, "commits": commits}
        if owed.startswith("escrow"):
            departed = int(owed.split()[1])
            share = self.shares.get(departed, table.public_shares.get((departed, seat)))
            if share is None:
                raise ProtocolError(self.id, f"holds no checked share of seat {departed}")
            return {"t": "escrow", "seat": departed, "share": _key_hex(share)}
        if owed.startswith("share"):
            holder = int(owed.split()[1])
            return {"t": "share", "to": holder, "share": _key_hex(self._dealt_share(holder))}
        if owed == "preimage":
            event = table.chance_event + 1
            return {"t": "preimage", "event": event, "value": chain.preimage(event).hex()}
        if owed == "keys":
            slots = self.rules.decision(table.state).slots
            keys = {str(s): _key_hex(table.slot_key_of(seed, s)) for s in slots}
            return {"t": "keys", "keys": keys}
        if owed.startswith("reshuffle"):
            return await self._reshuffle_body(owed, seed)
        if owed == "cardkeys":
            shown = {str(slot): self._keys_hex(slot) for slot in table.awaiting[seat].slots}
            return {"t": "cardkeys", "keys": shown}
        if owed == "audit":
            return {"t": "audit", "secret": _key_hex(self._escrow_secret())}
        raise ProtocolError(self.id, f"unknown obligation {owed}")

    async def _reshuffle_body(self, owed: str, seed: ShuffleSeed) -> dict[str, Any]:
        """This seat's pass of the running re-shuffle (``reshuffle1 r`` or ``reshuffle2 r``)."""
        table = self.table
        assert self.seat is not None and table.reshuffling is not None
        transcript = table.reshuffles[table.reshuffling]
        epoch, slots = transcript.epoch, transcript.slots
        if owed == f"reshuffle0 {epoch}":
            source = transcript.pass0[-1] if transcript.pass0 else transcript.initial
            hidden = transcript.hidden_slots()
            xs = await pass_zero(self.backend, seed, transcript.name, source, hidden, epoch)
            return {"t": "reshuffle0", "r": epoch, "xs": _hex_list(xs)}
        if owed == f"reshuffle1 {epoch}":
            source = transcript.pass1[-1] if transcript.pass1 else transcript.pass1_input()
            xs = await pass_one(self.backend, seed, transcript.name, source, epoch)
            return {"t": "reshuffle1", "r": epoch, "xs": _hex_list(xs)}
        source = transcript.pass2[-1] if transcript.pass2 else transcript.pass1[-1]
        power = 2 if transcript.hidden else 1
        xs = await pass_two(
            self.backend,
            seed,
            transcript.name,
            slots[0],
            source,
            slots=slots,
            epoch=epoch,
            deck_power=power,
        )
        commits = slot_commitments(
            self.room, self.game, self.seat, seed, slots[0], len(slots), slots=slots, epoch=epoch
        )
        return {"t": "reshuffle2", "r": epoch, "xs": _hex_list(xs), "commits": commits}

    def _seed(self) -> ShuffleSeed:
        """This seat's shuffle seed (a hook for tests of a dishonest peer)."""
        return self.bundle.shuffle_seed(self.room, self.game)

    def _escrow_secret(self) -> int:
        """This seat's escrow secret, the root of its seeds (a hook for dishonest-peer tests)."""
        return self.bundle.escrow_secret(self.room, self.game)

    async def _deal_shares(self) -> dict[str, Any]:
        """Feldman commitments and one boxed share for each other seat (set-up, with the tip)."""
        table = self.table
        assert self.seat is not None
        others = [s for s in range(table.seats) if s != self.seat]
        points, _ = self._sharing([])
        boxes = {}
        for other in others:
            value = self._share_to_send(other, self._dealt_share(other))
            boxes[str(other)] = await seal_box(
                self.backend,
                self.bundle.dh,
                table.seat_member(other).dh,
                self.room,
                self.game,
                f"share {self.seat}->{other}",
                value.to_bytes(32, "big"),
            )
        return {"commitments": sharing.encode_commitments(points), "boxes": boxes}

    def _sharing(self, holders: list[int]) -> tuple[list[sharing.Point], dict[int, int]]:
        """This seat's sharing: coefficients derive from its master secret, so a reloaded page
        deals the same polynomial and can still answer a complaint."""
        t = self.table.threshold
        coefficients = self.bundle.sharing_coefficients(self.room, self.game, t)
        xs = [sharing.share_x(h) for h in holders]
        return sharing.deal(self._escrow_secret(), t, xs, coefficients)

    def _dealt_share(self, holder: int) -> int:
        """The share this seat deals to ``holder``."""
        return self._sharing([holder])[1][sharing.share_x(holder)]

    def _share_to_send(self, holder: int, share: int) -> int:
        """Hook for tests of a dishonest dealer; an honest one sends the real share."""
        return share

    async def _read_shares(self) -> None:
        """Open and check the shares other seats dealt to this seat; ask for any that fail."""
        table = self.table
        seat = self.seat
        if seat is None:
            return
        for dealer, boxes in table.share_boxes.items():
            if dealer == seat or dealer in self.shares or dealer in self._share_checked:
                continue
            self._share_checked.add(dealer)
            public = table.public_shares.get((dealer, seat))
            value: int | None = public
            if value is None:
                try:
                    raw = await open_box(
                        self.backend,
                        self.bundle.dh,
                        table.seat_member(dealer).dh,
                        self.room,
                        self.game,
                        f"share {dealer}->{seat}",
                        boxes[seat],
                    )
                    value = int.from_bytes(raw, "big") if len(raw) == 32 else None
                except (CryptoError, KeyError):
                    value = None
            if value is not None and table.share_ok(dealer, seat, value):
                self.shares[dealer] = value
                continue
            dealer_peer = table.seat_member(dealer).peer
            self._note(ProtocolError(dealer_peer, "dealt a share that does not match its sharing"))
            self._share_checked.discard(dealer)  # look again once the dealer answers
            if self._once(("share-complaint", dealer)):
                await self._post({"t": "complaint", "dealer": dealer})

    async def _delivery(self, receiver: int, slots: list[int]) -> dict[str, Any]:
        """Own keys for ``slots`` at their current epochs, signed, boxed for ``receiver`` only."""
        seat = self.seat
        seed = self._seed()
        table = self.table
        keys = {str(s): _key_hex(self._key_to_send(s, table.slot_key_of(seed, s))) for s in slots}
        message: dict[str, Any] = {
            "room": self.room,
            "game": self.game,
            "from": seat,
            "to": receiver,
            "keys": keys,
        }
        epochs = {str(s): table.epoch(s) for s in slots if table.epoch(s)}
        if epochs:
            message["epochs"] = epochs
        inner = canonical_json(message).decode()
        signature = await self.backend.sign(self.bundle.sign, DELIVERY_TAG + inner.encode())
        payload = canonical_json({"plain": inner, "sig": signature.hex()})
        box = await seal_box(
            self.backend,
            self.bundle.dh,
            self.table.seat_member(receiver).dh,
            self.room,
            self.game,
            f"deliver {seat}->{receiver}",
            payload,
        )
        return {"t": "deliver", "to": receiver, "slots": slots, "box": box}

    def _key_to_send(self, slot: int, key: int) -> int:
        """Hook for tests of a dishonest peer; an honest peer sends its real key."""
        return key

    async def _choose(self) -> Action | None:
        table = self.table
        seat = self.seat
        assert seat is not None
        state = table.state
        auto = (seat, table.round) in table.hurried or ("action", table.round) in self._timed_out
        action: Action | None
        if auto and isinstance(self.rules, AutoRules):
            action = self.rules.auto_action(state, seat, self.knowledge)
        else:
            legal = self.rules.legal_actions(state, seat, self.knowledge)
            action = self.submitted
            self.submitted = None
            if action not in legal:  # a stale click from an earlier decision is dropped
                action = None
            if action is None:
                action = await self.player.choose(self.rules, state, seat, self.knowledge, legal)
        if action is None:
            return None
        return self._complete(dict(action))

    def _complete(self, action: Action) -> Action:
        """Turn a sealed choice into commitments and index-only openings into full ones.

        A game offers a secret choice as ``{"seal": [choice, ...]}`` or
        ``{"secret": {"items": [choice, ...]}}``; only the digests leave this peer. An opening
        names a commitment by its index within the seat's latest batch (in ``"open"`` entries, or
        at the top level for a card that leaves face down); this peer adds the nonce and the
        committed item. Keys that show a card go out only once the move is in the log
        (``cardkeys``), so a move that is refused shows nothing.
        """
        table = self.table
        seat = self.seat
        assert seat is not None
        if "seal" in action or "secret" in action:
            sealed = action.pop("seal", None)
            secret = action.pop("secret", None)
            choices = list(sealed if sealed is not None else (secret or {}).get("items", []))
            phase = self.rules.decision(table.state).phase
            context = commitments.CommitContext(self.room, self.game, table.round, phase, seat)
            base = len(table.commits.get(seat, []))
            digests = []
            for i, choice in enumerate(choices):
                digest, opening = commitments.commit(context, choice)
                self.bundle.openings[base + i] = (opening.nonce.hex(), choice)
                digests.append(digest)
            action["commit"] = digests
            if self.on_bundle_change is not None:
                self.on_bundle_change(self.bundle)
        if isinstance(action.get("open"), list):
            action["open"] = [self._opening(item["index"]) for item in action["open"]]
        if "index" in action:
            opened = self._opening(action["index"])
            action.update(nonce=opened["nonce"], item=opened["item"])
        return action

    def _opening(self, index: int) -> dict[str, Any]:
        """Everything the table needs to check this seat's commitment ``index`` of its batch."""
        assert self.seat is not None
        nonce, choice = self.bundle.openings[self.table.batches.get(self.seat, 0) + index]
        return {"index": index, "nonce": nonce, "item": choice}

    def _keys_hex(self, slot: int) -> dict[str, str]:
        """Every seat's key for ``slot`` that this seat holds (its own and those delivered)."""
        assert self.seat is not None
        table = self.table
        keys = dict(self.slot_keys.get((slot, table.epoch(slot)), {}))
        keys[self.seat] = table.slot_key_of(self._seed(), slot)
        return {str(s): _key_hex(k) for s, k in keys.items() if s not in table.recovered}

    def _remember_batch(self, entry: Entry) -> None:
        """Own sealed choices, rebuilt from the bundle whenever the log shows our commitments
        (live or while replaying after a reload): the game reads them from ``knowledge``."""
        body = entry["msg"]["body"]
        action = body.get("action") if body.get("t") == "action" else None
        if self.seat is None or not isinstance(action, dict) or action.get("seat") != self.seat:
            return
        commits = action.get("commit")
        if not isinstance(commits, list) or not commits:
            return
        made = self.table.commits.get(self.seat, [])
        base = self.table.batches.get(self.seat, 0)
        if base + len(commits) > len(made) or any(
            base + i not in self.bundle.openings for i in range(len(commits))
        ):
            return
        phase = made[base][2]
        items = [self.bundle.openings[base + i][1] for i in range(len(commits))]
        self.knowledge.secrets[phase] = {"items": items}
        for i, choice in enumerate(items):
            self.knowledge.secrets["sealed"][str(base + i)] = choice

    # ----- private knowledge ----------------------------------------------------------------

    async def _read_boxes(self) -> None:
        """Open deliveries addressed to this seat, check them, and learn the cards."""
        table = self.table
        if self.seat is None:
            return
        seat = self.seat
        while self.boxes_read < len(table.boxes):
            giver, receiver, box = table.boxes[self.boxes_read]
            self.boxes_read += 1
            if receiver != seat:
                continue
            try:
                payload = json.loads(
                    await open_box(
                        self.backend,
                        self.bundle.dh,
                        table.seat_member(giver).dh,
                        self.room,
                        self.game,
                        f"deliver {giver}->{seat}",
                        box,
                    )
                )
                inner = json.loads(payload["plain"])
                keys = {int(s): int(k, 16) for s, k in inner["keys"].items()}
                epochs = {int(s): int(e) for s, e in inner.get("epochs", {}).items()}
            except (CryptoError, ValueError, KeyError, TypeError, AttributeError):
                self._note(ProtocolError(table.seat_member(giver).peer, "undecipherable delivery"))
                continue
            bad = [
                s
                for s, k in keys.items()
                if not self._delivered_key_ok(giver, s, epochs.get(s, 0), k)
            ]
            if bad:
                giver_peer = table.seat_member(giver).peer
                self._note(ProtocolError(giver_peer, f"delivered a wrong key for slot {bad[0]}"))
                if self._once(("complaint", giver, bad[0], epochs.get(bad[0], 0))):
                    await self._post(
                        {"t": "complaint", "plain": payload["plain"], "sig": payload["sig"]}
                    )
                continue
            for slot, key in keys.items():
                self.slot_keys.setdefault((slot, epochs.get(slot, 0)), {})[giver] = key
                proof = (payload["plain"], payload["sig"])
                self.delivery_proofs.setdefault((slot, epochs.get(slot, 0)), {})[giver] = proof
        await self._learn_cards()

    def _delivered_key_ok(self, giver: int, slot: int, epoch: int, key: int) -> bool:
        """True when ``key`` is what ``giver`` committed to for ``slot`` at ``epoch``."""
        try:
            digest = self.table.slot_commitment(giver, slot, epoch)
        except (KeyError, ValueError, IndexError):
            return False
        return epoch >= 0 and check_key(self.room, self.game, giver, slot, key, digest)

    def _forget_reshuffled(self) -> None:
        """Drop what this seat knew of slots re-shuffled since it learnt them."""
        table = self.table
        for slot in [
            s for s in self.knowledge.cards if table.epoch(s) != self.card_epochs.get(s, 0)
        ]:
            del self.knowledge.cards[slot]
            self.card_epochs.pop(slot, None)
        stale = [k for k in self.slot_keys if k[1] != table.epoch(k[0])]
        for key in stale:
            del self.slot_keys[key]
            self.delivery_proofs.pop(key, None)

    async def _learn_cards(self) -> None:
        table = self.table
        seat = self.seat
        if seat is None or table.stage not in ("play", "audit"):
            return
        seed = self._seed()
        todo = []
        for slot in sorted(self.rules.visible_slots(table.state, seat)):
            if slot in self.knowledge.cards:
                continue
            epoch = table.epoch(slot)
            if slot in table.revealed:
                self.knowledge.cards[slot] = table.revealed[slot]
                self.card_epochs[slot] = epoch
                continue
            keys = []
            owners = table.slot_seats(slot)
            delivered = self.slot_keys.get((slot, epoch), {})
            for owner in owners:
                if owner == seat:
                    keys.append(seed.slot_key(slot, epoch))
                elif owner in table.recovered:
                    keys.append(table.recovered[owner].slot_key(slot, epoch))
                elif owner in delivered:
                    keys.append(delivered[owner])
            if len(keys) == len(owners):
                todo.append((slot, keys))
        if not todo:
            return
        cards = await unmask_many(
            self.backend, [(table.final_x(s), k) for s, k in todo], table.cards
        )
        for (slot, _), card in zip(todo, cards, strict=True):
            if card is None:
                self._note(ProtocolError(self.id, f"slot {slot} unmasks to no card"))
                if self._once(("deck-complaint", slot, table.epoch(slot))):
                    await self._post(self._deck_complaint(slot))
            else:
                self.knowledge.cards[slot] = card
                self.card_epochs[slot] = table.epoch(slot)

    def _deck_complaint(self, slot: int) -> dict[str, Any]:
        """Proof that ``slot`` unmasks to no card: this seat's key and the givers' signed keys."""
        epoch = self.table.epoch(slot)
        proofs = [
            {"plain": plain, "sig": sig}
            for plain, sig in self.delivery_proofs.get((slot, epoch), {}).values()
        ]
        key = _key_hex(self.table.slot_key_of(self._seed(), slot))
        return {"t": "complaint", "slot": slot, "key": key, "proofs": proofs}

    # ----- time -----------------------------------------------------------------------------

    @_one_at_a_time
    async def tick(self) -> None:
        """Timers: own automatic choice, the host's timeouts, and host failover."""
        now = self.clock()
        table = self.table
        if self.halted is not None or table.stage in ("new", "done", "halted"):
            return
        left = self.race_left()
        if self.is_host and left is not None and left <= 0 and self._once(("settle", table.round)):
            try:
                await self._post({"t": "settle"})
            except ProtocolError as exc:
                self._note(exc)
        obligations = table.obligations()
        for seat, owed in obligations.items():
            key = self._timer_key(seat, owed)
            self.since.setdefault(key, now)
            waited = now - self.since[key]
            if table.paused:
                self.since[key] = now
                continue
            limit = table.timer_for(owed)
            if seat == self.seat and owed == "action" and waited >= limit:
                self._timed_out.add(("action", table.round))
            due = self.is_host and waited >= limit + self.grace and seat not in table.out
            if due and self._once(("timeout", *key)):
                try:
                    await self._post({"t": "timeout", "seat": seat})
                except ProtocolError as exc:
                    self._note(exc)
        await self._watch_host(now)
        try:
            await self._act()
        except ProtocolError as exc:
            self._note(exc)


def _safe_id(envelope: Any) -> str:
    try:
        return message_id(envelope) if isinstance(envelope, dict) else ""
    except (TypeError, ValueError):
        return ""


def _wire(message: dict[str, Any]) -> str:
    return canonical_json(message).decode()


def _hex_list(values: list[int]) -> list[str]:
    return [format(v, "064x") for v in values]


def _key_hex(key: int) -> str:
    return format(key, "064x")


def _safe_hash(entry: Any) -> str:
    try:
        return entry_hash(entry)
    except (KeyError, TypeError, ValueError):
        return ""
