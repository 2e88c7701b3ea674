"""The table state every peer derives from the log, and the checks each entry must pass.

``Table.accept(entry)`` validates an entry completely (host signature, chain link, author
signature, replay, shape, stage, engine legality, commitment openings and deck keys) and only then
changes anything; a rejected entry raises ``ProtocolError`` naming the peer to blame and leaves the
table exactly as it was. Everything here is deterministic, so peers that accepted the same log hold
the same table (``Table.digest``).

Stages: ``chains`` (hash-chain tips) → ``shuffle1`` → ``shuffle2`` (seats in order) → ``play`` →
``audit`` → ``done`` (or ``halted`` when the table cannot go on).

Re-shuffles (``Kind.RESHUFFLE``, during ``play``): a revealed slot starts from its public card
point, a never-revealed one from its masked point. When there is one of those, each present seat
first swaps its old slot key for its new deck key on them and puts the deck key on the others
(``reshuffle0``, no permutation, so no card is ever bare); then the seats run the two usual passes
(``reshuffle1`` then ``reshuffle2``, seats in order; pass 2 takes the deck key off twice after a
pass 0) with keys derived from their seeds and the re-shuffle's epoch ``r`` (1, 2, ... over the
game). Each slot then has a current epoch; its keys, commitments
and final masked x are those of its latest shuffle, whose seats are the ones needed to unmask it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from engine.core.model import (
    Kind,
)
from engine.fairness.deck import (
    DeckTranscript,
    card_point,
    card_table,
    unmask_points,
)
from engine.fairness.randomness import HashChain, joint_value
from engine.protocol.envelope import (
    Entry,
    Envelope,
    entry_hash,
    envelope_shape_error,
    envelope_signature_ok,
    genesis_hash,
    message_id,
    safe_message_id,
)
from engine.protocol.errors import ProtocolError, StaleAction
from engine.protocol.pace import in_slices, yield_if_long
from engine.protocol.table_audit import Audit
from engine.protocol.table_contributions import Contributions
from engine.protocol.table_fields import Awaiting, Member
from engine.protocol.table_host import HostDuties
from engine.protocol.table_race import RaceChecks
from engine.protocol.table_reshuffle import Reshuffles
from engine.protocol.table_setup import SetUp
from engine.protocol.table_state import CHAIN_LENGTH, HOST_ONLY, TableState
from engine.protocol.table_values import DELIVERY_TAG, opened_slot

T = TypeVar("T")


class Table(HostDuties, SetUp, Contributions, RaceChecks, Reshuffles, Audit, TableState):
    """Deterministic table state; one per peer: ``accept`` checks an entry, then applies it."""

    async def accept(
        self,
        entry: Entry,
        via: str,
        *,
        checked_as: str = "",
        on_checked: Callable[[], None] | None = None,
    ) -> None:
        """Validate ``entry`` completely, then apply it; ``ProtocolError`` names who is to blame.

        ``checked_as``: this peer, the host, signed the entry a moment ago, having checked its
        message (``check_message``, which gave this id): neither is checked again. ``on_checked``
        runs once every check has passed, before the entry is applied (the host sends the entry
        on then, not after applying it)."""
        if not isinstance(entry, dict) or set(entry) != {"seq", "prev", "msg", "host", "hsig"}:
            raise ProtocolError(via, "log entry is malformed")
        if entry["seq"] != len(self.log) or entry["prev"] != self.head:
            raise ProtocolError(via, f"log entry {entry['seq']} does not extend the log")
        sequencer = entry["host"]
        expected_host = self.host or self.roster[0].peer
        body_type = entry["msg"].get("body", {}).get("t") if isinstance(entry["msg"], dict) else ""
        if sequencer != expected_host and not (
            body_type == "takeover" and sequencer == self.successor()
        ):
            raise ProtocolError(via, f"entry sequenced by {sequencer}, not the host")
        host_member = self.member(sequencer)
        assert host_member is not None or sequencer not in {m.peer for m in self.roster}
        if host_member is None or not isinstance(entry["hsig"], str):
            raise ProtocolError(via, "entry from an unknown sequencer")
        digest = entry_hash(entry)
        ident = checked_as or await self._check_signed_entry(entry, digest, host_member, via)
        try:
            apply = await self.plan(entry["msg"], sequencer)
        except ProtocolError:
            raise
        except Exception as exc:  # malformed content, signed by its author
            author = entry["msg"]["from"]
            raise ProtocolError(author, f"malformed {type(exc).__name__}: {exc}") from exc
        # Nothing above changed the table; from here on nothing may fail.
        if on_checked is not None:
            on_checked()
        self.log.append(entry)
        self.positions[digest] = len(self.hashes)
        self.hashes.append(digest)
        self.seen.add(ident)
        apply()
        await self._advance()
        self.bases.append(self.hashes[self.round_start])

    async def _check_signed_entry(self, entry: Entry, digest: str, host: Member, via: str) -> str:
        """The host's signature of ``entry`` and its message (``check_message_beside``): the id
        of its message. A bad host signature is reported first, as when they ran in turn."""
        signed, checked = await self.check_message_beside(
            self.host_signed(host, entry["seq"], digest, entry["hsig"]),
            entry["msg"],
            via,
        )
        if not signed:
            raise ProtocolError(via, "log entry carries a bad host signature")
        if isinstance(checked, ProtocolError):
            raise checked
        return checked

    async def check_message_beside(
        self, other: Awaitable[T], envelope: Any, via: str
    ) -> tuple[T, str | ProtocolError]:
        """``other`` (a signature the caller checks or makes) and ``check_message``: its result,
        and the message's id or the refusal of it (the caller says which comes first). Made
        together, two WebCrypto calls in a page at once, when the author's signature is still
        to be checked; else in turn, with no second task (most entries: a post checked as it
        arrived, or this peer's own message)."""
        ident = safe_message_id(envelope)
        if ident and ident in self.verified:
            done = await other
            try:
                return done, await self.check_message(envelope, via, ident)
            except ProtocolError as exc:
                return done, exc
        done_or_error, checked = await asyncio.gather(
            other, self.check_message(envelope, via, ident), return_exceptions=True
        )
        if isinstance(done_or_error, BaseException):
            raise done_or_error
        if isinstance(checked, BaseException) and not isinstance(checked, ProtocolError):
            raise checked
        return done_or_error, checked

    async def check_message(self, envelope: Any, via: str, ident: str = "") -> str:
        """Shape, ids, freshness and signature of one envelope (no state change); its id
        (``ident``: that id, if the caller has it)."""
        problem = envelope_shape_error(envelope)
        if problem:
            raise ProtocolError(via, problem)
        author = self.member(envelope["from"])
        if author is None:
            raise ProtocolError(via, f"message from {envelope['from']!r}, who is not at the table")
        if envelope["room"] != self.room or envelope["game"] != self.game:
            raise ProtocolError(via, "message belongs to another room or game (replay)")
        ident = ident or message_id(envelope)
        if ident in self.seen:
            raise ProtocolError(via, "message replayed: already in the log")
        if self.position(envelope["prev"]) < 0 and envelope["prev"] != genesis_hash(
            self.room, self.game
        ):
            raise ProtocolError(via, "message follows an entry that is not in this log")
        await self.check_signature(envelope, author, via, ident)
        return ident

    async def check_signature(
        self, envelope: Envelope, author: Member, via: str, ident: str = ""
    ) -> None:
        """The author's signature, checked once per message (a post seen early is not checked
        again when its entry comes); ``ident``: its ``message_id``, if the caller has it."""
        ident = ident or message_id(envelope)
        if ident in self.verified:
            return
        if not await envelope_signature_ok(self.backend, author.sign, envelope):
            raise ProtocolError(
                via, f"bad signature on a message claiming to be from {author.peer}"
            )
        self.note_verified(ident)

    def note_verified(self, ident: str) -> None:
        """The message ``ident``'s author signature holds: checked, or made by this peer."""
        if len(self.verified) > 4096:
            self.verified.clear()
        self.verified.add(ident)

    async def plan(self, envelope: dict[str, Any], sequencer: str) -> Any:
        """Check one message against the stage; return a closure that applies it. Nothing
        changes until the closure runs, so peers also use it as a dry run (``peer_watch``)."""
        author = self.member(envelope["from"])
        assert author is not None
        body = envelope["body"]
        kind = body["t"]
        name = author.peer
        if kind in HOST_ONLY:
            if name != sequencer:
                raise ProtocolError(name, f"{kind!r} is for the host only")
            if kind in ("preimages", "reveal") and self.stage != "play":
                raise ProtocolError(name, f"no {kind} while the table is {self.stage}")
            if kind == "preimages":
                return await self._plan_preimages(body, name)
            if kind == "reveal":
                return await self._plan_reveal(body, name)
            return await self._plan_host(body, name)
        if author.seat is None:
            raise ProtocolError(name, "spectators do not act")
        seat = author.seat
        if self.stage in ("done", "halted", "new"):
            raise ProtocolError(name, f"no moves while the table is {self.stage}")
        if seat in self.out and kind != "complaint":
            raise ProtocolError(name, "that seat has left the game")
        handler = {
            "chain": self._plan_chain,
            "shuffle1": self._plan_shuffle1,
            "shuffle2": self._plan_shuffle2,
            "deliver": self._plan_deliver,
            "escrow": self._plan_escrow,
            "share": self._plan_share,
            "cardkeys": self._plan_cardkeys,
            "action": self._plan_action,
            "complaint": self._plan_complaint,
            "leave": self._plan_leave,
            "audit": self._plan_audit,
            "reshuffle0": self._plan_reshuffle0,
            "reshuffle1": self._plan_reshuffle1,
            "reshuffle2": self._plan_reshuffle2,
        }.get(kind)
        if handler is None:
            raise ProtocolError(name, f"unknown message type {kind!r}")
        if kind == "action" and self.racing_node():
            return await self._plan_race_action(envelope, seat, name)
        if kind == "action":
            prev_seq = self.position(envelope["prev"])
            if prev_seq < self.round_start:
                raise StaleAction(name, "action was made for an earlier round (stale replay)")
        result: Any = await handler(seat, body, name)
        return result

    async def _advance(self) -> None:
        """Table-made steps once every contribution is in: chance values, reveals, stages."""
        if self.stage == "chains" and len(self.tips) == self.seats:
            # Every card is hashed onto the curve once, a few cards per browser task, before
            # anything changes (the page sees the table as it was until all decks are ready).
            points: dict[str, list[int]] = {}
            for deck, cards in self.layout.decks:
                xs = points[deck] = []
                async for part in in_slices(list(enumerate(cards))):
                    xs += [card_point(self.room, self.game, deck, i, card) for i, card in part]
            self.stage = "shuffle1"
            for deck, _ in self.layout.decks:
                first = self.layout.first_slot(deck)
                self.decks[deck] = DeckTranscript(deck, first, points[deck], [], [], [])
            self.cards = card_table(self.room, self.game, self.layout, points)
            if not self.decks:  # a game without hidden cards has nothing to shuffle
                self.stage = "play"
                self._new_node()
        if self.stage == "audit":
            await self._advance_audit()
            return
        pending = self.escrow_pending()
        if self.stage == "play" and pending and not self.recoverable(pending[0]):
            self._halt(None, f"too few players remain to rebuild seat {pending[0]}'s secrets")
            return
        if self.stage != "play" or self._blocked():
            return
        decision = self.rules.decision(self.state)
        present = self.present()
        if decision.kind == Kind.CHANCE and self.chance_event >= CHAIN_LENGTH:
            self._halt(None, f"the game has rolled all of its {CHAIN_LENGTH} joint dice")
            return
        if decision.kind == Kind.CHANCE and present and all(s in self.preimages for s in present):
            # Every seat contributes to every event: a seat that left (or withheld and was put
            # out) has its preimage rebuilt from its recovered chain seed, so nobody can veto.
            departed = {
                s: HashChain(self.recovered_chains[s], CHAIN_LENGTH)
                for s in range(self.seats)
                if s not in present
            }
            for chain in departed.values():  # walked at the rebuild; again only if not kept
                await chain.walk(yield_if_long)
            self.chance_event += 1
            for s, chain in departed.items():
                self.preimages[s] = chain.preimage(self.chance_event)
            values = [self.preimages[s] for s in range(self.seats)]
            event = ("chance", self.room, self.game, self.chance_event)
            value = joint_value(event, values, decision.chance_range)
            for s in range(self.seats):
                self.chain_last[s] = self.preimages[s]
            self.preimages = {}
            self._apply_table_action({"type": "chance", "value": value})
            # A run of random events with nothing between them (a spell's several dice) takes
            # every value from these preimages: draw j of the run hashes the event and j.
            draw = 1
            while self.stage == "play" and not self._blocked():
                following = self.rules.decision(self.state)
                if following.kind != Kind.CHANCE:
                    break
                value = joint_value((*event, draw), values, following.chance_range)
                self._apply_table_action({"type": "chance", "value": value})
                draw += 1
            await self._advance()
        elif decision.kind == Kind.REVEAL and all(s in self.reveal_keys for s in present):
            items = []
            for slot in decision.slots:
                keys = [
                    self.slot_key_of(self.recovered[s], slot)
                    if s in self.out
                    else self.reveal_keys[s][slot]
                    for s in self.slot_seats(slot)
                ]
                items.append((self.final_x(slot), keys))
            xs = await unmask_points(self.backend, items)
            found = [self.cards.get(x) for x in xs]
            self.reveal_keys = {}
            if any(c is None for c in found):
                self.stage = "audit"
                self.result = {"aborted": "a revealed slot is no card"}
                return
            revealed = {str(s): c for s, c in zip(decision.slots, found, strict=True)}
            for s, c, x in zip(decision.slots, found, xs, strict=True):
                assert c is not None
                self.revealed[s] = c
                self.points[s] = x
            self._apply_table_action({"type": "reveal", "cards": revealed})
            await self._advance()
        elif decision.kind == Kind.RESHUFFLE:
            await self._advance_reshuffle(decision)
        elif decision.kind == Kind.RACE and not decision.seats:
            # Nobody can act: the countdown would change nothing, so the table settles at once.
            self._apply_table_action({"type": "settle"})
            await self._advance()
        elif decision.kind == Kind.TERMINAL:
            self.stage = "audit"
            await self._advance_audit()


__all__ = [
    "CHAIN_LENGTH",
    "DELIVERY_TAG",
    "Awaiting",
    "Member",
    "Table",
    "TableState",
    "opened_slot",
]
