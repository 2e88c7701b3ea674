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

import hashlib
from dataclasses import dataclass, field
from typing import Any

from engine.core.auto import AutoRules
from engine.core.model import (
    Action,
    Decision,
    IllegalAction,
    Kind,
    Knowledge,
    Rules,
    canonical_json,
)
from engine.fairness import commit as commitments
from engine.fairness import curve, sharing
from engine.fairness.backends.base import CryptoBackend, CryptoError
from engine.fairness.deck import (
    DeckError,
    DeckLayout,
    DeckTranscript,
    ShuffleSeed,
    audit_deck,
    card_points,
    card_table,
    check_deck,
    check_key,
    key_commitment,
    unmask_points,
)
from engine.fairness.randomness import HashChain, joint_value, verify_link
from engine.protocol.envelope import (
    Entry,
    entry_hash,
    entry_signature_ok,
    envelope_shape_error,
    envelope_signature_ok,
    genesis_hash,
    message_id,
)
from engine.protocol.errors import ProtocolError, StaleAction
from engine.protocol.watch import votes_needed

CHAIN_LENGTH = 256
HOST_ONLY = {"start", "pause", "resume", "hurry", "kick", "timeout", "auto", "takeover", "settle"}


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


@dataclass
class Table:
    """Deterministic table state; one per peer."""

    room: str
    game: str
    rules: Rules[Any]
    backend: CryptoBackend
    roster: list[Member]
    log: list[Entry] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    stage: str = "new"
    host: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    timer: int = 30
    state: Any = None
    round: int = 0
    round_start: int = 0
    node: tuple[str, str] = ("", "")
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
    # A logged move whose cards its author has still to show (commit, sequence, open), and
    # every card shown so far as (seat, slot, card), re-derived by the audit.
    awaiting: dict[int, Awaiting] = field(default_factory=dict)
    openings: list[tuple[int, int, str]] = field(default_factory=list)
    deposed: list[str] = field(default_factory=list)
    reshuffles: list[DeckTranscript] = field(default_factory=list)
    reshuffling: int | None = None
    epochs: dict[int, int] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    past_reveals: list[tuple[int, int, int]] = field(default_factory=list)
    _digest: tuple[tuple[Any, ...], str] | None = None

    # ----- roster helpers -------------------------------------------------------------------

    def member(self, peer: str) -> Member | None:
        """Roster line of ``peer``."""
        return next((m for m in self.roster if m.peer == peer), None)

    def seat_member(self, seat: int) -> Member:
        """Roster line of the player in ``seat``."""
        return next(m for m in self.roster if m.seat == seat)

    @property
    def seats(self) -> int:
        """Number of player seats."""
        return sum(1 for m in self.roster if m.seat is not None)

    def present(self) -> list[int]:
        """Seats still in the game, in order."""
        return [s for s in range(self.seats) if s not in self.out]

    @property
    def head(self) -> str:
        """Hash of the last entry (or the genesis hash)."""
        return self.hashes[-1] if self.hashes else genesis_hash(self.room, self.game)

    def digest(self) -> str:
        """Hash of the game state and the public table facts: equal on peers with equal logs.

        Everything it covers changes only while an entry is accepted, so it is computed once per
        (head, stage, table facts) and kept: a page shows it on every redraw."""
        key: tuple[Any, ...] = (self.head, self.stage, len(self.out), len(self.blame))
        key += (len(self.revealed), len(self.epochs), self.reshuffling)
        if self._digest is not None and self._digest[0] == key:
            return self._digest[1]
        facts: dict[str, Any] = {
            "head": self.head,
            "stage": self.stage,
            "out": {str(k): v for k, v in sorted(self.out.items())},
            "blame": {str(k): v for k, v in sorted(self.blame.items())},
            "revealed": {str(k): v for k, v in sorted(self.revealed.items())},
            "state": self.rules.state_hash(self.state) if self.state is not None else None,
        }
        if self.awaiting:
            facts["awaiting"] = sorted(self.awaiting)
        if self.epochs:
            facts["epochs"] = {str(k): v for k, v in sorted(self.epochs.items())}
        digest = hashlib.sha256(canonical_json(facts)).hexdigest()
        self._digest = (key, digest)
        return digest

    # ----- obligations ----------------------------------------------------------------------

    def _shuffle_turn(self) -> dict[int, str]:
        """The seat whose shuffle pass is next."""
        first = next(iter(self.decks.values()), None)
        if first is None:
            return {}
        if self.stage == "shuffle1":
            done, key = len(first.pass1), "pass1"
        else:
            done, key = len(first.pass2), "pass2"
        return {done: key} if done < self.seats else {}

    def _reshuffle_turn(self) -> dict[int, str]:
        """Whose pass of the running re-shuffle is next (``reshuffle1 r``, ``reshuffle2 r``)."""
        if self.reshuffling is None:
            return {}
        transcript = self.reshuffles[self.reshuffling]
        seats, epoch = transcript.seats, transcript.epoch
        if transcript.hidden and len(transcript.pass0) < len(seats):
            return {seats[len(transcript.pass0)]: f"reshuffle0 {epoch}"}
        if len(transcript.pass1) < len(seats):
            return {seats[len(transcript.pass1)]: f"reshuffle1 {epoch}"}
        if len(transcript.pass2) < len(seats):
            return {seats[len(transcript.pass2)]: f"reshuffle2 {epoch}"}
        return {}

    def pending_deliveries(self) -> dict[tuple[int, int], list[int]]:
        """``(giver, receiver) → slots`` still owed, for present givers and receivers."""
        owed: dict[tuple[int, int], list[int]] = {}
        if self.stage != "play":
            return owed
        present = self.present()
        for receiver in present:
            for slot in sorted(self.rules.visible_slots(self.state, receiver)):
                if slot in self.revealed:
                    continue
                for giver in present:
                    if giver != receiver and (giver, receiver, slot) not in self.given:
                        owed.setdefault((giver, receiver), []).append(slot)
        return owed

    def escrow_pending(self) -> list[int]:
        """Seats out of the game whose secrets are not recovered yet."""
        if self.stage not in ("play", "audit"):
            return []
        return [s for s in sorted(self.out) if s not in self.recovered]

    @property
    def threshold(self) -> int:
        """Shares that rebuild one seat's escrow secret (0: this table shares nothing)."""
        return sharing.threshold(self.seats)

    def recovery_owed(self, departed: int) -> list[int]:
        """Present seats that have not yet posted their share of ``departed``'s secret."""
        posted = self.recovery.get(departed, {})
        return [s for s in self.present() if s != departed and s not in posted]

    def recoverable(self, departed: int) -> bool:
        """Whether enough shares of ``departed``'s secret are posted or can still come."""
        posted = len(self.recovery.get(departed, {}))
        return self.threshold > 0 and posted + len(self.recovery_owed(departed)) >= self.threshold

    def timer_for(self, owed: str) -> int:
        """Seconds a seat has for what it owes: a move gets the game's timer for its phase
        (``config["timers"][phase]``, else the table timer); automatic crypto steps get at least
        a minute, so a slow device is not mistaken for a withholding one."""
        if owed != "action":
            return max(60, self.timer)
        timers = self.config.get("timers") if isinstance(self.config, dict) else None
        phase = self.rules.decision(self.state).phase if self.state is not None else ""
        if isinstance(timers, dict) and isinstance(timers.get(phase), int):
            return max(1, int(timers[phase]))
        return self.timer

    def racing(self) -> Decision | None:
        """The RACE decision the game is at (real time), if it is at one and play may go on."""
        if self.stage != "play" or self.state is None or self._blocked():
            return None
        decision = self.rules.decision(self.state)
        return decision if decision.kind == Kind.RACE else None

    def obligations(self) -> dict[int, str]:
        """What each seat must post now (one item per seat), for timers and for the driver."""
        requests: dict[int, str] = {}
        for dealer, holder in self.share_requests:
            if dealer not in self.out:
                requests.setdefault(dealer, f"share {holder}")
        base = self._stage_obligations()
        base.update(requests)
        return base

    def _stage_obligations(self) -> dict[int, str]:
        result: dict[int, str] = {}
        present = self.present()
        if self.stage == "chains":
            return {s: "chain" for s in present if s not in self.tips}
        if self.stage in ("shuffle1", "shuffle2"):
            return self._shuffle_turn()
        if self.stage not in ("play", "audit"):
            return result
        pending_escrow = self.escrow_pending()
        if pending_escrow and present:
            departed = pending_escrow[0]
            return {s: f"escrow {departed}" for s in self.recovery_owed(departed)}
        if self.stage == "audit":
            return {s: "audit" for s in present if s not in self.audits}
        owed = self.pending_deliveries()
        if owed:
            for giver, receiver in sorted(owed):
                result.setdefault(giver, f"deliver {receiver}")
            return result
        if self.awaiting:
            waiting = {s: "cardkeys" for s in self.awaiting}
            if self._blocked():
                return waiting
        decision = self.rules.decision(self.state)
        if self.awaiting:
            return {**{s: "action" for s in decision.seats}, **waiting}
        if decision.kind == Kind.CHANCE:
            return {s: "preimage" for s in present if s not in self.preimages}
        if decision.kind == Kind.REVEAL:
            return {s: "keys" for s in present if s not in self.reveal_keys}
        if decision.kind == Kind.RESHUFFLE:
            return self._reshuffle_turn()
        if decision.kind in (Kind.MOVE, Kind.SIMULTANEOUS):
            return {s: "action" for s in decision.seats}
        # RACE: nobody owes anything; the host settles after the quiet countdown.
        return result

    # ----- entry acceptance -----------------------------------------------------------------

    async def accept(self, entry: Entry, via: str) -> None:
        """Validate ``entry`` completely, then apply it; ``ProtocolError`` names who is to blame."""
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
        if not await entry_signature_ok(
            self.backend, host_member.sign, entry["seq"], digest, entry["hsig"]
        ):
            raise ProtocolError(via, "log entry carries a bad host signature")
        await self.check_message(entry["msg"], via)
        try:
            apply = await self._plan(entry["msg"], sequencer)
        except ProtocolError:
            raise
        except Exception as exc:  # malformed content, signed by its author
            author = entry["msg"]["from"]
            raise ProtocolError(author, f"malformed {type(exc).__name__}: {exc}") from exc
        # Nothing above changed the table; from here on nothing may fail.
        self.log.append(entry)
        self.hashes.append(digest)
        self.seen.add(message_id(entry["msg"]))
        apply()
        await self._advance()

    def successor(self) -> str:
        """The peer that takes over sequencing when the present seats depose the host: the next
        roster member after it that has not left."""
        order = [m.peer for m in self.roster]
        current = self.host or order[0]
        index = order.index(current)
        for step in range(1, len(order)):
            member = self.roster[(index + step) % len(order)]
            if member.seat is None or member.seat not in self.out:
                return member.peer
        return current

    def voters(self) -> list[str]:
        """The peers whose votes can depose the host: present seats other than the host."""
        host = self.host or self.roster[0].peer
        return [
            m.peer
            for m in self.roster
            if m.seat is not None and m.seat not in self.out and m.peer != host
        ]

    async def _check_votes(self, votes: Any, host: str, name: str) -> None:
        """A takeover carries signed votes of a majority of the voters against ``host``, each
        cast at this very point of the log."""
        if not isinstance(votes, list) or len(votes) > len(self.roster):
            raise ProtocolError(name, "a takeover needs the voters' signed votes")
        voters = set(self.voters())
        counted: set[str] = set()
        for vote in votes:
            if envelope_shape_error(vote) is not None:
                raise ProtocolError(name, "a vote is malformed")
            body = vote["body"]
            if (
                body.get("t") != "depose"
                or body.get("host") != host
                or vote["prev"] != self.head
                or vote["room"] != self.room
                or vote["game"] != self.game
                or vote["from"] not in voters
            ):
                raise ProtocolError(name, "a vote is not against this host at this point")
            member = self.member(vote["from"])
            assert member is not None
            if not await envelope_signature_ok(self.backend, member.sign, vote):
                raise ProtocolError(name, f"a vote is not signed by {vote['from']}")
            counted.add(vote["from"])
        if len(counted) < votes_needed(len(voters)):
            raise ProtocolError(name, f"{len(counted)} votes of {len(voters)} cannot depose a host")

    async def check_message(self, envelope: Any, via: str) -> None:
        """Shape, ids, freshness and signature of one envelope (no state change)."""
        problem = envelope_shape_error(envelope)
        if problem:
            raise ProtocolError(via, problem)
        author = self.member(envelope["from"])
        if author is None:
            raise ProtocolError(via, f"message from {envelope['from']!r}, who is not at the table")
        if envelope["room"] != self.room or envelope["game"] != self.game:
            raise ProtocolError(via, "message belongs to another room or game (replay)")
        if message_id(envelope) in self.seen:
            raise ProtocolError(via, "message replayed: already in the log")
        if envelope["prev"] not in self.hashes and envelope["prev"] != genesis_hash(
            self.room, self.game
        ):
            raise ProtocolError(via, "message follows an entry that is not in this log")
        if not await envelope_signature_ok(self.backend, author.sign, envelope):
            raise ProtocolError(
                via, f"bad signature on a message claiming to be from {author.peer}"
            )

    async def _plan(self, envelope: dict[str, Any], sequencer: str) -> Any:
        """Check one message against the stage; return a closure that applies it."""
        author = self.member(envelope["from"])
        assert author is not None
        body = envelope["body"]
        kind = body["t"]
        name = author.peer
        if kind in HOST_ONLY:
            if name != sequencer:
                raise ProtocolError(name, f"{kind!r} is for the host only")
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
            "preimage": self._plan_preimage,
            "keys": self._plan_keys,
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
        if kind == "action":
            prev_seq = (
                self.hashes.index(envelope["prev"]) if envelope["prev"] in self.hashes else -1
            )
            if prev_seq < self.round_start:
                raise StaleAction(name, "action was made for an earlier round (stale replay)")
        result: Any = await handler(seat, body, name)
        return result

    # ----- host messages --------------------------------------------------------------------

    async def _plan_host(self, body: dict[str, Any], name: str) -> Any:
        kind = body["t"]
        if kind == "start":
            if self.stage != "new":
                raise ProtocolError(name, "the game has started already")
            try:
                roster = [Member.from_json(m) for m in body["roster"]]
                config = dict(body["config"])
                timer = int(body["timer"])
            except (KeyError, TypeError, ValueError) as exc:
                raise ProtocolError(name, f"malformed start: {exc}") from exc
            if roster != self.roster:
                raise ProtocolError(name, "start roster differs from the room's roster")
            if body.get("rules") != self.rules.game_id:
                raise ProtocolError(name, "start names other rules")
            state = self.rules.new_game(config)
            layout = DeckLayout.from_rules(self.rules.hidden_decks(config))

            def start() -> None:
                self.host = name
                self.config = config
                self.timer = timer
                self.state = state
                self.layout = layout
                self.stage = "chains"

            return start
        if kind in ("pause", "resume"):

            def pause() -> None:
                self.paused = kind == "pause"

            return pause
        if kind == "takeover":
            deposed = self.host or self.roster[0].peer
            await self._check_votes(body.get("votes"), deposed, name)

            def takeover() -> None:
                self.deposed.append(deposed)
                self.host = name

            return takeover
        if kind == "settle":
            # The host's clock says nobody acted during the countdown (trusted like a timeout).
            if self.racing() is None:
                raise ProtocolError(name, "nothing to settle: the game is not racing")
            return self._engine_apply({"type": "settle"}, name, commits=None, seat=-1)
        seat = body.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ProtocolError(name, f"{kind!r} names no seat in the game")
        if seat in self.out and kind != "auto":
            raise ProtocolError(name, f"{kind!r} names no seat in the game")
        obligations = self.obligations()
        if kind == "hurry":
            if obligations.get(seat) != "action":
                raise ProtocolError(name, "that seat has no move to hurry")

            def hurry() -> None:
                self.hurried.add((seat, self.round))

            return hurry
        if kind == "kick":
            return lambda: self._leave(seat, "kicked by the host", blamed=False)
        if kind == "timeout":
            owed = obligations.get(seat)
            if owed is None:
                raise ProtocolError(name, "that seat owes nothing")
            if owed == "action":
                return await self._plan_auto(seat, name)
            if self.stage in ("chains", "shuffle1", "shuffle2") or owed.startswith("share"):
                return lambda: self._halt(seat, f"withheld {owed} before the game began")
            return lambda: self._leave(seat, f"timed out: withheld {owed}", blamed=True)
        if kind == "auto":
            if seat not in self.out:
                raise ProtocolError(name, "the log chooses only for absent seats")
            return await self._plan_auto(seat, name)
        raise ProtocolError(name, f"unknown host message {kind!r}")

    async def _plan_auto(self, seat: int, name: str) -> Any:
        if self.obligations().get(seat) != "action" and seat not in self.out:
            raise ProtocolError(name, "that seat has no move pending")
        decision = self.rules.decision(self.state)
        if seat not in decision.seats:
            raise ProtocolError(name, "that seat has no move pending")
        if not isinstance(self.rules, AutoRules):
            raise ProtocolError(name, "these rules make no automatic choices")
        action = self.rules.auto_action(self.state, seat, None)
        return self._engine_apply(action, name, commits=None, seat=seat)

    def _leave(self, seat: int, reason: str, blamed: bool) -> None:
        self.out[seat] = reason
        if blamed:
            self.blame.setdefault(seat, reason)
        self.preimages.pop(seat, None)
        self.reveal_keys.pop(seat, None)
        self.awaiting.pop(seat, None)  # its move is void: the log chooses for the absent seat
        running = self.reshuffling
        if running is not None and seat in self.reshuffles[running].seats:
            # A re-shuffle cannot finish without the departed seat's passes: it is abandoned
            # (kept for the audit) and a fresh one, with a new epoch, starts among those present.
            self.reshuffling = None

    def _halt(self, seat: int | None, reason: str) -> None:
        if seat is not None:
            self.blame.setdefault(seat, reason)
        self.stage = "halted"
        if self.result is None:
            self.result = {"aborted": reason}

    # ----- set-up ---------------------------------------------------------------------------

    async def _plan_chain(self, seat: int, body: dict[str, Any], name: str) -> Any:
        if self.stage != "chains" or seat in self.tips:
            raise ProtocolError(name, "no chain commitment expected now")
        tip = _hex_bytes(body.get("tip"), 32, name, "chain tip")
        points: list[sharing.Point] = []
        boxes: dict[int, str] = {}
        if self.threshold:
            dealt = body.get("shares")
            others = [s for s in range(self.seats) if s != seat]
            if not isinstance(dealt, dict) or not isinstance(dealt.get("boxes"), dict):
                raise ProtocolError(name, "chain commitment carries no shares of the seat's secret")
            try:
                points = sharing.decode_commitments(dealt.get("commitments"), self.threshold)
            except ValueError as exc:
                raise ProtocolError(name, f"share commitments are malformed: {exc}") from exc
            raw = dealt["boxes"]
            if sorted(raw) != sorted(str(s) for s in others) or not all(
                isinstance(v, str) and len(v) <= 512 for v in raw.values()
            ):
                raise ProtocolError(name, "shares must be one box for each other seat")
            boxes = {int(k): v for k, v in raw.items()}

        def apply() -> None:
            self.tips[seat] = tip
            self.chain_last[seat] = tip
            if points:
                self.sharings[seat] = points
                self.share_boxes[seat] = boxes

        return apply

    def share_ok(self, dealer: int, holder: int, value: int) -> bool:
        """True when ``value`` is ``holder``'s share of ``dealer``'s secret."""
        points = self.sharings.get(dealer)
        return points is not None and sharing.verify_share(points, sharing.share_x(holder), value)

    def _expect_turn(self, stage: str, seat: int, name: str) -> None:
        if self.stage != stage or self._shuffle_turn().get(seat) is None:
            raise ProtocolError(name, f"it is not seat {seat}'s turn to shuffle")

    def _parse_decks(self, body: dict[str, Any], name: str, seat: int) -> dict[str, list[int]]:
        decks = body.get("decks")
        if not isinstance(decks, dict) or set(decks) != {d for d, _ in self.layout.decks}:
            raise ProtocolError(name, "shuffle must carry every hidden deck")
        parsed = {}
        for deck, cards in self.layout.decks:
            values = decks[deck]
            if not isinstance(values, list) or not all(
                isinstance(v, str) and len(v) == 64 for v in values
            ):
                raise ProtocolError(name, f"deck {deck!r} is not a list of x-coordinates")
            try:
                xs = [int(v, 16) for v in values]
                check_deck(xs, len(cards), seat)
            except (ValueError, DeckError) as exc:
                raise ProtocolError(name, f"deck {deck!r}: {exc}") from exc
            parsed[deck] = xs
        return parsed

    async def _plan_shuffle1(self, seat: int, body: dict[str, Any], name: str) -> Any:
        self._expect_turn("shuffle1", seat, name)
        decks = self._parse_decks(body, name, seat)

        def apply() -> None:
            for deck, xs in decks.items():
                self.decks[deck].pass1.append(xs)
            if seat == self.seats - 1:
                self.stage = "shuffle2"

        return apply

    async def _plan_shuffle2(self, seat: int, body: dict[str, Any], name: str) -> Any:
        self._expect_turn("shuffle2", seat, name)
        decks = self._parse_decks(body, name, seat)
        commits = body.get("commits")
        if not isinstance(commits, dict):
            raise ProtocolError(name, "pass 2 carries no slot-key commitments")
        parsed: dict[str, list[str]] = {}
        for deck, cards in self.layout.decks:
            values = commits.get(deck)
            if (
                not isinstance(values, list)
                or len(values) != len(cards)
                or not all(commitments.is_digest(v) for v in values)
            ):
                raise ProtocolError(name, f"slot-key commitments of deck {deck!r} are malformed")
            parsed[deck] = values

        def apply() -> None:
            for deck, xs in decks.items():
                self.decks[deck].pass2.append(xs)
                self.decks[deck].commitments.append(parsed[deck])
            if seat == self.seats - 1:
                self.stage = "play"
                self._new_node()

        return apply

    # ----- play: private deliveries, escrow, randomness, reveals ----------------------------

    def epoch(self, slot: int) -> int:
        """The slot's current epoch: 0 after the initial shuffle, r after re-shuffle r."""
        return self.epochs.get(slot, 0)

    def _shuffle_of(self, slot: int, epoch: int | None) -> tuple[DeckTranscript, int]:
        """The transcript that last keyed ``slot`` (at ``epoch``: that one) and its position."""
        epoch = self.epoch(slot) if epoch is None else epoch
        if epoch == 0:
            transcript = self.decks[self.layout.deck_of(slot)]
            return transcript, slot - transcript.first_slot
        if not 0 < epoch <= len(self.reshuffles):
            raise KeyError(f"no re-shuffle {epoch}")
        transcript = self.reshuffles[epoch - 1]
        return transcript, transcript.slots.index(slot)

    def slot_seats(self, slot: int, epoch: int | None = None) -> list[int]:
        """The seats whose keys mask ``slot`` (those of its latest shuffle)."""
        return self._shuffle_of(slot, epoch)[0].seat_numbers(self.seats)

    def slot_commitment(self, seat: int, slot: int, epoch: int | None = None) -> str:
        """Seat's published commitment to its key for ``slot`` (at its current epoch)."""
        transcript, position = self._shuffle_of(slot, epoch)
        return transcript.commitments[transcript.seat_numbers(self.seats).index(seat)][position]

    def final_x(self, slot: int, epoch: int | None = None) -> int:
        """The fully keyed x-coordinate of a slot (at its current epoch)."""
        transcript, position = self._shuffle_of(slot, epoch)
        return transcript.final[position]

    def slot_key_of(self, seed: ShuffleSeed, slot: int) -> int:
        """The key a seed gives ``slot`` at its current epoch."""
        return seed.slot_key(slot, self.epoch(slot))

    async def _plan_deliver(self, seat: int, body: dict[str, Any], name: str) -> Any:
        receiver = body.get("to")
        slots = body.get("slots")
        box = body.get("box")
        owed = self.pending_deliveries().get(
            (seat, receiver) if isinstance(receiver, int) else (-1, -1)
        )
        if not owed or not isinstance(slots, list) or sorted(slots) != owed:
            raise ProtocolError(name, "that delivery is not owed now")
        if not isinstance(box, str) or len(box) > 32 * 1024:
            raise ProtocolError(name, "delivery box is malformed")
        assert isinstance(receiver, int)

        def apply() -> None:
            for slot in owed:
                self.given.add((seat, receiver, slot))
            self.boxes.append((seat, receiver, box))

        return apply

    async def _plan_escrow(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A present seat posts its share of a departed seat's secret; each share is checked
        against the departed seat's commitments, so a lying opener is refused and named."""
        pending = self.escrow_pending()
        departed = body.get("seat")
        if departed not in pending or seat not in self.recovery_owed(departed):
            raise ProtocolError(name, "no share of that seat is owed by this seat")
        assert isinstance(departed, int)
        value = int.from_bytes(_hex_bytes(body.get("share"), 32, name, "share"), "big")
        if not self.share_ok(departed, seat, value):
            raise ProtocolError(
                name, f"share of seat {departed}'s secret does not match its commitments"
            )
        shares = {**self.recovery.get(departed, {}), seat: value}
        if len(shares) < self.threshold:
            return lambda: self.recovery.__setitem__(departed, shares)
        secret = sharing.recover({sharing.share_x(s): v for s, v in shares.items()})
        seed, chain_seed = sharing.seeds_of(secret)
        problem = self._recovered_mismatch(departed, seed, chain_seed)

        def apply() -> None:
            self.recovery[departed] = shares
            if problem:
                # The departed seat shared a secret that is not the root of what it committed
                # to: its keys are lost, so the table cannot go on.
                self._halt(departed, problem)
                return
            self.recovered[departed] = seed
            self.recovered_chains[departed] = chain_seed

        return apply

    def _recovered_mismatch(self, departed: int, seed: ShuffleSeed, chain_seed: bytes) -> str:
        """Why a rebuilt secret is not the departed seat's (empty: it is)."""
        if HashChain(chain_seed, CHAIN_LENGTH).tip() != self.tips.get(departed):
            return "its shared secret does not give the chain it committed to"
        shuffles = [self.decks[deck] for deck, _ in self.layout.decks] + [
            t for t in self.reshuffles if departed in t.seats and t.complete(self.seats)
        ]
        for transcript in shuffles:
            if len(transcript.commitments) <= transcript.seat_numbers(self.seats).index(departed):
                continue
            position = transcript.seat_numbers(self.seats).index(departed)
            published_keys = transcript.commitments[position]
            for slot, published in zip(transcript.slot_numbers(), published_keys, strict=True):
                key = seed.slot_key(slot, transcript.epoch)
                if key_commitment(self.room, self.game, departed, slot, key) != published:
                    return "its shared secret does not give the slot keys it committed to"
        return ""

    async def _plan_share(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A dealer answers a holder's complaint by publishing that holder's share."""
        holder = body.get("to")
        if (seat, holder) not in self.share_requests:
            raise ProtocolError(name, "nobody asked this seat for that share")
        assert isinstance(holder, int)
        value = int.from_bytes(_hex_bytes(body.get("share"), 32, name, "share"), "big")
        if not self.share_ok(seat, holder, value):
            raise ProtocolError(name, "published share does not match the seat's commitments")

        def apply() -> None:
            self.share_requests.remove((seat, holder))
            self.public_shares[(seat, holder)] = value

        return apply

    async def _plan_preimage(self, seat: int, body: dict[str, Any], name: str) -> Any:
        if self._blocked() or self.rules.decision(self.state).kind != Kind.CHANCE:
            raise ProtocolError(name, "no random event pending")
        if seat in self.preimages or body.get("event") != self.chance_event + 1:
            raise ProtocolError(name, "preimage for the wrong event")
        value = _hex_bytes(body.get("value"), 32, name, "preimage")
        if not verify_link(self.chain_last[seat], value):
            raise ProtocolError(name, "preimage does not hash to the previous chain value")
        return lambda: self.preimages.__setitem__(seat, value)

    async def _plan_keys(self, seat: int, body: dict[str, Any], name: str) -> Any:
        decision = self.rules.decision(self.state)
        if self._blocked() or decision.kind != Kind.REVEAL or seat in self.reveal_keys:
            raise ProtocolError(name, "no reveal pending for this seat")
        keys = self._parse_keys(body.get("keys"), set(decision.slots), seat, name)
        return lambda: self.reveal_keys.__setitem__(seat, keys)

    def _parse_keys(self, raw: Any, slots: set[int], seat: int, name: str) -> dict[int, int]:
        if not isinstance(raw, dict) or {_int(k) for k in raw} != slots:
            raise ProtocolError(name, "keys must cover exactly the slots asked for")
        keys = {}
        for slot_text, key_hex in raw.items():
            slot = int(slot_text)
            key = int.from_bytes(_hex_bytes(key_hex, 32, name, "slot key"), "big")
            if not check_key(
                self.room, self.game, seat, slot, key, self.slot_commitment(seat, slot)
            ):
                raise ProtocolError(
                    name, f"key for slot {slot} does not match seat {seat}'s commitment"
                )
            keys[slot] = key
        return keys

    def _blocked(self) -> bool:
        """Whether the game must wait: escrow, deliveries, or a logged move still to show its
        cards (at a simultaneous node the other seats' moves go on meanwhile)."""
        if self.escrow_pending() or self.pending_deliveries():
            return True
        return bool(self.awaiting) and self.rules.decision(self.state).kind != Kind.SIMULTANEOUS

    async def _plan_complaint(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A receiver proves a wrong delivered key with the giver's signed inner message; a share
        holder asks the dealer to publish a share it could not open or check."""
        if "dealer" in body:
            dealer = body["dealer"]
            if (
                not isinstance(dealer, int)
                or dealer == seat
                or dealer not in self.sharings
                or (dealer, seat) in self.public_shares
                or (dealer, seat) in self.share_requests
            ):
                raise ProtocolError(name, "share complaint names no share of this seat")
            return lambda: self.share_requests.append((dealer, seat))
        if "slot" in body:
            return await self._plan_deck_complaint(seat, body, name)
        plain = body.get("plain")
        signature = body.get("sig")
        if not isinstance(plain, str) or not isinstance(signature, str):
            raise ProtocolError(name, "complaint is malformed")
        try:
            inner = _json_loads(plain)
            giver = int(inner["from"])
            keys = inner["keys"]
            ok_shape = (
                inner["to"] == seat and inner["room"] == self.room and inner["game"] == self.game
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(name, "complaint proof is malformed") from exc
        if not ok_shape or not 0 <= giver < self.seats or not isinstance(keys, dict):
            raise ProtocolError(name, "complaint proof is not about this seat")
        signer = self.seat_member(giver)
        if not await self.backend.verify(
            signer.sign, DELIVERY_TAG + plain.encode(), bytes.fromhex(signature)
        ):
            raise ProtocolError(name, "complaint proof is not signed by the accused seat")
        epochs = inner.get("epochs", {})
        wrong = []
        for slot_text, key_hex in keys.items():
            slot = _int(slot_text)
            try:
                epoch = int(epochs.get(slot_text, 0)) if isinstance(epochs, dict) else -1
                key = int(key_hex, 16)
                good = epoch >= 0 and check_key(
                    self.room, self.game, giver, slot, key, self.slot_commitment(giver, slot, epoch)
                )
            except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                good = False
            if not good:
                wrong.append(slot)
        if not wrong:
            raise ProtocolError(name, "complaint is unfounded: every key matches its commitment")
        return lambda: self._leave(giver, f"delivered a wrong key for slot {wrong[0]}", blamed=True)

    async def _plan_deck_complaint(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A seat proves that a slot of its hand unmasks to no card: its own key and every
        giver's signed delivery, each checked against the commitments. Proved, the game stops
        for the audit (which names the shuffler); a complaint that proves nothing blames its
        author, who has just shown its card to everyone."""
        slot = body.get("slot")
        if (
            self.stage != "play"
            or not isinstance(slot, int)
            or isinstance(slot, bool)
            or not 0 <= slot < self.layout.total
            or slot in self.revealed
            or slot not in self.rules.visible_slots(self.state, seat)
        ):
            raise ProtocolError(name, "deck complaint names no slot of this seat's hand")
        proofs = body.get("proofs")
        if not isinstance(proofs, list) or len(proofs) > self.seats:
            raise ProtocolError(name, "deck complaint carries no delivery proofs")
        epoch = self.epoch(slot)
        own = body.get("key")
        keys: dict[str, str] = {str(seat): own} if isinstance(own, str) else {}
        for proof in proofs:
            giver, given = await self._signed_delivery(seat, proof, name)
            key = given.get(str(slot))
            epochs = given.get("epochs", {})
            if (
                isinstance(key, str)
                and (epochs.get(str(slot), 0) if isinstance(epochs, dict) else -1) == epoch
            ):
                keys[str(giver)] = key
        try:
            unmasked = await unmask_points(
                self.backend, [(self.final_x(slot), self._slot_keys(slot, keys, name))]
            )
        except CryptoError as exc:
            raise ProtocolError(name, f"deck complaint keys do not unmask: {exc}") from exc
        if self.cards.get(unmasked[0]) is not None:
            return lambda: self._leave(seat, f"complained that slot {slot} is no card", blamed=True)

        def audit_now() -> None:
            self.stage = "audit"
            self.result = {"aborted": f"seat {seat}: slot {slot} unmasks to no card"}

        return audit_now

    async def _signed_delivery(
        self, seat: int, proof: Any, name: str
    ) -> tuple[int, dict[str, Any]]:
        """The giver and the keys of one delivery to ``seat``, as the giver signed it."""
        if not isinstance(proof, dict):
            raise ProtocolError(name, "a delivery proof is an object")
        plain, signature = proof.get("plain"), proof.get("sig")
        if not isinstance(plain, str) or not isinstance(signature, str) or len(signature) != 128:
            raise ProtocolError(name, "a delivery proof is malformed")
        try:
            inner = _json_loads(plain)
            giver = inner["from"]
            keys = inner["keys"]
            raw_signature = bytes.fromhex(signature)
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
            raise ProtocolError(name, "a delivery proof is malformed") from exc
        if (
            not isinstance(inner, dict)
            or not isinstance(giver, int)
            or not 0 <= giver < self.seats
            or inner.get("to") != seat
            or inner.get("room") != self.room
            or inner.get("game") != self.game
            or not isinstance(keys, dict)
        ):
            raise ProtocolError(name, "a delivery proof is not about this seat")
        signer = self.seat_member(giver)
        if not await self.backend.verify(signer.sign, DELIVERY_TAG + plain.encode(), raw_signature):
            raise ProtocolError(name, "a delivery proof is not signed by its giver")
        return giver, {**keys, "epochs": inner.get("epochs", {})}

    async def _plan_leave(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """Leaving is allowed; leaving while owing a contribution to a reveal (a preimage, reveal
        or card keys, a share, the audit) is blamed like withholding it (it cannot veto anything:
        its part is rebuilt from its shares)."""
        owed = self.obligations().get(seat) or ""
        if owed in ("preimage", "keys", "cardkeys", "audit") or owed.split(" ")[0] in (
            "escrow",
            "share",
        ):
            return lambda: self._leave(seat, f"left while it owed {owed}", blamed=True)
        return lambda: self._leave(seat, "left the game", blamed=False)

    # ----- play: game actions ---------------------------------------------------------------

    async def _plan_action(self, seat: int, body: dict[str, Any], name: str) -> Any:
        if self.stage != "play" or self._blocked():
            if self.awaiting and self.racing_node():
                raise StaleAction(name, "another play is being shown: the state is moving on")
            raise ProtocolError(name, "no game move expected now (deliveries pending)")
        action = body.get("action")
        if not isinstance(action, dict) or action.get("seat") != seat:
            raise ProtocolError(name, "action must be an object for the author's own seat")
        if action.get("type") in ("chance", "reveal", "reshuffled", "settle"):
            raise ProtocolError(name, "chance, reveal and reshuffles come from the table only")
        if "keys" in action or "card" in action or "point" in action:
            raise ProtocolError(name, "cards are shown only after the move is in the log")
        decision = self.rules.decision(self.state)
        acting = (Kind.MOVE, Kind.SIMULTANEOUS, Kind.RACE)
        if decision.kind not in acting or seat not in decision.seats:
            raise ProtocolError(name, f"seat {seat} may not act now (out of turn)")
        if seat in self.awaiting:
            raise ProtocolError(name, "this seat's logged move still waits for its cards")
        commits = action.get("commit")
        if commits is not None and (
            not isinstance(commits, list)
            or len(commits) > 64
            or not all(commitments.is_digest(c) for c in commits)
        ):
            raise ProtocolError(name, "commitments are malformed")
        engine_action = {
            k: v for k, v in action.items() if k not in ("nonce", "item", "show", "open")
        }
        opened: list[dict[str, Any]] | None = None
        if "show" in action:
            shown = self._check_shown(seat, action["show"], name)
            opened = [{"slot": slot, "card": None} for slot in shown]
        elif "open" in action:
            opened = self._check_openings(seat, action["open"], name)
        if opened is not None:
            engine_action["open"] = opened
        if "index" in action:
            # A top-level index names a commitment opened without showing its card (a card
            # leaving a closed spell face down): its committed fields join the move, but they may
            # neither replace what the move says nor speak for the table.
            fields = _committed_fields(self._verify_opening(seat, action, name), name)
            for key, value in fields.items():
                if key in engine_action and engine_action[key] != value:
                    raise ProtocolError(name, f"opening disagrees with the move on {key!r}")
            engine_action.update(fields)
        hidden = [item["slot"] for item in opened or [] if "card" in item]
        if hidden:
            # Commit, sequence, open: the move is fixed in the log first; its cards are shown by
            # a later ``cardkeys`` message, so nobody learns a card from a move that is refused.
            waiting = Awaiting(seat, engine_action, list(commits or []), hidden, len(self.log))
            return lambda: self.awaiting.__setitem__(seat, waiting)
        return self._engine_apply(engine_action, name, commits=commits, seat=seat)

    def racing_node(self) -> bool:
        """True at a real-time node of the game (whatever blocks it right now)."""
        if self.stage != "play" or self.state is None:
            return False
        return self.rules.decision(self.state).kind == Kind.RACE

    async def _plan_cardkeys(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """The author of a logged move shows its cards: every seat's key of each slot, checked
        against the commitments; a card the move could not play puts the author out, blamed."""
        waiting = self.awaiting.get(seat)
        if waiting is None or self.escrow_pending():
            raise ProtocolError(name, "no logged move of this seat waits for its cards")
        raw = body.get("keys")
        if not isinstance(raw, dict) or sorted(raw) != sorted(str(s) for s in waiting.slots):
            raise ProtocolError(name, "keys must cover exactly the slots the move shows")
        items = [(self.final_x(s), self._slot_keys(s, raw[str(s)], name)) for s in waiting.slots]
        xs = await unmask_points(self.backend, items)
        cards: dict[int, str] = {}
        for slot, x in zip(waiting.slots, xs, strict=True):
            card = self.cards.get(x)
            if card is None:
                raise ProtocolError(name, f"slot {slot} unmasks to no card: audit needed")
            cards[slot] = card
        action = dict(waiting.action)
        action["open"] = [
            {**item, "card": cards[item["slot"]]} if "card" in item else item
            for item in waiting.action.get("open", [])
        ]
        points = dict(zip(waiting.slots, xs, strict=True))
        self.openings.extend((seat, slot, card) for slot, card in cards.items())
        try:
            apply = self._engine_apply(
                action, name, commits=waiting.commits, seat=seat, points=points
            )
        except ProtocolError as exc:
            reason = f"showed a card its move could not play ({exc.reason})"

            def refuse() -> None:
                self.awaiting.pop(seat, None)
                self._leave(seat, reason, blamed=True)

            return refuse

        def shown() -> None:
            self.awaiting.pop(seat, None)
            apply()

        return shown

    def _verify_opening(self, seat: int, item: dict[str, Any], name: str) -> Any:
        """The committed choice behind one opening (``index`` within the seat's latest batch,
        ``nonce`` and ``item``); refused unless it is exactly what this seat committed there."""
        made = self.commits.get(seat, [])
        index = item.get("index")
        base = self.batches.get(seat, 0)
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= base + index < len(made)
        ):
            raise ProtocolError(name, "opening names no commitment of this seat")
        digest, made_round, phase = made[base + index]
        context = commitments.CommitContext(self.room, self.game, made_round, phase, seat)
        nonce_hex = item.get("nonce")
        if not isinstance(nonce_hex, str) or len(nonce_hex) != 64 or "item" not in item:
            raise ProtocolError(name, "opening needs the nonce and the committed item")
        try:
            nonce = bytes.fromhex(nonce_hex)
        except ValueError as exc:
            raise ProtocolError(name, "opening nonce is not hex") from exc
        choice = item["item"]
        try:
            matches = commitments.verify(context, digest, commitments.Opening(nonce, choice))
        except (TypeError, ValueError) as exc:
            raise ProtocolError(name, "opening item is not canonical JSON") from exc
        if not matches:
            raise ProtocolError(name, f"opening {index} does not match the commitment")
        slot = opened_slot(choice)
        if slot is not None and not 0 <= slot < self.layout.total:
            raise ProtocolError(name, "opened slot does not exist")
        return choice

    def _slot_keys(self, slot: int, raw_keys: Any, name: str) -> list[int]:
        """Every seat's key for ``slot`` (recovered ones from escrow), each checked against the
        commitment that seat published when it shuffled."""
        if not isinstance(raw_keys, dict):
            raise ProtocolError(name, "opening carries no slot keys")
        keys = []
        for owner in self.slot_seats(slot):
            if owner in self.recovered:
                keys.append(self.slot_key_of(self.recovered[owner], slot))
                continue
            key = int.from_bytes(_hex_bytes(raw_keys.get(str(owner)), 32, name, "slot key"), "big")
            if not check_key(
                self.room, self.game, owner, slot, key, self.slot_commitment(owner, slot)
            ):
                raise ProtocolError(
                    name, f"slot {slot}: key of seat {owner} does not match its commitment"
                )
            keys.append(key)
        return keys

    def _check_shown(self, seat: int, shown: Any, name: str) -> list[int]:
        """Slots shown face up from a hand: distinct, still face down, and seen by the mover."""
        if not (isinstance(shown, list) and 0 < len(shown) <= 16):
            raise ProtocolError(name, "shown cards are malformed")
        if len(set(map(str, shown))) != len(shown):
            raise ProtocolError(name, "a card is shown twice")
        for slot in shown:
            if not isinstance(slot, int) or isinstance(slot, bool):
                raise ProtocolError(name, "shown slot does not exist")
            if not 0 <= slot < self.layout.total:
                raise ProtocolError(name, "shown slot does not exist")
            if slot in self.revealed:
                raise ProtocolError(name, f"slot {slot} is face up already")
            if slot not in self.rules.visible_slots(self.state, seat):
                raise ProtocolError(name, f"slot {slot} is not a card this seat holds")
        return list(shown)

    def _check_openings(self, seat: int, openings: Any, name: str) -> list[dict[str, Any]]:
        """Each opening checked against this seat's commitment; a card item gets ``card: None``
        (its card comes with the keys, after the move is logged)."""
        if not isinstance(openings, list) or len(openings) > 64:
            raise ProtocolError(name, "openings are malformed")
        checked: list[dict[str, Any]] = []
        seen: set[int] = set()
        for item in openings:
            if not isinstance(item, dict) or set(item) - {"index", "nonce", "item"}:
                raise ProtocolError(name, "an opening is the index, the nonce and the item only")
            choice = self._verify_opening(seat, item, name)
            index = item["index"]
            if index in seen:
                raise ProtocolError(name, "a commitment is opened twice in one move")
            seen.add(index)
            slot = opened_slot(choice)
            fields = _committed_fields(choice, name)
            if slot is None:
                checked.append({**fields, "index": index})
            else:
                if slot in self.revealed:
                    raise ProtocolError(name, f"slot {slot} is face up already")
                if slot not in self.rules.visible_slots(self.state, seat):
                    raise ProtocolError(name, f"slot {slot} is not a card this seat holds")
                checked.append({**fields, "slot": slot, "index": index, "card": None})
        return checked

    def _engine_apply(
        self,
        action: Action,
        name: str,
        commits: Any,
        seat: int,
        points: dict[int, int] | None = None,
    ) -> Any:
        try:
            new_state = self.rules.apply(self.state, action)
        except IllegalAction as exc:
            raise ProtocolError(name, f"illegal move: {exc}") from exc

        def apply() -> None:
            if commits:
                phase = self.rules.decision(self.state).phase
                self.batches[seat] = len(self.commits.get(seat, []))
                self.commits.setdefault(seat, []).extend((c, self.round, phase) for c in commits)
            for item in action.get("open", []) or []:
                if isinstance(item, dict) and item.get("card") is not None:
                    self.revealed[item["slot"]] = item["card"]
                    if points and item["slot"] in points:
                        self.points[item["slot"]] = points[item["slot"]]
            self.state = new_state
            self._new_node(seat)

        return apply

    def _new_node(self, acted: int | None = None) -> None:
        """Start a new round when the game is at a new decision: another kind or phase, any
        one-at-a-time node, or a simultaneous one that wants a move again from the seat that just
        moved (the same phase twice in a row: a new call, not the rest of the old one)."""
        decision = self.rules.decision(self.state)
        node = (str(decision.kind), decision.phase)
        again = decision.kind == Kind.SIMULTANEOUS and acted in decision.seats
        if (
            again
            or node != self.node
            or decision.kind
            in (
                Kind.MOVE,
                Kind.REVEAL,
                Kind.RESHUFFLE,
                Kind.RACE,
            )
        ):
            self.node = node
            self.round += 1
            self.round_start = len(self.log) - 1

    async def _advance(self) -> None:
        """Table-made steps once every contribution is in: chance values, reveals, stages."""
        if self.stage == "chains" and len(self.tips) == self.seats:
            self.stage = "shuffle1"
            for deck, cards in self.layout.decks:
                self.decks[deck] = DeckTranscript(
                    deck,
                    self.layout.first_slot(deck),
                    card_points(self.room, self.game, deck, cards),
                    [],
                    [],
                    [],
                )
            self.cards = card_table(self.room, self.game, self.layout)
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
        if decision.kind == Kind.CHANCE and present and all(s in self.preimages for s in present):
            # Every seat contributes to every event: a seat that left (or withheld and was put
            # out) has its preimage rebuilt from its recovered chain seed, so nobody can veto.
            self.chance_event += 1
            for s in range(self.seats):
                if s not in present:
                    chain = HashChain(self.recovered_chains[s], CHAIN_LENGTH)
                    self.preimages[s] = chain.preimage(self.chance_event)
            values = [self.preimages[s] for s in range(self.seats)]
            event = ("chance", self.room, self.game, self.chance_event)
            value = joint_value(event, values, decision.chance_range)
            for s in range(self.seats):
                self.chain_last[s] = self.preimages[s]
            self.preimages = {}
            self._apply_table_action({"type": "chance", "value": value})
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

    async def _advance_audit(self) -> None:
        """Run the audit once every present seat has published and every departed one is rebuilt
        (or can no longer be): the audit always ends, in ``done``."""
        if self.result is not None and "ok" in self.result:
            return
        pending = self.escrow_pending()
        if pending and self.recoverable(pending[0]):
            return
        if not all(s in self.audits for s in self.present()):
            return
        note = dict(self.result or {})
        await self.run_audit()
        assert self.result is not None
        self.result.update(note)

    def _apply_table_action(self, action: Action) -> None:
        self.state = self.rules.apply(self.state, action)
        self._new_node()

    # ----- play: re-shuffles ----------------------------------------------------------------

    async def _advance_reshuffle(self, decision: Decision) -> None:
        """Start the re-shuffle the game asks for, or finish it once every pass is in."""
        if self.reshuffling is None:
            slots = sorted(decision.slots)
            problem = self._reshuffle_problem(decision.deck, slots)
            if problem:
                self.stage = "halted"
                self.result = {"aborted": f"the game asked for an impossible re-shuffle: {problem}"}
                return
            if not slots:
                self._apply_table_action({"type": "reshuffled", "slots": []})
                await self._advance()
                return
            epoch = len(self.reshuffles) + 1
            present = self.present()
            initial, hidden = await self._reshuffle_input(slots, present)
            self.reshuffles.append(
                DeckTranscript(
                    decision.deck,
                    slots[0],
                    initial,
                    [],
                    [],
                    [],
                    epoch=epoch,
                    slots=slots,
                    seats=present,
                    hidden=hidden,
                )
            )
            self.reshuffling = epoch - 1
            return
        transcript = self.reshuffles[self.reshuffling]
        if not transcript.complete(self.seats):
            return
        self.reshuffling = None
        slots = transcript.slots
        for slot in slots:
            if slot in self.points:
                self.past_reveals.append((slot, self.epoch(slot), self.points.pop(slot)))
            self.revealed.pop(slot, None)
            self.epochs[slot] = transcript.epoch
        gone = set(slots)
        self.given = {g for g in self.given if g[2] not in gone}
        self._apply_table_action({"type": "reshuffled", "slots": list(slots)})
        await self._advance()

    def _reshuffle_problem(self, deck: str, slots: list[int]) -> str:
        """Why the table cannot re-shuffle ``slots`` of ``deck`` (empty: it can)."""
        if deck not in self.decks:
            return f"{deck!r} is no hidden deck"
        if len(set(slots)) != len(slots):
            return "a slot is listed twice"
        for slot in slots:
            if not 0 <= slot < self.layout.total or self.layout.deck_of(slot) != deck:
                return f"slot {slot} is not in deck {deck!r}"
        return ""

    async def _reshuffle_input(
        self, slots: list[int], present: list[int]
    ) -> tuple[list[int], dict[int, int]]:
        """The points a re-shuffle starts from: a revealed slot's card point, and for a slot never
        revealed its masked point with the keys of seats no longer present taken off (their seeds
        are public from the escrow), so pass 0 has only present seats' keys to swap."""
        initial: list[int] = []
        hidden: dict[int, int] = {}
        strip: list[tuple[int, int]] = []
        for j, slot in enumerate(slots):
            if slot in self.points:
                initial.append(self.points[slot])
                continue
            old = self.epoch(slot)
            hidden[j] = old
            total = 1
            for seat in self.slot_seats(slot, old):
                if seat not in present:
                    total = total * self.slot_key_of(self.recovered[seat], slot) % curve.N
            initial.append(self.final_x(slot, old))
            if total != 1:
                strip.append((j, total))
        if strip:
            xs = await self.backend.mult_many(
                [(pow(total, -1, curve.N), initial[j]) for j, total in strip]
            )
            for (j, _), x in zip(strip, xs, strict=True):
                initial[j] = x
        return initial, hidden

    def _expect_reshuffle(self, which: int, seat: int, body: dict[str, Any], name: str) -> Any:
        """The running re-shuffle, if ``seat`` owes pass ``which`` of it now."""
        running = self.reshuffling
        if self.stage != "play" or self._blocked() or running is None:
            raise ProtocolError(name, "no re-shuffle is running")
        transcript = self.reshuffles[running]
        if body.get("r") != transcript.epoch:
            raise ProtocolError(name, "re-shuffle pass for another re-shuffle")
        if self._reshuffle_turn().get(seat) != f"reshuffle{which} {transcript.epoch}":
            raise ProtocolError(name, f"it is not seat {seat}'s turn to re-shuffle")
        values = body.get("xs")
        size = len(transcript.slots)
        if not isinstance(values, list) or not all(
            isinstance(v, str) and len(v) == 64 for v in values
        ):
            raise ProtocolError(name, "re-shuffle pass is not a list of x-coordinates")
        try:
            xs = [int(v, 16) for v in values]
            check_deck(xs, size, seat)
        except (ValueError, DeckError) as exc:
            raise ProtocolError(name, f"re-shuffle {transcript.epoch}: {exc}") from exc
        return transcript, xs

    async def _plan_reshuffle0(self, seat: int, body: dict[str, Any], name: str) -> Any:
        transcript, xs = self._expect_reshuffle(0, seat, body, name)
        return lambda: transcript.pass0.append(xs)

    async def _plan_reshuffle1(self, seat: int, body: dict[str, Any], name: str) -> Any:
        transcript, xs = self._expect_reshuffle(1, seat, body, name)
        return lambda: transcript.pass1.append(xs)

    async def _plan_reshuffle2(self, seat: int, body: dict[str, Any], name: str) -> Any:
        transcript, xs = self._expect_reshuffle(2, seat, body, name)
        commits = body.get("commits")
        slots = transcript.slots
        if (
            not isinstance(commits, list)
            or len(commits) != len(slots)
            or not all(commitments.is_digest(c) for c in commits)
            or len(set(commits)) != len(commits)
        ):
            raise ProtocolError(name, "re-shuffle slot-key commitments are malformed")
        for slot, digest in zip(slots, commits, strict=True):
            for epoch in self._epochs_of(slot, seat):
                if self.slot_commitment(seat, slot, epoch) == digest:
                    raise ProtocolError(
                        name, f"slot {slot}: re-uses its key of epoch {epoch} (keys must be fresh)"
                    )

        def apply() -> None:
            transcript.pass2.append(xs)
            transcript.commitments.append(list(commits))

        return apply

    def _epochs_of(self, slot: int, seat: int) -> list[int]:
        """Every completed epoch of ``slot`` whose keys ``seat`` committed to."""
        found = [0]
        for transcript in self.reshuffles:
            if (
                transcript.complete(self.seats)
                and seat in transcript.seats
                and slot in transcript.slots
            ):
                found.append(transcript.epoch)
        return found

    # ----- audit ----------------------------------------------------------------------------

    async def _plan_audit(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A seat publishes its escrow secret; it must match its sharing and its chain tip."""
        if self.stage != "audit" or seat in self.audits or self.escrow_pending():
            raise ProtocolError(name, "no audit expected from this seat")
        secret = int.from_bytes(_hex_bytes(body.get("secret"), 32, name, "escrow secret"), "big")
        if not 0 < secret < curve.N:
            raise ProtocolError(name, "escrow secret is out of range")
        seed, chain_seed = sharing.seeds_of(secret)
        problem = ""
        if HashChain(chain_seed, CHAIN_LENGTH).tip() != self.tips[seat]:
            problem = "published secret does not give the committed chain"
        elif seat in self.sharings and sharing.base_mult(secret) != self.sharings[seat][0]:
            problem = "published secret is not the one it shared"

        def apply() -> None:
            if problem:
                self.blame.setdefault(seat, problem)
            self.audits[seat] = seed

        return apply

    async def run_audit(self) -> dict[str, Any]:
        """Re-check every deck from the published seeds; name the first cheating seat."""
        seeds = []
        missing = {}
        for seat in range(self.seats):
            seed = self.audits.get(seat) or self.recovered.get(seat)
            if seed is None:
                missing[seat] = "published no secret, and too few shares were left to rebuild it"
            seeds.append(seed or ShuffleSeed(b""))
        if missing:
            self.result = {"ok": False, "blame": {**self.blame, **missing}}
            self.stage = "done"
            return self.result
        blame = dict(self.blame)
        transcripts = [self.decks[deck] for deck, _ in self.layout.decks] + self.reshuffles
        for transcript in transcripts:
            taking_part = [seeds[s] for s in transcript.seat_numbers(self.seats)]
            try:
                await audit_deck(self.backend, self.room, self.game, transcript, taking_part)
            except DeckError as exc:
                if exc.seat is not None:
                    blame.setdefault(exc.seat, str(exc))
        # Every public reveal is re-derived from the seeds, those a re-shuffle superseded too.
        reveals = [(slot, self.epoch(slot), self.points[slot]) for slot in sorted(self.points)]
        reveals += self.past_reveals
        items = [
            (
                self.final_x(slot, epoch),
                [seeds[s].slot_key(slot, epoch) for s in self.slot_seats(slot, epoch)],
            )
            for slot, epoch, _ in reveals
        ]
        found = await unmask_points(self.backend, items)
        for (slot, epoch, x), derived in zip(reveals, found, strict=True):
            if derived != x and not blame:
                card, shown = self.cards.get(derived), self.cards.get(x)
                blame[-1] = f"slot {slot} (epoch {epoch}) re-derives to {card}, not {shown}"
        self.result = {"ok": not blame, "blame": blame}
        self.stage = "done"
        return self.result

    def knowledge_template(self, seat: int | None) -> Knowledge:
        """Empty knowledge for a seat."""
        return Knowledge(seat)


DELIVERY_TAG = b"magic-table/delivery/v1\0"


def _hex_bytes(value: Any, size: int, name: str, what: str) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size:
        raise ProtocolError(name, f"{what} must be {size} bytes of hex")
    try:
        return bytes.fromhex(value)
    except ValueError as exc:
        raise ProtocolError(name, f"{what} is not hex") from exc


# Fields a committed item may not carry: they belong to the move or to the table.
RESERVED_FIELDS = frozenset(
    {
        "type",
        "seat",
        "open",
        "show",
        "keys",
        "commit",
        "seal",
        "secret",
        "nonce",
        "item",
        "index",
        "card",
        "point",
        "step",
    }
)


def _committed_fields(choice: Any, name: str) -> dict[str, Any]:
    """The fields a committed item adds to a move: a slot, a value, or a dict of plain fields."""
    if isinstance(choice, dict):
        bad = set(choice) & RESERVED_FIELDS
        if bad:
            raise ProtocolError(name, f"a committed item may not carry {sorted(bad)}")
        if "slot" in choice and opened_slot(choice) is None:
            raise ProtocolError(name, "a committed slot must be a slot number")
        return dict(choice)
    if opened_slot(choice) is not None:
        return {"slot": choice}
    return {"value": choice}


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _json_loads(text: str) -> Any:
    import json

    return json.loads(text)


__all__ = ["CHAIN_LENGTH", "DELIVERY_TAG", "Member", "Table", "curve"]


def opened_slot(choice: Any) -> int | None:
    """The hidden-deck slot a committed choice names (an int, or a dict with ``slot``), if any."""
    slot = choice.get("slot") if isinstance(choice, dict) else choice
    if isinstance(slot, int) and not isinstance(slot, bool):
        return slot
    return None
