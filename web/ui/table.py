"""The game table inside a room page: a ``TableSession`` on the mesh, and its panel.

Runs only under Pyodide. Crypto goes through the fastest backend that passes the start-up
self-test (WebCrypto in a browser). The tab's identity, secret bundle and running table are kept
in ``sessionStorage``, so a reload rejoins the game where it was.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from js import document, localStorage, performance, sessionStorage, window
from pyodide.ffi import JsProxy

from engine.core.model import Action
from engine.fairness.backends import select_backend
from engine.games import rules_for
from engine.protocol.players import Human
from engine.protocol.session import SessionError, TableSession, is_table_message

from . import dock, parts, table_views
from .boards import BOARDS, DEFAULT, board_for
from .idle import AfterQuiet
from .rehearsal import Rehearsal
from .room import Room

TICK_SECONDS = 0.25
DIGEST_QUIET_MS = 1000  # the digest is worked out once the table has had no redraw this long
DIGEST_WAIT_MS = 400  # and then the longest it waits for the page to be idle
EARLY_MESSAGES = 32  # table messages kept per link for a session not made yet; beyond, dropped


class TableUI:
    """One room's table: the session, its timers and the panel that shows it."""

    def __init__(self, room: Room, name: str, role: str, send: Callable[[str, str], Any]) -> None:
        self.room = room
        self.name = name
        self.role = role
        self._send = send
        self.session: TableSession | None = None
        self.backend_name = ""
        self.lang = "ru"
        self._moves: list[Action] = []
        self._ticker: asyncio.Task[None] | None = None
        self._told = parts.Told()  # the panel as last handed to the page
        # Wall-clock milliseconds when each log entry was first shown here, and when this page's
        # player clicked a move: the benchmarks read them to measure click-to-every-peer time.
        self.applied_at: list[float] = []
        self.submitted_at: list[list[float]] = []  # [click time, log length at the click]
        self._timed_game: Any = None  # the game these two lists are about (each has its own log)
        # Real time: [wall ms, author's id] when a play was first shown in flight here.
        self.in_flight_at: list[list[Any]] = []
        self.selected: list[int] = []
        self.game = DEFAULT  # the game the host has chosen in the lobby
        # What the mesh brings while ``start`` still picks the crypto backend (no session yet):
        # channels that opened, and the table messages that came over them, in arrival order.
        self._early_links: list[str] = []
        self._early_messages: list[tuple[str, dict[str, Any]]] = []
        self._turn_since = 0.0
        self._digest = AfterQuiet(self._show_digest, DIGEST_QUIET_MS, DIGEST_WAIT_MS)
        self._refusals_shown = 0
        self._rehearsal = Rehearsal()

    async def start(self, open_links: list[str]) -> None:
        """Pick the crypto backend, load or create this tab's identity, greet open channels."""
        backend = await select_backend()
        self.backend_name = backend.name
        self.session = TableSession(
            room=self.room.code,
            name=self.name,
            role=self.role,
            send=lambda link, obj: self._send(link, json.dumps(obj, ensure_ascii=False)),
            storage=sessionStorage,
            backend=backend,
            rules_for=rules_for,
            player=Human(),
            on_update=self.render,
        )
        self.session.on_play = self.show_in_flight
        for link in [*open_links, *self._early_links]:  # greeted once ``setup`` has our identity
            self.session.channel_open(link)
        for link, message in self._early_messages:
            self.session.take(link, message)
        self._early_links, self._early_messages = [], []
        await self.session.setup()
        hero = str(localStorage.getItem("mt.hero") or "")
        if hero and not self.session.hero:  # the hero this browser chose last time
            self.session.set_profile(hero, self.session.ready)
        self._ticker = asyncio.ensure_future(self._tick())
        self.render()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self._next_beat())
            if self.session is not None:
                await self.session.tick()
                self.show_countdown()

    def _next_beat(self) -> float:
        """Seconds to the next tick: the usual beat, or sooner when the peer asks (the host
        closing a real-time window on time)."""
        peer = self.session.peer if self.session else None
        wake = peer.wake_at() if peer is not None else None
        if peer is None or wake is None:
            return TICK_SECONDS
        return min(TICK_SECONDS, max(0.005, wake - peer.clock()))

    def show_countdown(self) -> None:
        """Seconds left for this seat's move, updated in place (the panel is not redrawn)."""
        element = document.getElementById("countdown")
        peer = self.session.peer if self.session else None
        if not element or peer is None:
            return
        if self.show_race(peer):
            set_text(element, "")
            return
        if not self._moves or peer.table.paused:
            set_text(element, "⏸" if peer.table.paused else "")
            return
        limit = peer.table.timer_for("action")
        left = max(0, int(limit - (wall_ms() - self._turn_since) / 1000))
        set_text(element, f"{left} s left" if self.lang == "en" else f"осталось {left} с")
        element.classList.toggle("urgent", left <= 5)

    def show_race(self, peer: Any) -> bool:
        """Real time: the quiet countdown before the spell lands, and a refused move's note."""
        note = document.getElementById("race-note")
        if note and len(peer.refused) > self._refusals_shown:
            self._refusals_shown = len(peer.refused)
            note.textContent = table_views.refusal_note(peer.refused[-1], self.lang)
            self._told.forget("race-note")  # the next redraw puts the board's own note back
        left = peer.race_left()
        if left is None:
            return False
        limit = max(1, peer.table.timer_for("action"))
        bar = document.getElementById("race-bar")
        text = document.getElementById("race-left")
        if bar:  # shrinks by transform: a width would lay out the page on every frame
            scale = f"scaleX({left / limit:.2f})"
            if bar.style.transform != scale:
                bar.style.transform = scale
        if text:
            set_text(text, "⏸" if peer.table.paused else f"{left:.1f}")
        return True

    def show_in_flight(self, author: str) -> None:
        """A real-time play seen before the host has put it in: name it in the race note at once
        (its card stays hidden until its author shows it); the next redraw replaces the note."""
        self.in_flight_at.append([wall_ms(), author])
        note = document.getElementById("race-note")
        if not note or self.session is None:
            return
        self._told.forget("race-note")  # the next redraw replaces the note
        hello = self.session.hellos.get(author)
        name = hello.name if hello is not None else "?"
        english = self.lang == "en"
        if author == self.session.tid:
            note.textContent = "✦ Your card flies…" if english else "✦ Ваша карта в полёте…"
        else:
            note.textContent = f"✦ {name} plays…" if english else f"✦ {name}: карта в полёте…"

    def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        if self.session is not None:
            self.session.close()

    # ----- mesh events --------------------------------------------------------------------

    def channel_open(self, link: str) -> None:
        if self.session is not None:
            self.session.channel_open(link)
        elif link not in self._early_links:
            self._early_links.append(link)

    def link_closed(self, link: str) -> None:
        if self.session is not None:
            self.session.link_closed(link)
        elif link in self._early_links:
            self._early_links.remove(link)
            self._early_messages = [(k, m) for k, m in self._early_messages if k != link]

    def deliver(self, link: str, message: dict[str, Any]) -> bool:
        """Hand table messages to the session (kept until it exists); False for anything else
        (chat...)."""
        if self.session is not None:
            return self.session.take(link, message)
        if not is_table_message(message):
            return False
        # Counted per link: one peer's flood must not crowd out another's hello.
        if sum(1 for k, _ in self._early_messages if k == link) < EARLY_MESSAGES:
            self._early_messages.append((link, message))
        return True

    # ----- user actions -------------------------------------------------------------------

    async def open_table(self, game: str, config: dict[str, Any], timer: int) -> None:
        """Host: seat everyone present in join order and start ``game``."""
        session = self.session
        if session is None:
            return
        order = [session.tid]
        for peer in sorted(self.room.peers.values(), key=lambda p: p.order):
            tid = session.tids.get(peer.id)
            if tid is not None:
                order.append(tid)
        try:
            await session.open_table(game, config, order, timer=timer)
        except SessionError as error:  # too few players for the game, a bad setting...
            session.errors.append(str(error))
            self.render()

    def set_hero(self, hero: str) -> None:
        if self.session is not None:
            localStorage.setItem("mt.hero", hero)
            self.session.set_profile(hero, self.session.ready)

    def toggle_ready(self) -> None:
        if self.session is not None:
            self.session.set_profile(self.session.hero, not self.session.ready)

    def choose_game(self, game: str) -> None:
        """Host: the game picked in the lobby (its own options are shown under it)."""
        self.game = game
        self.render()

    def game_id(self) -> str:
        """The running table's game, else the one chosen in the lobby."""
        peer = self.session.peer if self.session else None
        return str(peer.rules.game_id) if peer is not None else self.game

    def pick(self, slot: int) -> None:
        """Select or unselect a hand card (as many as the game's board allows now)."""
        peer = self.session.peer if self.session else None
        view = peer.view() if peer is not None else None
        limit = board_for(self.game_id()).max_selected(view or {}, self._moves)
        if slot in self.selected:
            self.selected.remove(slot)
        elif len(self.selected) < limit:
            self.selected.append(slot)
        self.render()

    async def move(self, index: int) -> None:
        if self.session is not None and 0 <= index < len(self._moves):
            entries = len(self.session.peer.table.log) if self.session.peer else 0
            click = [wall_ms(), entries]
            self.submitted_at.append(click)
            self.selected = []
            if not await self.session.submit(self._moves[index]):
                # A stale click sent nothing: nothing to time (it would borrow a later entry).
                self.submitted_at = [c for c in self.submitted_at if c is not click]

    async def host_command(self, kind: str, seat: int | None = None) -> None:
        if self.session is not None and self.session.peer is not None:
            await self.session.peer.host_command(kind, seat)
            self.render()

    # ----- rendering ----------------------------------------------------------------------

    def _stamp_shown(self) -> None:
        """Stamp each log entry the first time a redraw shows it; a new game's log starts the
        record (and the clicks') again, so its entries are not taken for the last game's."""
        session = self.session
        if session is None or session.peer is None or session.table is None:
            return
        game = session.table.get("game")
        if game != self._timed_game:
            self._timed_game = game
            self.applied_at, self.submitted_at = [], []
        while len(self.applied_at) < len(session.peer.table.log):
            self.applied_at.append(wall_ms())

    def render(self) -> None:
        panel = document.getElementById("table")
        if not panel or self.session is None:
            return
        self._stamp_shown()
        if self.session.peer is None or self.session.finished():  # a lobby shows
            self._rehearse_boards()
        moves = self.session.my_moves()
        if moves and not self._moves:
            self._turn_since = wall_ms()
        self._moves = moves
        # A selection lives only while this seat has a decision (a timer may have chosen for it).
        self.selected = [s for s in self.selected if moves and self._in_hand(s)]
        is_host = self.room.host == self.room.you
        session = self.session
        drawn = parts.Marked(
            lambda: table_views.panel(
                self.lang, session, moves, is_host, self.backend_name, self.selected, self.game
            )
        )
        told = self._told.tell(drawn, again=not panel.firstChild)
        if told is not None:
            # Only when something changed, and then only the nodes that differ (morph.js): a
            # button must not vanish under the pointer, and the browser re-lays out the changes
            # only, not the whole panel with its long log. The parts (the log, the hand) are
            # parsed and compared only when they changed, and a log that moved gets only its
            # new lines (``parts``).
            morph = getattr(window, "magicMorphParts", None)
            if morph is not None:
                morph(panel, *told, "game-log")
            else:
                panel.innerHTML = drawn.html()
                log = document.getElementById("game-log")
                if log:
                    log.scrollTop = log.scrollHeight
            dock.keep_room()
        self._digest_after_quiet()

    def _rehearse_boards(self) -> None:
        """In a lobby (before a game, or after one for the next): every game's board laid out
        once on this page, unseen, the chosen game's first (``rehearsal``), so that no page lays
        out its first board as the game starts on all of them at once."""
        games = [game for game, board in BOARDS.items() if board.render is not None]
        chosen_first = sorted(games, key=lambda g: g != self.game)
        self._rehearsal.start(chosen_first, len(self.room.peers) + 1, self.lang)

    def _digest_after_quiet(self) -> None:
        """Put the table's digest on its status line after the entries' burst, once the table has
        been quiet for ``DIGEST_QUIET_MS`` and the page is idle: each entry changes the digest,
        and working it out after every few entries (1–16 ms each) took about half a second of
        each page's thread in a three-fight tournament."""
        peer = self.session.peer if self.session else None
        if peer is not None and peer.table.known_digest() is None:
            self._digest.poke()

    def _show_digest(self) -> None:
        status = document.getElementById("table-status")
        if status and self.session is not None and self.session.peer is not None:
            status.setAttribute("data-digest", self.session.peer.table.digest())

    def _in_hand(self, slot: int) -> bool:
        peer = self.session.peer if self.session else None
        return peer is not None and slot in peer.knowledge.cards


def set_text(element: Any, text: str) -> None:
    """Change an element's text only if it differs: writing the same text still replaces its
    text node, and the browser lays out and paints the page again (four times a second)."""
    if element.textContent != text:
        element.textContent = text


def wall_ms() -> float:
    """Milliseconds since the epoch, sub-millisecond precise (same clock in every tab)."""
    return float(performance.timeOrigin + performance.now())


def element_value(element_id: str) -> str:
    """The value of a form field, or an empty string."""
    element: JsProxy = document.getElementById(element_id)
    return str(element.value) if element else ""
