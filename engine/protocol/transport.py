"""The transport interface the protocol needs, and an in-process bus for tests and bots.

Messages are opaque strings. In the browser they ride in the data channel as
``{"t": "game", "g": <game id>, "m": <message>}``; over aiortc the same. The protocol only needs
to send to one peer, broadcast to all, and be told who sent what.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol

Receiver = Callable[[str, str], Awaitable[None]]
Tamper = Callable[[str, str, str], str | None]


class Transport(Protocol):
    """What a peer uses to talk to the others."""

    def send(self, to: str, message: str) -> None:
        """Queue ``message`` for peer ``to``."""
        ...

    def broadcast(self, message: str) -> None:
        """Queue ``message`` for every other connected peer."""
        ...

    def on_receive(self, callback: Receiver) -> None:
        """Register ``callback(sender, message)``; it is awaited once per message, in order."""
        ...


class InProcessBus:
    """Delivers messages between endpoints of one event loop, in order per receiver.

    ``tamper(sender, to, message)`` may rewrite or drop (return ``None``) a message in flight;
    ``disconnect`` cuts a peer off both ways.
    """

    def __init__(self) -> None:
        self.endpoints: dict[str, BusEndpoint] = {}
        self.tamper: Tamper | None = None
        self.cut: set[str] = set()
        self.messages = 0
        self.bytes = 0
        # Exceptions that escaped a receiver: a test's ``settle`` raises them instead of hanging.
        self.failures: list[tuple[str, BaseException]] = []

    def endpoint(self, peer: str) -> BusEndpoint:
        """A new endpoint for ``peer``."""
        endpoint = BusEndpoint(self, peer)
        self.endpoints[peer] = endpoint
        return endpoint

    def disconnect(self, peer: str) -> None:
        """Drop everything to and from ``peer`` from now on."""
        self.cut.add(peer)

    def reconnect(self, peer: str) -> None:
        """Undo ``disconnect``."""
        self.cut.discard(peer)

    def _deliver(self, sender: str, to: str, message: str) -> None:
        if sender in self.cut or to in self.cut or to not in self.endpoints:
            return
        if self.tamper is not None:
            changed = self.tamper(sender, to, message)
            if changed is None:
                return
            message = changed
        self.messages += 1
        self.bytes += len(message.encode())
        self.endpoints[to].queue.put_nowait((sender, message))

    async def settle(self, rounds: int = 3) -> None:
        """Wait until every queue is empty and every endpoint idle (a few quiet passes)."""
        quiet = 0
        while quiet < rounds:
            await asyncio.sleep(0)
            if self.failures:
                peer, error = self.failures[0]
                raise RuntimeError(f"{peer}'s receiver died: {error!r}") from error
            busy = any(e.queue.qsize() or e.busy for e in self.endpoints.values())
            quiet = 0 if busy else quiet + 1

    async def close(self) -> None:
        """Stop every endpoint's pump."""
        for endpoint in self.endpoints.values():
            await endpoint.close()


class BusEndpoint:
    """One peer's side of the bus."""

    def __init__(self, bus: InProcessBus, peer: str) -> None:
        self.bus = bus
        self.peer = peer
        self.queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.busy = False
        self._task: asyncio.Task[None] | None = None
        self._callback: Receiver | None = None

    def send(self, to: str, message: str) -> None:
        """Queue for one peer."""
        self.bus._deliver(self.peer, to, message)

    def broadcast(self, message: str) -> None:
        """Queue for every other peer."""
        for other in list(self.bus.endpoints):
            if other != self.peer:
                self.bus._deliver(self.peer, other, message)

    def on_receive(self, callback: Receiver) -> None:
        """Start pumping messages into ``callback``."""
        self._callback = callback
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            sender, message = await self.queue.get()
            self.busy = True
            try:
                if self._callback is not None:
                    await self._callback(sender, message)
            except Exception as error:  # a receiver must never raise: keep pumping, report it
                self.bus.failures.append((self.peer, error))
            finally:
                self.busy = False

    async def close(self) -> None:
        """Stop the pump."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
