"""Watching the host: every peer holds the posts it has seen, so a move the host does not sequence
is noticed, and the present seats replace a censoring or silent host by signed votes.

Posts go to every peer, not only to the host. A peer keeps each post it has seen until the log
carries it (``PendingPosts``); after ``RELAY_DELAY`` it forwards it to the host once, so an honest
host always has it. A host ``timeout`` for a seat whose valid post a peer has held for
``HOLD_MARGIN`` is censorship: that peer refuses the entry and votes to depose the host. A vote is
a signed envelope ``{"t": "depose", "host": H}`` whose ``prev`` is the voter's head; the
successor sequences ``takeover`` with a majority of the present seats' votes, never on one
peer's word.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine.protocol.envelope import Envelope, envelope_shape_error, message_id

RELAY_DELAY = 1.0
HOLD_MARGIN = 2.5
MAX_PENDING = 256
# Votes kept of each voter (its latest, at the heads it has been at).
VOTES_PER_VOTER = 8
PER_AUTHOR = 16
KEEP_FOR = 120.0


@dataclass
class Held:
    """One post this peer has seen but the log does not carry yet."""

    envelope: Envelope
    since: float
    forwarded: float | None = None


@dataclass
class PendingPosts:
    """Posts seen but not yet logged, oldest first, bounded overall and per author."""

    posts: OrderedDict[str, Held] = field(default_factory=OrderedDict)

    def add(
        self, envelope: Any, now: float, *, forwarded: bool = False, ident: str = ""
    ) -> str | None:
        """Keep a well-formed post (``None``: malformed, or already held); ``forwarded``: it
        went to the host already (this peer's own post); ``ident``: its ``message_id``, if the
        caller has it."""
        if envelope_shape_error(envelope) is not None:
            return None
        ident = ident or message_id(envelope)
        if ident in self.posts:
            return None
        author = envelope["from"]
        mine = [k for k, held in self.posts.items() if held.envelope["from"] == author]
        if len(mine) >= PER_AUTHOR:
            del self.posts[mine[0]]
        if len(self.posts) >= MAX_PENDING:
            self.posts.popitem(last=False)
        self.posts[ident] = Held(envelope, now, now if forwarded else None)
        return ident

    def logged(self, ident: str) -> None:
        """The log carries this post now."""
        self.posts.pop(ident, None)

    def to_forward(self, now: float) -> list[Envelope]:
        """Posts held for ``RELAY_DELAY`` and not forwarded yet (marked forwarded); old ones go."""
        return [held.envelope for held in due_to_forward(self.posts, now)]

    def held_from(self, author: str, now: float) -> list[Envelope]:
        """Posts by ``author`` this peer has held for ``HOLD_MARGIN`` and forwarded to the host."""
        return [
            held.envelope
            for held in self.posts.values()
            if held.envelope["from"] == author
            and now - held.since >= HOLD_MARGIN
            and held.forwarded is not None
        ]

    def restart(self, now: float) -> None:
        """Count every hold from ``now`` (a new host has just taken over)."""
        for held in self.posts.values():
            held.since, held.forwarded = now, None

    def all(self) -> list[Envelope]:
        """Every held post, oldest first."""
        return [held.envelope for held in self.posts.values()]


class Holding(Protocol):
    """Something held for the host: since when, and when it was forwarded to it."""

    since: float
    forwarded: float | None


H = TypeVar("H", bound=Holding)


def due_to_forward(held: MutableMapping[Any, H], now: float) -> list[H]:
    """What in ``held`` has waited ``RELAY_DELAY`` and has not gone to the host yet (marked
    forwarded now); anything held past ``KEEP_FOR`` is dropped."""
    out = []
    for key, item in list(held.items()):
        if now - item.since > KEEP_FOR:
            del held[key]
        elif item.forwarded is None and now - item.since >= RELAY_DELAY:
            item.forwarded = now
            out.append(item)
    return out


@dataclass
class Votes:
    """Signed votes to depose a host: each voter's latest few, by (host, head cast at). Kept per
    voter, so a voter that floods votes at made-up heads pushes out only its own."""

    ballots: dict[str, dict[tuple[str, str], Envelope]] = field(default_factory=dict)

    def add(self, envelope: Envelope) -> None:
        """Keep one checked vote (the caller has checked its signature and its voter)."""
        key = (str(envelope["body"]["host"]), str(envelope["prev"]))
        mine = self.ballots.setdefault(str(envelope["from"]), {})
        mine.pop(key, None)
        mine[key] = envelope
        while len(mine) > VOTES_PER_VOTER:
            mine.pop(next(iter(mine)))

    def at(self, host: str, head: str) -> list[Envelope]:
        """The votes against ``host`` cast at ``head``."""
        return [mine[(host, head)] for mine in self.ballots.values() if (host, head) in mine]


def votes_needed(voters: int) -> int:
    """A strict majority of the seats that may vote."""
    return voters // 2 + 1
