"""Checking the host's word: checkpoints and equivocation, held posts and proofs forwarded,
timeouts over held moves and proofs refused, votes to depose a censoring or silent host, and the
takeover."""

from __future__ import annotations

from typing import Any

from engine.protocol.envelope import (
    Entry,
    Envelope,
    envelope_shape_error,
    envelope_signature_ok,
    make_envelope,
)
from engine.protocol.errors import ProtocolError
from engine.protocol.peer_proofs import Proofs
from engine.protocol.peer_state import (
    safe_hash,
    wire_text,
)
from engine.protocol.watch import HOLD_MARGIN, votes_needed

# Entries of undone branches a peer remembers (a host that went on alone sends more).
MAX_ABANDONED = 4096


class HostWatch(Proofs):
    """Checking the host's word."""

    def _send_checkpoint(self, entry: Entry) -> None:
        """Tell the other peers which entry this one holds at ``entry``'s number, with its host's
        signature, so that a host telling peers different things is caught.

        The entry's host neither sends nor is sent one: it signed the entry it sent, so a
        checkpoint from it repeats that entry (on the same ordered link, after it), and one to it
        can show it nothing but its own signature. A host that told two peers different things
        is caught by those two peers' checkpoints to each other, as before; a dishonest host
        could always have kept its own back. Between four peers: 6 messages instead of 12."""
        sequencer = entry["host"]
        if sequencer == self.id:
            return
        seq = entry["seq"]
        wire = wire_text(
            {
                "k": "checkpoint",
                "seq": seq,
                "hash": self.table.hashes[seq],
                "hsig": entry["hsig"],
                "host": sequencer,
            }
        )
        for member in self.table.roster:
            if member.peer not in (self.id, sequencer):
                self.transport.send(member.peer, wire)

    async def _receive_checkpoint(self, message: dict[str, Any], sender: str) -> None:
        seq, digest, hsig, host = (message.get(k) for k in ("seq", "hash", "hsig", "host"))
        if not (isinstance(seq, int) and isinstance(digest, str) and isinstance(hsig, str)):
            raise ProtocolError(sender, "checkpoint is malformed")
        if seq < len(self.table.hashes) and self.table.hashes[seq] == digest:
            return  # it agrees with an entry we checked already: nothing to verify
        member = self.table.member(host) if isinstance(host, str) else None
        if member is None or not await self.table.host_signed(member, seq, digest, hsig):
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
        if member is not None and await self.table.host_signed(
            member, entry.get("seq"), safe_hash(entry), entry.get("hsig")
        ):
            if self.table.log[min(seq, len(self.table.log) - 1)]["host"] == host:
                assert isinstance(host, str)
                self._equivocation(host)
            return
        raise ProtocolError(sender, f"conflicting entry {seq} without a valid host signature")

    async def _yield_to_takeover(self, entry: Entry, sender: str) -> bool:
        """Whether ``entry`` is a takeover, by the successor with a majority's signed votes,
        at a point of the log this peer has gone past on entries of the host it deposes (a host
        that stalled past the vote and sent on as its tab closed, or that was slow but alive):
        the majority's branch is the table's, so this peer starts over from it. Only entries
        accepted within ``takeover_window`` are undone this way: a successor that sat on its
        votes cannot rewind the game further than a silent host could have been voted out."""
        table = self.table
        seq = entry.get("seq")
        msg = entry.get("msg")
        body = msg.get("body") if isinstance(msg, dict) else None
        if not isinstance(body, dict) or body.get("t") != "takeover" or not isinstance(seq, int):
            return False
        if not 0 < seq < len(table.log) or entry.get("prev") != table.hashes[seq - 1]:
            return False
        accepted = self.accepted_at.get(seq)
        if accepted is None or self.clock() - accepted > self._takeover_window():
            return False
        deposed = table.host
        if any(later["host"] != deposed for later in table.log[seq:]):
            return False
        successor = table.member(table.successor())
        if successor is None or entry.get("host") != successor.peer:
            return False
        if not await table.host_signed(successor, seq, safe_hash(entry), entry.get("hsig")):
            return False
        try:
            await table._check_votes(body.get("votes"), deposed, successor.peer, head=entry["prev"])
        except ProtocolError:
            return False
        self._note(ProtocolError(deposed, f"deposed at entry {seq}; starting over from there"))
        self._start_over(sender, undone=len(table.log) - seq)
        return True

    def _abandoned(self, entry: Entry) -> bool:
        """Whether ``entry`` is on a branch a takeover undid (it is, or follows, an entry this
        peer gave up when it started over): it is let go, whoever passes it on."""
        if not self.abandoned:
            return False
        digest, prev = safe_hash(entry), entry.get("prev")
        if digest not in self.abandoned and not (isinstance(prev, str) and prev in self.abandoned):
            return False
        if len(self.abandoned) < MAX_ABANDONED:
            self.abandoned.add(digest)
        return True

    def _takeover_window(self) -> float:
        """The longest a legitimate vote can come after the entry it was cast at: the longest
        timer of the game, then the host's time to time it out and the voters' time to notice."""
        return self.table.longest_timer() + 2 * self.host_timeout

    def _equivocation(self, host: str) -> None:
        self.halted = f"host {host} sent different log entries to different peers"
        self._note(ProtocolError(host, "equivocation: two signed log entries with one number"))

    async def _watch_host(self, now: float) -> None:
        """Forward held posts to the host; vote against a host that is silent while something
        waits on it, or that leaves a valid post unsequenced; take over with a majority."""
        if self.is_host:
            return
        table = self.table
        for envelope in self.pending.to_forward(now):
            self.transport.send(self.host, wire_text({"k": "post", "m": envelope}))
        for proof in self.proofs.to_forward(now):
            self.transport.send(self.host, wire_text(proof))
        silent = now - self.last_progress > self.host_timeout
        # Someone waits on the host: a post, every seat's proof of an event, a real-time node
        # only it can settle, or a timer that ran out without the host's timeout (a host whose
        # tab has closed posts nothing at all).
        owed_proofs = self._owed_proofs()
        expected = bool(self.outbox or self.pending.posts or owed_proofs)
        expected = expected or table.racing() is not None or self._timeout_overdue(now)
        if expected and not table.paused and silent:
            await self._vote("fell silent")
        elif (
            owed_proofs
            and not table.paused
            and all(now - held.since > self.host_timeout for held in owed_proofs.values())
        ):
            await self._vote("left every seat's proofs of an event unlogged")
        elif not table.paused:
            for held in self.pending.posts.values():
                if now - held.since > self.host_timeout and await self._valid_now(held.envelope):
                    await self._vote(f"left a move of {held.envelope['from']} unsequenced")
                    break
        await self._take_over()

    def _timeout_overdue(self, now: float) -> bool:
        """Whether some seat's timer ran out ``host_timeout`` ago and the host has not timed it
        out (counted from when this peer saw the obligation begin)."""
        table = self.table
        for seat, owed in table.obligations().items():
            if self._held_proof(seat, owed) is not None:
                continue  # given: it waits for the other seats' proofs, not for a timeout
            started = self.since.get(self._timer_key(seat, owed))
            if started is not None and now - started > table.timer_for(owed) + self.host_timeout:
                return True
        return False

    async def _valid_now(self, envelope: Envelope) -> bool:
        """Whether the host could sequence ``envelope`` as the next entry (a dry run)."""
        try:
            await self.table.check_message(envelope, envelope["from"])
            await self.table.plan(envelope, self.host)
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
        self.transport.broadcast(wire_text({"k": "vote", "m": vote}))

    async def _receive_vote(self, vote: Any, sender: str) -> None:
        table = self.table
        if envelope_shape_error(vote) is not None:
            raise ProtocolError(sender, "vote is malformed")
        body = vote["body"]
        if body.get("t") != "depose" or vote["from"] not in table.voters():
            raise ProtocolError(sender, "vote from a peer that cannot vote")
        if body.get("host") != self.host:
            return  # about another host: nothing to count
        member = table.member(vote["from"])
        assert member is not None
        if not await envelope_signature_ok(self.backend, member.sign, vote):
            raise ProtocolError(sender, "vote carries a bad signature")
        # Kept whatever head it was cast at: a peer votes once per head, so a vote cast ahead
        # of this peer counts once this peer has caught up to it.
        self.votes.add(vote)
        if vote["prev"] != table.head:
            # The old host fell silent mid-broadcast: whoever is behind catches up from the
            # other (entries are host-signed, so any peer may pass them on), then votes again.
            if table.position(vote["prev"]) >= 0:
                start = table.position(vote["prev"]) + 1
                if self._once(("vote-entries", sender, start)):
                    entries = table.log[start : start + 32]
                    self.transport.send(sender, wire_text({"k": "entries", "e": entries}))
            elif self._once(("vote-sync", sender, vote["prev"])):
                self.transport.send(sender, wire_text({"k": "sync", "from": len(table.log)}))
            return
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
        proof = self._held_proof(seat, owed) if owed is not None else None
        if proof is not None and proof.forwarded is not None and now - proof.since >= HOLD_MARGIN:
            await self._vote(f"timed out seat {seat} although its {owed} was sent")
            raise ProtocolError(host, f"censored seat {seat}: timed it out over its {owed}")
        if owed is not None and not table.paused:
            key = self._timer_key(seat, owed)
            started = self.since.get(key, now)
            # Only a peer that was following the table when the obligation began can tell an
            # early timeout (one that has just reloaded or joined, or that was passed the entry
            # by another peer, takes the host's word).
            known = started > self.live_since and key not in self.unseen_starts
            if known and now - started < table.timer_for(owed):
                raise ProtocolError(host, f"timed out seat {seat} before its time was up")

    def _timer_key(self, seat: int, owed: str) -> tuple[Any, ...]:
        table = self.table
        return (seat, owed, table.stage, table.round, table.chance_event, len(table.given))

    def _start_timers(self, *, live: bool = True) -> None:
        """Each obligation's timer starts when this peer accepts the entry that makes it due
        (``live``: the host sent that entry as it went, so the start is known)."""
        now = self.clock()
        for seat, owed in self.table.obligations().items():
            key = self._timer_key(seat, owed)
            if key not in self.since:
                self.since[key] = now
                if not live:
                    self.unseen_starts.add(key)
