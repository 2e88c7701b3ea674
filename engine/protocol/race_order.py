"""The public order of simultaneous real-time plays, and the host's collection window.

Plays made on one state (the same *base*: the entry that began the round the author saw) are
logged in the order of ``rank(base, seat)``, a hash every peer computes; plays of one seat keep
their own order. The host holds the plays that reach it for ``window_seconds`` after the first
play on a base (``config["race_window"]``, milliseconds; absent: 0, arrival order), or until
every seat of the race has one there, and then sequences them by rank. A play that reaches the
host after a later-ranked play on its base is in the log is refused as late (its author re-posts
it on the new state). Peers check the rule on every entry (``Table``); the window itself, like a
timeout, is the host's word.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

ORDER_TAG = b"magic-table/race-order/v1\0"
MAX_WINDOW_MS = 2000
MAX_HELD = 256


def rank(base: str, seat: int) -> str:
    """The place of ``seat``'s play among plays made on ``base`` (lower goes first)."""
    return hashlib.sha256(ORDER_TAG + base.encode() + b"\0" + str(seat).encode()).hexdigest()


def window_seconds(config: Any) -> float:
    """The room's collection window in seconds (``config["race_window"]`` in ms, 0..2000)."""
    value = config.get("race_window", 0) if isinstance(config, dict) else 0
    if not isinstance(value, int) or isinstance(value, bool):
        return 0.0
    return min(MAX_WINDOW_MS, max(0, value)) / 1000


@dataclass
class HeldPlay:
    """A real-time play the host holds until its window closes."""

    envelope: dict[str, Any]
    sender: str
    base: str
    seat: int
    arrived: float

    @property
    def rank(self) -> str:
        """Its place among the plays on its base."""
        return rank(self.base, self.seat)


@dataclass
class RaceQueue:
    """The host's held plays, grouped by base; each group opens with its first play."""

    held: list[HeldPlay] = field(default_factory=list)
    opened: dict[str, float] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)

    def add(self, play: HeldPlay) -> bool:
        """Hold ``play`` (False: the queue is full)."""
        if len(self.held) >= MAX_HELD:
            return False
        if len(self.opened) > 64:  # forget drained groups (a late play there opens a new one)
            live = {p.base for p in self.held}
            self.opened = {b: t for b, t in self.opened.items() if b in live}
            self.closed &= live
        self.opened.setdefault(play.base, play.arrived)
        self.held.append(play)
        return True

    def holds(self, sender: str) -> bool:
        """Whether a play of ``sender`` (the author) is held."""
        return any(p.envelope["from"] == sender for p in self.held)

    def arrived_by(self, moment: float) -> bool:
        """Whether a held play reached the host by ``moment``."""
        return any(p.arrived <= moment for p in self.held)

    def next_ripe(self, now: float, window: float, seats: Iterable[int]) -> HeldPlay | None:
        """Take the next play to sequence: from the oldest group whose window is over (or that
        holds a play of every racing seat), the lowest rank (a seat's own plays in order)."""
        racing = set(seats)
        for base in sorted(self.opened, key=lambda b: self.opened[b]):
            group = [p for p in self.held if p.base == base]
            if not group:
                continue
            full = racing <= {p.seat for p in group}
            if base in self.closed or full or now - self.opened[base] >= window:
                self.closed.add(base)
                play = min(group, key=lambda p: p.rank)
                self.held.remove(play)
                return play
        return None

    def ripens_at(self, window: float) -> float | None:
        """When the earliest open group's window ends (``None``: nothing is held)."""
        opened = [self.opened[p.base] for p in self.held if p.base in self.opened]
        return min(opened) + window if opened else None

    def take_any(self) -> HeldPlay | None:
        """The oldest held play (the race is over: whatever is left gets its refusal)."""
        if not self.held:
            self.opened.clear()
            self.closed.clear()
            return None
        return self.held.pop(0)
