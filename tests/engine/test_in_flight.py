"""A real-time play is shown in flight on every peer as soon as its post arrives, before the host
has put it in the log; nothing else is."""

from __future__ import annotations

from typing import Any

import pytest

from engine.protocol.players import Player, Waiting
from tests.engine.attacks.common import signed, wire
from tests.engine.harness import DishonestSequencer, make_table
from tests.engine.race_game import PushOnce, StoneRules


@pytest.mark.parametrize("pusher_seat", [1, 0], ids=["a-player", "the-host"])
async def test_every_peer_sees_a_play_in_flight_before_it_is_logged(pusher_seat: int) -> None:
    """Anyone's play, the host's own included (the host holds it for the room's window like
    anyone's and posts it to the others), is seen once by every peer before its entry, and the
    tables agree afterwards with no post left pending."""
    pusher = PushOnce()
    players: dict[int, Player] = {i: Waiting() for i in range(3)}
    players[pusher_seat] = pusher
    h = await make_table(3, rules=StoneRules(), players=players)
    seen: dict[int, list[tuple[str, int]]] = {i: [] for i in range(3)}
    for i, peer in enumerate(h.peers):
        peer.on_play = lambda author, i=i, peer=peer: seen[i].append((author, len(peer.table.log)))
    await h.peers[0].start({"seats": 3, "hand": 2, "timers": {"scramble": 3}}, timer=30)
    await h.settle()
    author = h.peers[pusher_seat].id
    assert pusher.done
    logged = [e for e in h.peers[0].table.log if e["msg"]["body"]["t"] == "action"]
    assert [e["msg"]["from"] for e in logged] == [author]
    position = next(i for i, e in enumerate(h.peers[0].table.log) if e is logged[0])
    for i in range(3):
        assert [who for who, _ in seen[i]] == [author], (i, seen[i])
        assert seen[i][0][1] <= position
    assert all(not p.pending.posts for p in h.peers[1:])  # the post went into the log
    assert all(p.errors == [] for p in h.peers), [p.errors for p in h.peers]
    assert len({p.rules.state_hash(p.table.state) for p in h.peers}) == 1
    await h.bus.close()


class SitsOnItsOwnPlay(DishonestSequencer):
    """A host that shows its own real-time play to everyone and then never logs it."""

    def drop(self, envelope: Any) -> bool:
        return envelope.get("from") == self.id and envelope["body"].get("t") == "action"


async def test_a_host_that_shows_its_own_play_and_never_logs_it_changes_nothing() -> None:
    """The dishonest host of the in-flight post: it shows everyone its own play, then leaves it out
    of the log. That only forgoes its own move — the game goes on from the log alone, ends alike
    on every peer, and nobody else is named or blamed (a play the race has passed by is stale,
    not censored, as with anyone's)."""
    pusher = PushOnce()
    h = await make_table(
        3,
        rules=StoneRules(),
        players={0: pusher, 1: Waiting(), 2: Waiting()},
        peer_class={0: SitsOnItsOwnPlay},
    )
    await h.peers[0].start({"seats": 3, "hand": 2, "timers": {"scramble": 3}}, timer=30)
    await h.settle()
    assert pusher.done
    assert all(p.pending.posts for p in h.peers[1:]), "the others were shown the play"
    for _ in range(120):
        await h.advance(1.0)
        if all(p.table.stage == "done" for p in h.peers):
            break
    assert all(p.table.stage == "done" for p in h.peers), [p.table.stage for p in h.peers]
    actions = [e for e in h.peers[1].table.log if e["msg"]["body"]["t"] == "action"]
    assert all(e["msg"]["from"] != "p0" for e in actions), "the shown play never went in"
    assert len({p.table.digest() for p in h.peers}) == 1
    assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    assert all(p.errors == [] for p in h.peers[1:]), [p.errors for p in h.peers]
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
