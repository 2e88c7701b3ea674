"""Table sessions over a simulated mesh: hellos, opening a table, a whole game, a reload."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from typing import Any

import pytest

from engine.fairness.backends.native import NativeBackend
from engine.games import rules_for
from engine.protocol.peer_state import wire_text
from engine.protocol.players import RandomBot, Waiting
from engine.protocol.session import SessionError, TableSession
from engine.protocol.storage import MemoryStorage


class FakeMesh:
    """Links between sessions by mesh id; messages go through JSON like a data channel."""

    def __init__(self) -> None:
        self.sessions: dict[str, TableSession] = {}
        self.counter = 0

    def add(self, name: str, storage: MemoryStorage, seed: int, role: str = "player") -> str:
        self.counter += 1
        link = f"m{self.counter}"
        self.sessions[link] = TableSession(
            room="ROOM42",
            name=name,
            role=role,
            send=functools.partial(self._send, link),
            storage=storage,
            backend=NativeBackend(),
            rules_for=rules_for,
            player=RandomBot(seed),
        )
        return link

    def _send(self, sender: str, to: str, obj: dict[str, Any]) -> None:
        target = self.sessions.get(to)
        if target is not None:
            target.deliver(sender, json.loads(json.dumps(obj)))

    def connect_all(self) -> None:
        for a in self.sessions:
            for b in self.sessions:
                if a != b:
                    self.sessions[a].channel_open(b)

    def drop(self, link: str) -> None:
        del self.sessions[link]
        for session in self.sessions.values():
            session.link_closed(link)

    async def run(self, rounds: int = 400) -> None:
        for _ in range(rounds):
            for session in list(self.sessions.values()):
                await session.settle()
            await asyncio.sleep(0)


async def connected(*names: str) -> tuple[FakeMesh, list[str]]:
    """One session per name, set up and connected to all the others."""
    mesh = FakeMesh()
    links = [mesh.add(name, MemoryStorage(), i) for i, name in enumerate(names)]
    for link in links:
        await mesh.sessions[link].setup()
    mesh.connect_all()
    await mesh.run(3)
    return mesh, links


async def test_three_sessions_play_a_game_and_one_reloads_midway() -> None:
    mesh = FakeMesh()
    storages = [MemoryStorage() for _ in range(3)]
    names = "АБВ"
    links = [mesh.add(names[i], storages[i], i) for i in range(3)]
    for link in links:
        await mesh.sessions[link].setup()
    mesh.connect_all()
    await mesh.run(5)
    host = mesh.sessions[links[0]]
    assert len(host.hellos) == 3
    order = [mesh.sessions[link].tid for link in links]
    await host.open_table("toy", {}, order, timer=30)
    # Let the shuffle start, then reload seat 1 before the game can end.
    for _ in range(30):
        await mesh.run(1)
        seated = mesh.sessions[links[1]].peer
        if seated is not None and seated.table.stage == "play":
            break
    old = mesh.sessions[links[1]]
    assert old.peer is not None and old.table is not None
    assert old.peer.table.stage == "play"  # mid-game: dealt, not finished
    tid = old.tid
    old.close()
    mesh.drop(links[1])
    fresh_link = mesh.add("Б", storages[1], 1)
    fresh = mesh.sessions[fresh_link]
    await fresh.setup()
    assert fresh.tid == tid and fresh.peer is not None  # identity and table came from storage
    for link in (links[0], links[2]):
        fresh.channel_open(link)
        mesh.sessions[link].channel_open(fresh_link)
    await mesh.run()
    peers = [s.peer for s in mesh.sessions.values()]
    assert all(p is not None for p in peers)
    digests = {p.table.digest() for p in peers if p is not None}
    assert len(digests) == 1
    for session in mesh.sessions.values():
        assert session.peer is not None
        assert session.peer.table.stage == "done", session.peer.table.stage
        assert session.peer.table.result == {"ok": True, "blame": {}}
        assert session.errors == []


async def test_hello_with_a_stolen_table_id_is_refused() -> None:
    mesh, (a, b) = await connected("А", "Б")
    victim = mesh.sessions[a]
    forged = {**mesh.sessions[b].hello(), "tid": victim.tid}
    mesh.sessions[b].deliver(a, forged)  # someone claims A's own tid to B
    await mesh.run(3)
    assert any("someone else's table id" in e for e in mesh.sessions[b].errors)
    mesh.sessions[a].deliver(b, {"t": "table-open", "game": "x"})  # malformed open
    mesh.sessions[a].deliver(b, {"t": "nonsense"})
    await mesh.run(3)
    assert mesh.sessions[a].table is None
    assert len(mesh.sessions[a].errors) == 2


async def test_only_the_host_may_open_and_roster_keys_must_match() -> None:
    mesh, (a, b) = await connected("А", "Б")
    sa, sb = mesh.sessions[a], mesh.sessions[b]
    # B forges a table-open naming A as host: refused, since B sent it.
    roster = [
        {"peer": sa.tid, "seat": 0, "sign": sa.hello()["sign"], "dh": sa.hello()["dh"]},
        {"peer": sb.tid, "seat": 1, "sign": sb.hello()["sign"], "dh": sb.hello()["dh"]},
    ]
    open_msg = {"t": "table-open", "game": "g", "rules": "toy", "config": {}, "timer": 30}
    sa.deliver(b, {**open_msg, "roster": roster})
    await mesh.run(3)
    assert sa.table is None and "host" in sa.errors[-1]
    # A real host with a wrong key for B: B refuses it.
    roster[1]["sign"] = roster[0]["sign"]
    sb.deliver(a, {**open_msg, "roster": roster})
    await mesh.run(3)
    assert sb.table is None and "wrong keys" in sb.errors[-1]


async def test_heroes_and_ready_reach_everyone_and_go_into_the_game_config() -> None:
    mesh, (a, b) = await connected("Аня", "Боря")
    sa, sb = mesh.sessions[a], mesh.sessions[b]
    assert not sa.players_ready()
    sa.set_profile("h_3", True)
    sb.set_profile("h_5", False)
    await mesh.run(3)
    assert sa.hellos[sb.tid].hero == "h_5" and not sa.players_ready()
    sb.set_profile("h_5", True)
    await mesh.run(3)
    assert sa.players_ready() and sb.players_ready()
    await sa.open_table("toy", {}, [sa.tid, sb.tid])
    await mesh.run(3)
    assert sb.table is not None
    assert sb.table["config"]["names"] == ["Аня", "Боря"]
    assert sb.table["config"]["heroes"] == ["h_3", "h_5"]


async def test_after_a_finished_game_the_host_opens_the_next_one() -> None:
    mesh = FakeMesh()
    links = [mesh.add(name, MemoryStorage(), i) for i, name in enumerate("АБВ")]
    for link in links:
        await mesh.sessions[link].setup()
    mesh.connect_all()
    await mesh.run(5)
    host = mesh.sessions[links[0]]
    order = [mesh.sessions[link].tid for link in links]
    await host.open_table("toy", {}, order)
    # While the first game runs, a second one is refused.
    try:
        await host.open_table("toy", {}, order)
        raise AssertionError("a second table opened while the first one ran")
    except SessionError:
        pass
    await mesh.run()
    first = host.table
    assert first is not None and all(s.finished() for s in mesh.sessions.values())
    await host.open_table("toy", {}, order)
    await mesh.run()
    for session in mesh.sessions.values():
        assert session.table is not None and session.table["game"] != first["game"]
        assert session.peer is not None and session.peer.table.stage == "done"
        assert session.peer.table.result == {"ok": True, "blame": {}}


async def test_a_message_still_in_flight_from_the_last_game_is_let_go() -> None:
    """Each game frame names its game: one of the game before (a page's last checkpoint of it,
    sent as the host opened the next) reaches no peer, so it can neither be stored against the
    new game's log nor blame its honest sender; one of this game still goes through."""
    mesh, links = await connected("А", "Б", "В")
    host, guest = mesh.sessions[links[0]], mesh.sessions[links[1]]
    order = [mesh.sessions[link].tid for link in links]
    await host.open_table("toy", {}, order)
    await mesh.run()
    assert host.table is not None and guest.peer is not None
    old_game, old_log = host.table["game"], list(guest.peer.table.log)
    await host.open_table("toy", {}, order)
    await mesh.run(5)
    assert guest.peer is not None and guest.table is not None
    assert guest.table["game"] != old_game
    late = {"k": "checkpoint", "seq": 3, "hash": "0" * 64, "hsig": old_log[3]["hsig"]}
    late["host"] = order[0]
    guest.deliver(links[2], {"t": "game", "g": old_game, "m": wire_text(late)})
    await guest.settle()
    assert guest.errors == [] and not guest.peer.errors, guest.peer.errors
    assert not guest.peer.remote_checkpoints
    guest.deliver(links[2], {"t": "game", "g": guest.table["game"], "m": wire_text(late)})
    await guest.settle()
    assert [e.peer for e in guest.peer.errors] == [order[2]], guest.peer.errors
    for game in (None, 7):  # a frame that names no game is a bad client's: said, not kept
        frame = {"t": "game", "m": wire_text(late)} | ({} if game is None else {"g": game})
        guest.deliver(links[2], frame)
        await guest.settle()
        assert guest.errors[-1].endswith("game message names no game"), guest.errors
    assert len(guest.errors) == 2 and len(guest.peer.errors) == 1


async def test_a_game_that_cannot_start_with_these_players_says_why_and_keeps_the_room() -> None:
    mesh, links = await connected("А", "Б")
    host = mesh.sessions[links[0]]
    order = [mesh.sessions[link].tid for link in links]
    with pytest.raises(SessionError, match="от 3 до 8"):
        await host.open_table("circle", {}, order)
    assert host.table is None and host.peer is None
    await host.open_table("toy", {}, order)  # the room is fine for a game two can play
    assert host.peer is not None


class SlowBackend(NativeBackend):
    """Makes its keys only after the event loop has run other work (as WebCrypto does)."""

    async def generate_keypair(self) -> Any:
        await asyncio.sleep(0.01)
        return await super().generate_keypair()


async def test_a_channel_that_opens_while_the_identity_is_made_is_greeted_once_it_is() -> None:
    mesh = FakeMesh()
    a, b = mesh.add("А", MemoryStorage(), 0), mesh.add("Б", MemoryStorage(), 1)
    mesh.sessions[a].backend = SlowBackend()
    await mesh.sessions[b].setup()
    sent: list[tuple[str, dict[str, Any]]] = []
    slow = mesh.sessions[a]
    slow.send = lambda link, obj: sent.append((link, obj))
    setup = asyncio.ensure_future(slow.setup())
    await asyncio.sleep(0)
    assert slow.bundle is None  # still making its keys
    slow.channel_open(b)  # the page's channel opened meanwhile: no hello without an identity
    slow.set_profile("h1", True)  # and the player chose a hero and said ready
    assert sent == []
    await setup
    greetings = [(link, obj["t"], obj["tid"], obj["hero"], obj["ready"]) for link, obj in sent]
    assert greetings == [(b, "table-hello", slow.tid, "h1", True)]


class Drawn:
    """A page's redraws: how many, and the table entries each one showed."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.entries: list[int] = []
        session.on_update = self.draw

    def draw(self) -> None:
        peer = self.session.peer
        self.entries.append(len(peer.table.log) if peer is not None else -1)


async def test_a_burst_of_table_messages_is_drawn_once_and_every_state_is_shown_at_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Messages already waiting when one is handled are drawn together, by the one that empties
    the queue; a page is never left behind what it has handled."""
    # A slow machine must not reach the redraw that a long stream gets now and then (tested
    # below with a clock of its own).
    monkeypatch.setattr("engine.protocol.session_redraw.SHOW_AT_LEAST_EVERY", 3600.0)
    mesh, links = await connected("А", "Б", "В")
    host, guest = mesh.sessions[links[0]], mesh.sessions[links[2]]
    drawn = Drawn(guest)
    held: list[tuple[str, dict[str, Any]]] = []
    deliver = guest.deliver
    guest.deliver = lambda link, message: held.append((link, message))  # type: ignore[method-assign]
    await host.open_table("toy", {}, [mesh.sessions[link].tid for link in links], timer=30)
    bursts = 0
    for _ in range(400):
        await mesh.run(1)
        if held:
            bursts += 1
            burst, held[:] = list(held), []
            before = len(drawn.entries)
            for link, message in burst:
                deliver(link, message)
            await guest.settle()
            assert len(drawn.entries) - before <= 1, (len(burst), drawn.entries[before:])
            assert guest._marker() == guest._shown and not guest._unshown  # nothing left undrawn
        if guest.peer is not None and guest.peer.table.stage == "done" and not held:
            break
    assert guest.peer is not None and guest.peer.table.result == {"ok": True, "blame": {}}
    assert bursts > 5 and len(drawn.entries) < len(guest.peer.table.log)


def test_a_long_stream_of_messages_still_redraws_now_and_then() -> None:
    clock = [0.0]
    session = TableSession(
        room="ROOM42", name="А", role="player", send=lambda to, obj: None,
        storage=MemoryStorage(), backend=NativeBackend(), rules_for=rules_for,
        clock=lambda: clock[0],
    )  # fmt: skip
    drawn = Drawn(session)
    session.deliver("m1", {"t": "game", "m": wire_text({"k": "entry", "e": {"seq": 1}})})
    session._show_soon()  # the first redraw is never held back
    session._show_soon()  # an entry waits and the last redraw is recent: held back
    assert len(drawn.entries) == 1 and session._unshown
    clock[0] += 0.05
    session._show_soon()
    assert len(drawn.entries) == 1
    clock[0] += 0.06  # past SHOW_AT_LEAST_EVERY since the last redraw
    session._show_soon()
    assert len(drawn.entries) == 2 and not session._unshown
    session._queue.get_nowait()
    session._entries_queued -= 1  # as the worker does when it takes the entry
    session._show_soon()  # nothing waits: drawn at once
    assert len(drawn.entries) == 3


def test_only_waiting_entries_hold_a_redraw_back() -> None:
    """A post or a checkpoint waiting behind an entry changes nothing the page shows: the entry
    is drawn at once. Waiting entries (one by one or a sync's batch) are drawn together."""
    session = TableSession(
        room="ROOM42", name="А", role="player", send=lambda to, obj: None,
        storage=MemoryStorage(), backend=NativeBackend(), rules_for=rules_for,
        clock=lambda: 0.0,
    )  # fmt: skip
    drawn = Drawn(session)
    session._show_soon()
    for kind in ("post", "checkpoint", "refused"):
        session.deliver("m1", {"t": "game", "m": wire_text({"k": kind, "m": {"seq": 1}})})
    session.deliver("m1", {"t": "table-hello"})
    session._show_soon()
    assert len(drawn.entries) == 2 and not session._unshown
    for kind in ("entry", "entries"):
        session.deliver("m1", {"t": "game", "m": wire_text({"k": kind, "e": {"seq": 2}})})
        session._show_soon()
        assert len(drawn.entries) == 2 and session._unshown
        session._entries_queued = 0


async def human_turn(*names: str) -> tuple[FakeMesh, list[TableSession]]:
    """A «Проба» table of people (``Waiting``) at the first moment one of them may click."""
    mesh, links = await connected(*names)
    sessions = [mesh.sessions[link] for link in links]
    for session in sessions:
        session.player = Waiting()
    await sessions[0].open_table("toy", {}, [s.tid for s in sessions], timer=600)
    for _ in range(50):
        await mesh.run(2)
        if any(s.my_moves() for s in sessions):
            return mesh, sessions
    raise AssertionError("nobody was asked to move")


async def guests_turn() -> TableSession:
    """A two-seat «Проба» of people, the host's moves made until the guest may click: the guest."""
    mesh, sessions = await human_turn("А", "Б")
    while not sessions[1].my_moves():
        await sessions[0].submit(sessions[0].my_moves()[0])
        await mesh.run(2)
    return sessions[1]


async def test_a_guests_click_is_drawn_by_its_entry_and_the_hosts_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guest's click is not redrawn on its own (that redraw would hold up the entry the host
    sends straight back): the entry's redraw shows it. The host logs its click at once and draws."""
    monkeypatch.setattr("engine.protocol.session_redraw.SHOW_CLICK_WITHIN", 3600.0)
    mesh, sessions = await human_turn("А", "Б", "В")
    while not any(s.my_moves() for s in sessions[1:]) or sessions[0].my_moves():
        mover = next(s for s in sessions if s.my_moves())
        await mover.submit(mover.my_moves()[0])
        await mesh.run(2)
    guest = next(s for s in sessions[1:] if s.my_moves())
    assert guest.peer is not None
    drawn, logged = Drawn(guest), len(guest.peer.table.log)
    await guest.submit(guest.my_moves()[0])
    assert drawn.entries == [] and guest.peer.outbox  # sent, not drawn yet
    await mesh.run(2)
    assert drawn.entries and drawn.entries[0] > logged  # the first redraw holds the entry
    for _ in range(50):
        if sessions[0].my_moves():
            break
        mover = next(s for s in sessions if s.my_moves())
        await mover.submit(mover.my_moves()[0])
        await mesh.run(2)
    host = sessions[0]
    assert host.peer is not None
    drawn, logged = Drawn(host), len(host.peer.table.log)
    await host.submit(host.my_moves()[0])
    assert drawn.entries and drawn.entries[0] > logged


async def test_a_guests_click_whose_entry_is_slow_is_drawn_after_a_moment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("engine.protocol.session_redraw.SHOW_CLICK_WITHIN", 0.05)
    guest = await guests_turn()
    guest.deliver = lambda link, message: None  # type: ignore[method-assign]  # host silent
    drawn = Drawn(guest)
    await guest.submit(guest.my_moves()[0])
    assert drawn.entries == []
    await asyncio.sleep(0.1)
    assert len(drawn.entries) == 1


async def test_the_panel_shows_the_digest_once_it_is_known_and_a_finished_tables_at_once() -> None:
    """The digest (a hash of the whole state) is not worked out in every redraw: while playing,
    the panel carries it once the page has computed it (when idle); a finished table's always."""
    from web.ui import table_views

    def shown(session: TableSession) -> str | None:
        html = table_views.panel("ru", session, [], False, "native", game="toy")
        found = re.search(r'id="table-status"[^>]*?data-digest="(\w+)"', html)
        return found.group(1) if found else None

    mesh, links = await connected("А", "Б", "В")
    host, guest = mesh.sessions[links[0]], mesh.sessions[links[2]]
    await host.open_table("toy", {}, [mesh.sessions[link].tid for link in links], timer=30)
    for _ in range(50):
        await mesh.run(1)
        if guest.peer is not None and guest.peer.table.stage == "play":
            break
    assert guest.peer is not None and guest.peer.table.result is None
    table = guest.peer.table
    table._digest = None
    assert table.known_digest() is None and shown(guest) is None
    digest = table.digest()
    assert table.known_digest() == digest and shown(guest) == digest
    await mesh.run()
    assert table.stage == "done" and table.result is not None
    table._digest = None
    assert shown(guest) == table.digest() == host.peer.table.digest()  # type: ignore[union-attr]


async def test_what_a_link_sent_before_it_closed_is_still_handled_as_its() -> None:
    """A page that reloads closes its link while its last messages still wait in the others'
    queues: they are handled as that member's (not refused as a stranger's). A new connection
    that comes back with the same link id and no hello is a stranger: what it sends is refused,
    not taken as the member's."""
    mesh, links = await connected("А", "Б")
    host, guest = mesh.sessions[links[0]], mesh.sessions[links[1]]
    held: list[tuple[str, dict[str, Any]]] = []
    deliver = host.deliver
    host.deliver = lambda link, message: held.append((link, message))  # type: ignore[method-assign]
    await host.open_table("toy", {}, [host.tid, guest.tid], timer=30)
    for _ in range(20):
        await mesh.run(1)
        if held:
            break
    assert held and all(link == links[1] for link, _ in held)
    assert host.peer is not None
    logged = len(host.peer.table.log)
    for link, message in held:
        deliver(link, message)
    host.link_closed(links[1])  # before the worker has taken any of them
    await host.settle()
    assert host.errors == [] and len(host.peer.table.log) > logged
    deliver(links[1], held[0][1])  # the same frame again, from a new connection on that id
    await host.settle()
    assert len(host.errors) == 1 and "unknown peer" in host.errors[0], host.errors


async def test_a_second_click_on_a_move_on_its_way_is_not_kept_for_the_next_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page is not redrawn at a guest's click, so its buttons stay until the entry comes
    back: a second click then is dropped, not left to be played at the seat's next decision."""
    monkeypatch.setattr("engine.protocol.session_redraw.SHOW_CLICK_WITHIN", 3600.0)
    guest = await guests_turn()
    assert guest.peer is not None
    move = guest.my_moves()[0]
    await guest.submit(move)
    assert guest.peer.outbox and guest.my_moves()  # on its way; the same buttons still
    await guest.submit(move)
    assert guest.peer.submitted == []


async def test_a_stale_click_sends_nothing_and_says_so() -> None:
    """A click on a move that is no longer offered (the state moved on) goes nowhere; ``submit``
    says whether it went, so the page times only the clicks that did."""
    guest = await guests_turn()
    assert guest.peer is not None
    move = guest.my_moves()[0]
    assert await guest.submit({**move, "stale": True}) is False
    assert guest.peer.outbox == {}
    assert await guest.submit(move) is True
    assert guest.peer.outbox
