"""A real-time play is shown in flight on every peer as soon as its post arrives, before the host
has put it in the log; nothing else is."""

from __future__ import annotations

from engine.protocol.players import Waiting
from tests.engine.attacks.common import signed, wire
from tests.engine.harness import make_table
from tests.engine.race_game import PushOnce, StoneRules


async def test_every_peer_sees_a_play_in_flight_before_it_is_logged() -> None:
    pusher = PushOnce()
    h = await make_table(3, rules=StoneRules(), players={0: Waiting(), 1: pusher, 2: Waiting()})
    seen: dict[int, list[tuple[str, int]]] = {i: [] for i in range(3)}
    for i, peer in enumerate(h.peers):
        peer.on_play = lambda author, i=i, peer=peer: seen[i].append((author, len(peer.table.log)))
    await h.peers[0].start({"seats": 3, "hand": 2, "timers": {"scramble": 3}}, timer=30)
    await h.settle()
    author = h.peers[1].id
    assert pusher.done
    logged = [e for e in h.peers[0].table.log if e["msg"]["body"]["t"] == "action"]
    assert [e["msg"]["from"] for e in logged] == [author]
    position = next(i for i, e in enumerate(h.peers[0].table.log) if e is logged[0])
    for i in range(3):
        # Once each, and before the play's entry was in that peer's log.
        assert [who for who, _ in seen[i]] == [author], (i, seen[i])
        assert seen[i][0][1] <= position
    assert len({p.rules.state_hash(p.table.state) for p in h.peers}) == 1


async def test_the_hosts_own_play_is_shown_in_flight_on_every_peer() -> None:
    """The host holds its own play for the room's window like anyone's; the others see it in
    flight at once, before its entry, and the table agrees afterwards."""
    pusher = PushOnce()
    h = await make_table(3, rules=StoneRules(), players={0: pusher, 1: Waiting(), 2: Waiting()})
    seen: dict[int, list[tuple[str, int]]] = {i: [] for i in range(3)}
    for i, peer in enumerate(h.peers):
        peer.on_play = lambda author, i=i, peer=peer: seen[i].append((author, len(peer.table.log)))
    await h.peers[0].start({"seats": 3, "hand": 2, "timers": {"scramble": 3}}, timer=30)
    await h.settle()
    host = h.peers[0].id
    assert pusher.done
    logged = [e for e in h.peers[0].table.log if e["msg"]["body"]["t"] == "action"]
    assert [e["msg"]["from"] for e in logged] == [host]
    position = next(i for i, e in enumerate(h.peers[0].table.log) if e is logged[0])
    for i in range(3):
        assert [who for who, _ in seen[i]] == [host], (i, seen[i])
        assert seen[i][0][1] <= position
    assert all(not p.pending.posts for p in h.peers[1:])  # the post went into the log
    assert all(p.errors == [] for p in h.peers), [p.errors for p in h.peers]
    assert len({p.rules.state_hash(p.table.state) for p in h.peers}) == 1
    await h.bus.close()


async def test_nothing_is_in_flight_outside_real_time() -> None:
    h = await make_table(3)
    seen: list[str] = []
    for peer in h.peers:
        peer.on_play = seen.append
    await h.peers[0].start({}, timer=30)
    await h.settle()
    for _ in range(20):
        await h.advance(1.0)
    actions = [e for e in h.peers[0].table.log if e["msg"]["body"]["t"] == "action"]
    assert actions and not seen


async def test_a_forged_play_is_never_shown_in_flight() -> None:
    """A peer that signs a real-time play with its own key but names another player as author is
    refused before the page hears of it: nobody can make a play appear to be someone else's."""
    h = await make_table(3, rules=StoneRules(), players={0: Waiting(), 1: Waiting(), 2: Waiting()})
    seen: list[str] = []
    for peer in h.peers:
        peer.on_play = seen.append
    await h.peers[0].start({"seats": 3, "hand": 2, "timers": {"scramble": 30}}, timer=60)
    await h.settle()
    assert all(p.table.racing_node() for p in h.peers)
    victim = h.peers[1]
    legal = victim.rules.legal_actions(victim.table.state, 1, victim.knowledge)
    assert legal
    forged = await signed(h, 2, {"t": "action", "action": legal[0]}, author=victim.id)
    h.bus.endpoints["p2"].broadcast(wire({"k": "post", "m": forged}))
    await h.settle()
    assert seen == []
    assert any(e.peer == "p2" for e in h.peers[0].errors + h.peers[1].errors)
    await h.bus.close()
