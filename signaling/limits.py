"""Rate limiters used by the signalling server."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class TokenBucket:
    """Allows ``rate`` events per second on average, with bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """Spend one token; False when the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class WindowLimiter:
    """At most ``limit`` events per key within a sliding window of ``window`` seconds."""

    def __init__(self, limit: int, window: float, clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def hit(self, key: str) -> bool:
        """Record an attempt by ``key``; False when it is over the limit (not recorded)."""
        now = self.clock()
        stamps = self.events.setdefault(key, deque())
        while stamps and stamps[0] <= now - self.window:
            stamps.popleft()
        if len(stamps) >= self.limit:
            return False
        stamps.append(now)
        if len(self.events) > 10_000:
            self._prune(now)
        return True

    def _prune(self, now: float) -> None:
        """Forget keys whose attempts all left the window."""
        stale = [k for k, s in self.events.items() if not s or s[-1] <= now - self.window]
        for key in stale:
            del self.events[key]
