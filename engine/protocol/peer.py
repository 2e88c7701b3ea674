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

Wire messages (canonical JSON text): ``post`` (author → every peer), ``proof`` (a seat's preimage
or reveal keys, → every peer; the host logs an event's in one entry), ``entry`` (host → all),
``checkpoint`` (each peer but the entry's host → each peer but that host, at every stage or round
change), ``sync``/``entries`` (catch-up for a rejoining peer or a new host).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from engine.core.model import Action
from engine.protocol.envelope import (
    Entry,
    Envelope,
    entry_hash,
    make_envelope,
    message_id,
    safe_message_id,
    sign_entry,
)
from engine.protocol.errors import ProtocolError
from engine.protocol.pace import yield_if_long, yield_to_page
from engine.protocol.peer_duties import Duties
from engine.protocol.peer_knowledge import Knowing
from engine.protocol.peer_moves import Moves
from engine.protocol.peer_race import RaceHost
from engine.protocol.peer_state import PeerState, safe_hash, wire_text
from engine.protocol.peer_watch import HostWatch
from engine.protocol.proofs import PROOF_KINDS
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


class Peer(HostWatch, Duties, Knowing, Moves, RaceHost, PeerState):
    """One participant (player or spectator) at a table."""

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
        """The local human's move (one of ``legal_actions``); in real time clicks queue up and
        go out one after another (``peer_moves``)."""
        self.submitted.append((action, self.table.round))
        await self._act()

    @_one_at_a_time
    async def leave(self) -> None:
        """Leave the game for good (the escrow lets the others carry on)."""
        await self._post({"t": "leave"})

    @_one_at_a_time
    async def rejoin(self, via: str) -> None:
        """Ask ``via`` for the whole log; entries replay through ``receive``; act once caught up."""
        self._ask_for_log(via)

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
        # The page draws the entry before this peer's own step runs, unless the task is short.
        await yield_if_long()
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
            ident = safe_message_id(envelope)
            if ident in self.table.seen:
                return  # a copy forwarded by another peer of a post the log carries already
            if not self.is_host:
                # Posts go to every peer: hold it, so a move the host does not sequence is seen;
                # its signature is checked now, while the host sequences it.
                if self.pending.add(envelope, self.clock(), ident=ident) is not None:
                    assert isinstance(envelope, dict)  # pending holds well-formed posts only
                    await self._check_early(envelope, sender, ident)
                    self._seen_play(envelope)
                return
            try:
                if await self._hold_race_play(envelope, sender):
                    return  # sequenced by rank once the room's window is over
            except ProtocolError as exc:
                self.transport.broadcast(wire_text({"k": "refused", "id": ident, "why": str(exc)}))
                raise
            # A refusal is told to the author, so a refused move is not left waiting (its card
            # stays in hand); every peer holds the post too: all are told, and each checks it.
            await self._sequence_or_refuse(envelope, sender)
        elif kind == "refused":
            refused_id = message.get("id")
            if sender != self.host or not isinstance(refused_id, str):
                raise ProtocolError(sender, "a refusal that does not come from the host")
            if refused_id in self.outbox:
                mine = self.outbox.pop(refused_id)
                await self._own_refusal(mine, str(message.get("why", ""))[:200])
            held = self.pending.posts.get(refused_id)
            if held is not None:
                # The host says this post cannot go in: check its word before letting it go.
                if await self._valid_now(held.envelope):
                    await self._vote("refused a valid move")
                    raise ProtocolError(sender, "refused a move that is valid")
                self.pending.logged(refused_id)
        elif kind == "proof":
            await self._receive_proof(message, sender)
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
            if sender == self.host:
                # The host has reloaded and lost the proofs it held: they go to it again.
                self.proofs.resend()
            last = self._synced.get(sender)
            if last is not None and now - last[0] < SYNC_INTERVAL and start < last[1]:
                # It was sent all of this a moment ago: send only what it lacks since then.
                start = last[1]
            self._synced[sender] = (now, len(log))
            for i in range(start, len(log), 32):
                self.transport.send(sender, wire_text({"k": "entries", "e": log[i : i + 32]}))
            self.transport.send(sender, wire_text({"k": "synced", "n": len(log)}))
        elif kind == "synced":
            if isinstance(message.get("n"), int):
                self.catching_up = None
                self.live_since = self.clock()
        elif kind == "checkpoint":
            await self._receive_checkpoint(message, sender)
        elif kind == "vote":
            await self._receive_vote(message.get("m"), sender)
        else:
            raise ProtocolError(sender, f"unknown wire message {kind!r}")

    async def _check_early(self, envelope: Envelope, sender: str, ident: str) -> None:
        """Check a post's author signature as it arrives (its entry then skips the check);
        ``ident``: its ``message_id``."""
        author = self.table.member(envelope["from"])
        if author is None:
            return
        try:
            await self.table.check_signature(envelope, author, sender, ident)
        except ProtocolError:
            self.pending.logged(ident)  # a forgery: do not hold it
            raise

    async def _receive_entry(self, entry: Any, sender: str) -> None:
        if self.halted is not None:
            return
        if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int):
            raise ProtocolError(sender, "log entry is malformed")
        if self._abandoned(entry):
            return
        seq = entry["seq"]
        if seq < len(self.table.log):
            differs = safe_hash(entry) != self.table.hashes[seq]
            if differs and not await self._yield_to_takeover(entry, sender):
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
                self.transport.send(sender, wire_text({"k": "sync", "from": len(self.table.log)}))
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
        # Only an entry the host itself sent, as it went, can be judged by this peer's clock;
        # one another peer passes on (the host died mid-broadcast) may be older than it looks.
        live = self.catching_up is None and sender == sequencer == self.host
        if live and not self.is_host:
            await self._check_timeout(entry)
        try:
            await self.table.accept(entry, sender)
        except ProtocolError as exc:
            if exc.peer != sender and isinstance(sequencer, str):
                # The host sequenced what it should have refused: blame the host.
                raise ProtocolError(sequencer, f"sequenced bad input: {exc}") from exc
            raise
        await self._after_entry(entry, live=live)

    async def _sequence(self, envelope: Any, sender: str) -> None:
        """Host: turn a message into the next log entry and broadcast it."""
        table = self.table
        entry: Entry = {"seq": len(table.log), "prev": table.head, "msg": envelope, "host": self.id}
        try:
            digest = entry_hash(entry)
        except (TypeError, ValueError) as exc:
            raise ProtocolError(sender, "message is not canonical JSON") from exc
        signing = sign_entry(
            self.backend, self.bundle.sign, self.room, self.game, entry["seq"], digest
        )
        entry["hsig"], ident = await table.check_message_beside(signing, envelope, sender)
        if isinstance(ident, ProtocolError):
            raise ident
        wire = wire_text({"k": "entry", "e": entry})
        await table.accept(
            entry, sender, checked_as=ident, on_checked=lambda: self.transport.broadcast(wire)
        )
        await self._after_entry(entry)

    async def _after_entry(self, entry: Entry, *, live: bool = True) -> None:
        """Bookkeeping once ``entry`` is applied; ``live``: it came from its host as it went."""
        self.last_progress = self.clock()
        self.accepted_at[entry["seq"]] = self.last_progress
        table = self.table
        if self.race_since[0] != table.round:  # the countdown restarts when the state moves
            self.race_since = (table.round, self.last_progress)
        if table.last_move == (self.seat, table.round):
            self.own_rounds.add(table.round)
        for seat, _, why in table.voided[self._voided_seen :]:
            if seat == self.seat and self.catching_up is None:
                self.refused.append(why)
        self._voided_seen = len(table.voided)
        self._forget_reshuffled()
        self._prune_proofs()
        self._remember_batch(entry)
        ident = message_id(entry["msg"])
        self.outbox.pop(ident, None)
        self.pending.logged(ident)
        self._start_timers(live=live)
        body = entry["msg"]["body"]
        if body["t"] == "takeover":
            self.pending.restart(self.clock())  # the new host gets a fresh hold period
            self.proofs.restart(self.clock())
        if body["t"] == "takeover" and not self.is_host:
            for envelope in self.outbox.values():
                self.transport.send(self.host, wire_text({"k": "post", "m": envelope}))
            for proof in self.proofs.own():
                self.transport.send(self.host, wire_text(proof))
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
            await yield_to_page()  # the entry's checks in one browser task, its redraw in another
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
            self._send_checkpoint(entry)

    async def _post(self, body: dict[str, Any]) -> None:
        envelope = await make_envelope(
            self.backend, self.bundle.sign, self.room, self.game, self.id, self.table.head, body
        )
        ident = message_id(envelope)
        self.table.note_verified(ident)  # signed here: not checked again
        if self.is_host:
            if await self._hold_race_play(envelope, self.id):
                # Held for the room's window like anyone's play: the others are shown it in
                # flight now (and hold it as a post, so a host that drops its own is seen).
                self.transport.broadcast(wire_text({"k": "post", "m": envelope}))
            else:
                await self._sequence(envelope, self.id)
        else:
            # To every peer, not only the host: a post the host drops is seen by the others.
            self.outbox[ident] = envelope
            self.pending.add(envelope, self.clock(), forwarded=True)
            self.transport.broadcast(wire_text({"k": "post", "m": envelope}))
            self._seen_play(envelope)

    async def _act(self) -> None:
        """Post whatever this peer owes now, until nothing more is due."""
        for _ in range(64):
            if self.halted is not None or self.table.stage in ("new", "done", "halted"):
                return
            if self.catching_up is not None:
                return
            if not await self._act_once():
                return

    async def _act_once(self) -> bool:
        table = self.table
        if await self._pump_race():
            return True
        racing = table.race_open()
        if racing is not None and self.seat not in table.awaiting:
            # A play being shown blocks the game, not the posting of plays (the host holds them).
            posted = await self._race(racing)
            if posted or table.racing() is not None:
                return posted
        if self.is_host:
            if await self._log_proofs():
                return True
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
        if owed in PROOF_KINDS:
            self._give_proof(body)  # no entry of its own: the host logs every seat's at once
        else:
            await self._post(body)
        return True

    @_one_at_a_time
    async def tick(self) -> None:
        """Timers: own automatic choice, the host's timeouts, and host failover."""
        now = self.clock()
        table = self.table
        if self.halted is not None or table.stage in ("new", "done", "halted"):
            return
        left = self.race_left()
        # A play that reached the host before the countdown ran out goes in before the settle.
        holding = self._race_holds_before(self.race_deadline())
        if (
            self.is_host
            and left is not None
            and left <= 0
            and not holding
            and self._once(("settle", table.round))
        ):
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
            due = due and self._held_proof(seat, owed) is None  # its proof waits for the others
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
