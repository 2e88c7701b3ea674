"""A table session: the bridge between a room's mesh and the table protocol.

The mesh knows peers by connection ids that change when a page reloads; the table knows them by a
stable *table id* (``tid``) kept, with the peer's secret bundle, in that peer's own storage. Each
side announces itself on every newly opened channel with a ``table-hello`` carrying its tid and
public keys; the session maps tids to the current connection ids. The room's host opens a table
with ``table-open`` (game, rules, config, roster of tids and keys); then every seat runs a
``Peer`` whose messages ride in the data channel as ``{"t": "game", "g": <game id>, "m": <wire
text>}``.

A page that reloads mid-game finds its tid, bundle and table in storage, rebuilds its ``Peer`` and
asks the first table member it meets again for the log (``Peer.rejoin``).

Used alike by the browser page (storage = ``sessionStorage``, WebCrypto) and by the aiortc Python
peer (storage = a dict or file, ``cryptography``). Pure Python, no I/O of its own.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.model import Action, Rules
from engine.fairness.backends.base import CryptoBackend
from engine.protocol.bundle import SecretBundle
from engine.protocol.mesh_transport import MeshTransport
from engine.protocol.pace import yield_if_long
from engine.protocol.peer import Peer
from engine.protocol.players import Player, Waiting
from engine.protocol.session_redraw import Redraws, carries_entries
from engine.protocol.storage import Storage
from engine.protocol.table import Member

MAX_TABLE_MESSAGE = 512 * 1024


@dataclass
class Hello:
    """What one peer announced about itself on the table channel."""

    tid: str
    name: str
    role: str
    sign: bytes
    dh: bytes
    hero: str = ""
    ready: bool = False


class SessionError(ValueError):
    """A table message that cannot be accepted; it is dropped and nothing changes."""


RulesFactory = Callable[[str], Rules[Any]]


def is_table_message(message: dict[str, Any]) -> bool:
    """Whether a mesh message is the table's (``game``, ``table-*``), not chat or the room's."""
    kind = message.get("t")
    return isinstance(kind, str) and (kind == "game" or kind.startswith("table-"))


class TableSession(Redraws):
    """One peer's side of the table in a room: identity, roster, the running ``Peer``."""

    def __init__(
        self,
        *,
        room: str,
        name: str,
        role: str,
        send: Callable[[str, dict[str, Any]], Any],
        storage: Storage,
        backend: CryptoBackend,
        rules_for: RulesFactory,
        player: Player | None = None,
        on_update: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.room = room
        self.name = name
        self.role = role
        self.send = send
        self.storage = storage
        self.backend = backend
        self.rules_for = rules_for
        self.player = player or Waiting()
        self.on_update = on_update or (lambda: None)
        self._shown: tuple[Any, ...] = ()
        """What the page was last drawn with (``_marker``), when, and whether it is behind."""
        self._shown_at = float("-inf")
        self._unshown = False
        self.clock = clock
        self.tid = ""
        self.hero = ""
        self.ready = False
        self.bundle: SecretBundle | None = None
        self.hellos: dict[str, Hello] = {}  # tid -> hello
        self.links: dict[str, str] = {}  # tid -> mesh link id
        self.tids: dict[str, str] = {}  # mesh link id -> tid
        self.table: dict[str, Any] | None = None
        self.peer: Peer | None = None
        self.transport = MeshTransport(self)
        self.errors: list[str] = []
        self.rejoin_pending = False
        self.greeted: set[str] = set()
        # Each queued message with its link and the tid that link had when it came (if known).
        self._queue: asyncio.Queue[tuple[str, dict[str, Any], str | None]] = asyncio.Queue()
        self._entries_queued = 0  # how many of the queued messages carry log entries
        self._worker: asyncio.Task[None] | None = None
        # When a tick is already booked for the peer's own wake-up time (``Peer.wake_at``).
        self._wake_booked: float | None = None
        self._wake_task: asyncio.Future[None] | None = None
        # The page's hook for a real-time play seen before it is sequenced (``Peer.on_play``).
        self.on_play: Callable[[str], None] | None = None

    # ----- identity and storage --------------------------------------------------------------

    @property
    def key(self) -> str:
        return f"mt.table.{self.room}"

    async def setup(self) -> None:
        """Load this peer's tid, bundle and table from storage, or make fresh ones."""
        stored = self._load()
        if stored.get("tid") and stored.get("bundle"):
            self.tid = str(stored["tid"])
            self.bundle = SecretBundle.from_json(stored["bundle"])
            self.hero = str(stored.get("hero") or self.hero)
            self.ready = stored.get("ready") is True
        else:
            self.tid = secrets.token_hex(8)
            self.bundle = await SecretBundle.create(self.backend)
        self.hellos[self.tid] = Hello(
            self.tid,
            self.name,
            self.role,
            self.bundle.sign.public,
            self.bundle.dh.public,
            self.hero,
            self.ready,
        )
        if isinstance(stored.get("table"), dict):
            self._build_peer(stored["table"])
            self.rejoin_pending = True
        self._save()
        self._worker = asyncio.ensure_future(self._work())
        for link in sorted(self.greeted):  # channels that opened while the identity was made
            self.send(link, self.hello())

    def _load(self) -> dict[str, Any]:
        try:
            value = json.loads(self.storage.getItem(self.key) or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def _save(self) -> None:
        assert self.bundle is not None
        record: dict[str, Any] = {"tid": self.tid, "bundle": self.bundle.to_json()}
        record |= {"table": self.table, "hero": self.hero, "ready": self.ready}
        self.storage.setItem(self.key, json.dumps(record))

    def hello(self) -> dict[str, Any]:
        """The announcement sent on every newly opened channel."""
        assert self.bundle is not None
        return {
            "t": "table-hello",
            "tid": self.tid,
            "name": self.name,
            "role": self.role,
            "sign": self.bundle.sign.public.hex(),
            "dh": self.bundle.dh.public.hex(),
            "hero": self.hero,
            "ready": self.ready,
        }

    def set_profile(self, hero: str, ready: bool) -> None:
        """Choose a hero and say whether we are ready; everyone connected is told at once."""
        self.hero, self.ready = hero[:32], ready
        if self.bundle is None:  # before ``setup``: it keeps these and says them in its hellos
            return
        me = self.hellos.get(self.tid)
        if me is not None:
            me.hero, me.ready = self.hero, ready
        self._save()
        for link in self.links.values():
            self.send(link, self.hello())
        self.on_update()

    def players_ready(self) -> bool:
        """True when every player connected now is ready (spectators do not count)."""
        present = [h for tid, h in self.hellos.items() if tid == self.tid or tid in self.links]
        players = [h for h in present if h.role == "player"]
        return bool(players) and all(h.ready for h in players)

    # ----- mesh events -----------------------------------------------------------------------

    def channel_open(self, link: str) -> None:
        """A data channel to ``link`` opened: introduce ourselves (once ``setup`` has made or
        loaded our identity: a channel that opens meanwhile is greeted when it has)."""
        self.greeted.add(link)
        if self.bundle is not None:
            self.send(link, self.hello())

    def link_closed(self, link: str) -> None:
        """A mesh link went away; its tid is unreachable until it says hello again (what it sent
        before it closed keeps the tid it came with: ``deliver``)."""
        self.greeted.discard(link)
        tid = self.tids.pop(link, None)
        if tid is not None and self.links.get(tid) == link:
            del self.links[tid]

    def take(self, link: str, message: dict[str, Any]) -> bool:
        """Queue ``message`` if it belongs to the table (``is_table_message``); False if not."""
        if not is_table_message(message):
            return False
        self.deliver(link, message)
        return True

    def deliver(self, link: str, message: dict[str, Any]) -> None:
        """Queue one table message from ``link``; handled strictly in arrival order, as sent by
        the tid the link has now (or, if it has none yet, by the one its hello, queued ahead of
        the message, gives it): a link that closes meanwhile, or a new connection that comes
        back with the same link id, changes nothing of that."""
        self._queue.put_nowait((link, message, self.tids.get(link)))
        self._entries_queued += carries_entries(message)

    async def _work(self) -> None:
        while True:
            link, message, tid = await self._queue.get()
            self._entries_queued -= carries_entries(message)
            await yield_if_long()  # a burst of messages is handled a few per browser task
            try:
                await self._handle(link, message, tid)
            except SessionError as error:
                self.errors.append(f"{self.tids.get(link, link)}: {error}")
            finally:
                self._queue.task_done()
            if message.get("t") != "game":
                self._unshown = True
            if self._unshown or self._marker() != self._shown:
                self._show_soon()
            self._book_wake()

    def _book_wake(self) -> None:
        """Book a tick for the moment the peer asks for one (the host closing a real-time
        window), instead of leaving it to the page's next beat."""
        peer = self.peer
        wake = peer.wake_at() if peer is not None else None
        if peer is None or wake is None:
            return
        if self._wake_booked is not None and self._wake_booked <= wake:
            return
        self._wake_booked = wake

        def wake_up() -> None:
            self._wake_booked = None
            self._wake_task = asyncio.ensure_future(self.tick())

        asyncio.get_running_loop().call_later(max(0.0, wake - peer.clock()), wake_up)

    def _on_play(self, author: str) -> None:
        """A real-time play seen in flight: tell the page (``on_play``), if it listens."""
        if self.on_play is not None:
            self.on_play(author)

    async def settle(self) -> None:
        """Wait until every queued message has been handled (tests, bots): taken from the queue
        and its handling finished, not only taken."""
        if self._worker is not None:  # before ``setup`` nothing handles them: no wait
            await self._queue.join()
        await asyncio.sleep(0)

    async def _handle(self, link: str, message: dict[str, Any], tid: str | None) -> None:
        kind = message.get("t")
        if kind == "table-hello":
            await self._on_hello(link, message)
        elif kind == "table-open":
            await self._on_open(link, message)
        elif kind == "game":
            await self._on_game(link, message, tid)
        else:
            raise SessionError(f"unknown table message {kind!r}")

    async def _on_hello(self, link: str, message: dict[str, Any]) -> None:
        try:
            hello = Hello(
                str(message["tid"]),
                str(message["name"])[:32],
                str(message["role"]),
                bytes.fromhex(message["sign"]),
                bytes.fromhex(message["dh"]),
                str(message.get("hero", ""))[:32],
                message.get("ready") is True,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise SessionError("malformed table-hello") from error
        known = self.hellos.get(hello.tid)
        if hello.tid == self.tid or (known and (known.sign, known.dh) != (hello.sign, hello.dh)):
            raise SessionError("table-hello with someone else's table id")
        self.hellos[hello.tid] = hello
        self.links[hello.tid] = link
        self.tids[link] = hello.tid
        if link not in self.greeted:  # their hello came first: answer it
            self.channel_open(link)
        if self.table is not None and self.peer is not None:
            self.send(link, {**self._open_message(), "late": True})
            if self.rejoin_pending and hello.tid in self._member_tids():
                self.rejoin_pending = False
                await self.peer.rejoin(hello.tid)

    async def _on_open(self, link: str, message: dict[str, Any]) -> None:
        if self.table is not None and message.get("game") == self.table["game"]:
            return
        if self.table is not None and not self.finished():
            raise SessionError("a second table-open while a table runs")
        sender = self.tids.get(link)
        try:
            roster = [Member.from_json(m) for m in message["roster"]]
            table = {k: message[k] for k in ("game", "rules", "config", "timer", "roster")}
        except (KeyError, TypeError, ValueError) as error:
            raise SessionError("malformed table-open") from error
        if not roster or roster[0].peer != sender:
            raise SessionError("table-open not sent by the table's host")
        for member in roster:
            hello = self.hellos.get(member.peer)
            if hello is not None and (hello.sign, hello.dh) != (member.sign, member.dh):
                raise SessionError(f"table-open holds wrong keys for {hello.name}")
        self.close_table()  # a finished game makes way for the next one
        self._build_peer(table)
        self._save()
        if message.get("late") and self.peer is not None and sender is not None:
            # The table was already running: catch up from the log.
            await self.peer.rejoin(sender)

    async def _on_game(self, link: str, message: dict[str, Any], tid: str | None) -> None:
        sender = tid or self.tids.get(link)
        wire = message.get("m")
        if sender is None or not isinstance(wire, str) or len(wire) > MAX_TABLE_MESSAGE:
            raise SessionError("game message from an unknown peer or malformed")
        game = message.get("g")
        if not isinstance(game, str):
            raise SessionError("game message names no game")
        if game != self.table_game():
            return  # of another game: still in flight from the last one (its peer is gone)
        if self.peer is not None and self.transport.receiver is not None:
            await self.transport.receiver(sender, wire)

    # ----- the table -------------------------------------------------------------------------

    def table_game(self) -> str:
        """The id of the game the table plays now ("" before the first)."""
        return str(self.table["game"]) if self.table is not None else ""

    def _member_tids(self) -> list[str]:
        assert self.table is not None
        return [str(m["peer"]) for m in self.table["roster"]]

    def _open_message(self) -> dict[str, Any]:
        assert self.table is not None
        return {"t": "table-open", **self.table}

    def _build_peer(self, table: dict[str, Any]) -> None:
        assert self.bundle is not None
        rules = self.rules_for(str(table["rules"]))
        roster = [Member.from_json(m) for m in table["roster"]]
        self.table = table
        self.peer = Peer(
            peer_id=self.tid,
            roster=roster,
            room=self.room,
            game=str(table["game"]),
            rules=rules,
            backend=self.backend,
            transport=self.transport,
            bundle=self.bundle,
            player=self.player,
            clock=self.clock,
        )
        self.peer.on_bundle_change = lambda _bundle: self._save()
        self.peer.on_entry = self._show_if_changed
        self.peer.on_play = self._on_play

    async def open_table(
        self, rules: str, config: dict[str, Any], order: list[str], timer: int = 30
    ) -> None:
        """Host: seat everyone in ``order`` (tids) who said hello, then start the game."""
        if self.table is not None and not self.finished():
            raise SessionError("a table is already running in this room")
        members: list[Member] = []
        for tid in order:
            hello = self.hellos.get(tid)
            if hello is None:
                continue
            seated = len([m for m in members if m.seat is not None])
            seat = seated if hello.role == "player" else None
            members.append(Member(tid, seat, hello.sign, hello.dh))
        if not members or members[0].peer != self.tid:
            raise SessionError("only the first member (the host) opens the table")
        seats = len([m for m in members if m.seat is not None])
        players = [self.hellos[m.peer] for m in members if m.seat is not None]
        config = {**config, "seats": seats, "names": [h.name for h in players]}
        if all(h.hero for h in players):
            config["heroes"] = [h.hero for h in players]
        try:  # the rules say whether they can start with these players and settings
            self.rules_for(rules).new_game(config)
        except (KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"игру не начать: {exc}") from exc
        self.close_table()
        table = {
            "game": secrets.token_hex(6),
            "rules": rules,
            "config": config,
            "timer": timer,
            "roster": [m.to_json() for m in members],
        }
        self._build_peer(table)
        self._save()
        for link in list(self.links.values()):
            self.send(link, self._open_message())
        assert self.peer is not None
        await self.peer.start(config, timer=timer)
        self.on_update()

    def my_moves(self) -> list[Action]:
        """The legal moves of this peer's seat when the table waits for its action, else []."""
        peer = self.peer
        if peer is None or peer.seat is None or peer.table.stage != "play":
            return []
        racing = peer.table.racing()
        if racing is not None:
            if peer.seat not in racing.seats or peer.seat in peer.table.out:
                return []
        elif peer.table.obligations().get(peer.seat) != "action":
            return []
        return peer.rules.legal_actions(peer.table.state, peer.seat, peer.knowledge)

    async def submit(self, action: Action) -> bool:
        """The local human's move, if it is still one of the legal moves (a click may be stale):
        True when it went to the peer."""
        peer = self.peer
        if peer is None or action not in self.my_moves():
            return False
        logged = len(peer.table.log)
        await peer.submit(action)
        self._book_wake()  # the host holds its own real-time play for the window too
        if len(peer.table.log) != logged or not peer.outbox:
            self.on_update()  # the host logged it, or nothing of this peer's is on the way
        else:
            self._show_after_click()
        return True

    def finished(self) -> bool:
        """True when the table's game is over (audited) or stopped: a new one may be opened."""
        return self.peer is not None and self.peer.table.stage in ("done", "halted")

    def close_table(self) -> None:
        """Forget the table (the identity and keys stay for the next game)."""
        self.table, self.peer, self.rejoin_pending = None, None, False
        self._save()

    async def tick(self) -> None:
        """Drive the peer's timers; call every few hundred milliseconds."""
        if self.peer is not None:
            before = len(self.peer.table.log)
            await self.peer.tick()
            self._book_wake()
            if len(self.peer.table.log) != before:
                self.on_update()

    def close(self) -> None:
        """Stop handling messages."""
        if self._worker is not None:
            self._worker.cancel()
