"""Real time through the fair-play protocol: RACE decisions, crossing actions, the countdown."""

from __future__ import annotations

from typing import Any

from engine.core.model import Action
from engine.protocol.players import Human, Waiting
from tests.engine.harness import Harness, make_table
from tests.engine.race_game import PushOnce, StoneRules


async def stone_table(
    seats: int, players: dict[int, Any], countdown: int = 3, hand: int = 2
) -> Harness:
    h = await make_table(seats, rules=StoneRules(), players=players)
    config = {"seats": seats, "hand": hand, "timers": {"scramble": countdown}}
    await h.peers[0].start(config, timer=30)
    await h.settle()
    return h


def states(h: Harness) -> set[str]:
    return {p.rules.state_hash(p.table.state) for p in h.peers}


async def test_actions_fired_at_the_same_instant_are_ordered_and_the_late_ones_refused() -> None:
    h = await stone_table(4, {i: PushOnce() for i in range(4)})
    # Everyone pushed at the very first moment; the host's sequencer took one push per stone
    # position, and a push made on a position that had moved on was refused.
    pushes = h.peers[0].table.state["shown"]
    refused = sum(len(p.refused) for p in h.peers)
    assert len(pushes) >= 1 and refused >= 1
    assert len(pushes) + refused == 4
    assert len(states(h)) == 1, "every peer holds the same state"
    assert not any(p.errors for p in h.peers), [e for p in h.peers for e in p.errors][:3]
    assert not any(p.outbox for p in h.peers), "refused moves do not wait forever"
    for peer in h.peers:
        if peer.refused:
            hand = peer.table.state["hands"][str(peer.seat)]
            assert len(hand) == 2, "a refused card stays in hand"
            assert "earlier round" in peer.refused[0]
    # Nothing settles before the quiet countdown runs out, then the host settles.
    await h.advance(2.0)
    assert h.peers[0].table.state["loser"] is None
    await h.advance(1.5)
    loser = h.peers[0].table.state["loser"]
    assert loser == h.peers[0].table.state["stone"]
    await h.advance(1.0)
    assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    assert {p.table.digest() for p in h.peers} == {h.peers[0].table.digest()}
    await h.bus.close()


async def test_every_action_resets_the_countdown_and_a_pause_holds_it() -> None:
    h = await stone_table(3, {i: Waiting() for i in range(3)}, countdown=4)
    await h.advance(3.0)
    peer = h.peers[1]
    left = peer.race_left()
    assert left is not None and 0.5 < left <= 1.0
    action = peer.rules.legal_actions(peer.table.state, 1, peer.knowledge)[0]
    await peer.submit(action)
    await h.settle()
    assert h.peers[0].table.state["step"] == 1
    await h.advance(3.0)
    assert h.peers[0].table.state["loser"] is None, "the push restarted the countdown"
    await h.peers[0].host_command("pause")
    await h.settle()
    await h.advance(10.0, steps=5)
    assert h.peers[0].table.state["loser"] is None, "no settling while paused"
    await h.peers[0].host_command("resume")
    await h.settle()
    await h.advance(5.0, steps=2)
    assert {p.table.state["loser"] for p in h.peers} == {1}
    await h.bus.close()


async def test_a_race_with_nobody_able_to_act_settles_at_once() -> None:
    class PushAll(PushOnce):
        async def choose(self, *args: Any) -> Action | None:
            legal = args[-1]
            return legal[0] if legal else None

    h = await stone_table(2, {0: PushAll(), 1: PushAll()}, countdown=60)
    for _ in range(5):
        await h.advance(0.1)
    state = h.peers[0].table.state
    assert all(not hand for hand in state["hands"].values())
    assert state["loser"] == state["stone"] == len(state["shown"]) % 2
    await h.bus.close()


async def test_a_human_is_never_played_for_in_real_time() -> None:
    # One card each: elsewhere a Human makes a move that has no alternative at once; in real time
    # waiting is always an alternative.
    h = await stone_table(2, {0: Human(), 1: Human()}, hand=1)
    legal = h.peers[0].rules.legal_actions(h.peers[0].table.state, 0, h.peers[0].knowledge)
    assert len(legal) == 1
    await h.advance(1.0)
    assert h.peers[0].table.state["step"] == 0
    await h.bus.close()


async def test_a_forged_show_is_refused_and_blamed() -> None:
    h = await stone_table(3, {i: Waiting() for i in range(3)})
    peer = h.peers[2]
    # Showing a card of someone else's hand is refused before it is logged.
    other = h.peers[1].table.state["hands"]["1"][0]
    stolen = {"type": "push", "seat": 2, "slot": other, "show": [other], "step": 0}
    await peer._post({"t": "action", "action": stolen})
    await h.settle()
    assert peer.refused and "not a card this seat holds" in peer.refused[0]
    assert not h.peers[0].table.awaiting
    # Its own card with a forged key: the move is logged, the forged keys are refused.
    honest_keys = peer._keys_hex

    def forged(slot: int) -> dict[str, str]:
        return {**honest_keys(slot), "0": "11" * 32}

    peer._keys_hex = forged  # type: ignore[method-assign]
    action = peer.rules.legal_actions(peer.table.state, 2, peer.knowledge)[0]
    await peer.submit(action)
    await h.settle()
    table = h.peers[0].table
    assert table.state["step"] == 0 and 2 in table.awaiting
    errors = h.peers[0].errors
    assert any(e.peer == "p2" and "does not match its commitment" in e.reason for e in errors)
    await h.advance(100, steps=10)
    assert 2 in table.out and 2 in table.blame, "a seat that cannot show its card is put out"
    await h.bus.close()


async def test_a_bot_with_reflexes_answers_a_state_only_after_its_reaction_time() -> None:
    from engine.protocol.players import Reflexes

    h = await make_table(2, rules=StoneRules(), players={0: Waiting(), 1: Waiting()})
    h.peers[1].player = Reflexes(PushOnce(), 0.8, h.clock)
    await h.peers[0].start({"seats": 2, "timers": {"scramble": 5}}, timer=30)
    await h.settle()
    await h.advance(0.5)
    assert h.peers[0].table.state["step"] == 0, "too quick for a person"
    await h.advance(0.5)
    assert h.peers[0].table.state["shown"][0][0] == 1
    await h.bus.close()


async def test_a_silent_host_in_real_time_is_replaced_and_the_spell_still_lands() -> None:
    h = await stone_table(3, {i: Waiting() for i in range(3)}, countdown=3)
    h.bus.disconnect("p0")
    survivors = h.peers[1:]
    for _ in range(12):
        await h.advance(2.0)
        if all(p.table.state["loser"] is not None for p in survivors):
            break
    assert all(p.host == "p1" for p in survivors)
    assert {p.table.state["loser"] for p in survivors} == {0}
    assert {p.table.digest() for p in survivors} == {survivors[0].table.digest()}
    await h.bus.close()
