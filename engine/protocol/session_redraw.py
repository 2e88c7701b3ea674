"""When a table session asks its page to redraw: at once for a lone entry, once for a burst of
entries, a moment after a guest's own click (its entry's redraw shows it), and never less often
than every ``SHOW_AT_LEAST_EVERY`` while messages keep coming."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.protocol.peer import Peer

# Seconds: while table messages keep coming, the page still redraws at least this often.
SHOW_AT_LEAST_EVERY = 0.1
# Seconds: a guest's click is drawn by the redraw of its entry, which the host sends back within
# a few milliseconds (a redraw right after the click would hold up that entry on this page, the
# slowest to show it); should the entry be slow, the page is redrawn this long after the click.
SHOW_CLICK_WITHIN = 0.1


def carries_entries(message: dict[str, Any]) -> bool:
    """Whether a queued table message holds log entries (``entry``, ``entries``): told by its
    wire text's last key (canonical JSON sorts ``k`` after ``e``), without parsing it. Only the
    redraw's timing reads this; a frame that lies about it is refused when it is parsed."""
    wire = message.get("m")
    return isinstance(wire, str) and wire.endswith(('"k":"entry"}', '"k":"entries"}'))


class Redraws:
    """The session's redraw timing (``TableSession`` holds the fields it reads)."""

    peer: Peer | None
    errors: list[str]
    clock: Callable[[], float]
    on_update: Callable[[], None]
    _shown: tuple[Any, ...]
    _shown_at: float
    _unshown: bool
    _entries_queued: int

    def _show(self) -> None:
        """Tell the page to redraw, remembering what it has shown."""
        self._shown = self._marker()
        self._unshown = False
        self._shown_at = self.clock()
        self.on_update()

    def _show_soon(self) -> None:
        """Redraw now, unless more log entries already wait and the last redraw is recent: then
        the last of them draws them all at once (a burst of entries costs one redraw, not one
        each). Other messages waiting (posts, checkpoints) do not hold up the redraw."""
        if self._entries_queued > 0 and self.clock() - self._shown_at < SHOW_AT_LEAST_EVERY:
            self._unshown = True
            return
        self._show()

    def _show_if_changed(self) -> None:
        """An accepted entry: redraw, unless it changed nothing the page shows (a move whose
        cards are still to come, so the redraw does not delay its author's card keys)."""
        if self._marker() != self._shown:
            self._show_soon()

    def _marker(self) -> tuple[Any, ...]:
        """What a game message can change that the page shows (a checkpoint changes nothing)."""
        peer = self.peer
        if peer is None:
            return (len(self.errors),)
        table = peer.table
        return (
            len(self.errors),
            # A logged move that still waits for its cards shows nothing new yet.
            len(table.log) - len(table.awaiting),
            table.stage,
            table.paused,
            len(peer.errors),
            len(peer.refused),
            peer.halted,
            peer.catching_up,
        )

    def _show_after_click(self) -> None:
        """Redraw ``SHOW_CLICK_WITHIN`` seconds from now, unless the page is redrawn before."""
        asked = self.clock()

        def show() -> None:
            if self._shown_at < asked:
                self._show()

        asyncio.get_running_loop().call_later(SHOW_CLICK_WITHIN, show)
