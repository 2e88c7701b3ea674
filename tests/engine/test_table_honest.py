"""Honest tables: 3, 6 and 8 peers play «Проба» to an audited end; views; rejoin; spectators."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.protocol.players import RandomBot
from tests.engine.harness import Harness, make_table, play


def assert_finished_clean(h: Harness) -> None:
    digests = {p.table.digest() for p in h.peers}
    assert len(digests) == 1, "peers disagree on the table"
    for peer in h.peers:
        assert peer.table.stage == "done"
        assert peer.table.result == {"ok": True, "blame": {}}
        assert peer.errors == []


def assert_views_private(h: Harness) -> None:
    for peer in h.peers:
        state = peer.table.state
        view = peer.view()
        revealed = set(state["revealed"].values())
        if peer.seat is None:
            assert view["my_cards"] == {}
            continue
        hand = {str(s) for s in state["hands"][peer.seat]}
        assert set(view["my_cards"]) <= hand
        for slot, card in peer.knowledge.cards.items():
            ever = slot < 2 * state["seats"] and (
                slot // 2 == peer.seat or state["passes"][(peer.seat - 1) % state["seats"]] == slot
            )
            assert ever or card in revealed, f"seat {peer.seat} knows slot {slot} it never held"


@pytest.mark.parametrize("seats", [3, 6, 8])
async def test_game_plays_to_an_audited_end(seats: int) -> None:
    h = await make_table(seats, spectators=1)
    await play(h, seats)
    assert_finished_clean(h)
    assert_views_private(h)
    scores = h.peers[0].view()["scores"]
    assert len(scores) == seats
    for peer in h.player_peers():
        hand = peer.table.state["hands"][peer.seat]
        assert set(hand) <= set(peer.knowledge.cards)
    await h.bus.close()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=2, max_value=4))
async def test_same_log_same_state_and_private_views(seed: int, seats: int) -> None:
    h = await make_table(
        seats, spectators=1, players={i: RandomBot(seed + i) for i in range(seats)}
    )
    await play(h, seats)
    assert_finished_clean(h)
    assert_views_private(h)
    logs = {tuple(p.table.hashes) for p in h.peers}
    assert len(logs) == 1
    await h.bus.close()


async def test_player_rejoins_after_reload_from_bundle_and_log() -> None:
    h = await make_table(3)
    # Seat 1 "reloads" as soon as its sealed choice is in the log.
    target = h.peers[1]

    def cut_after_seal(sender: str, to: str, message: str) -> str | None:
        if to == "p1" and '"t":"seal"' in message.replace('"type":"seal"', '"t":"seal"'):
            h.bus.disconnect("p1")
        return message

    h.bus.tamper = cut_after_seal
    await play(h, 3)
    assert target.table.stage == "play"
    h.bus.tamper = None
    h.bus.reconnect("p1")
    fresh = await h.reload(1)
    await h.advance(1)
    assert_finished_clean(h)
    assert fresh.table.state["opened"][1] is not None, "the rejoined seat opened its own seal"
    await h.bus.close()


async def test_host_pause_hurry_and_timer_auto_choice() -> None:
    from engine.protocol.players import Waiting

    h = await make_table(3, players={2: Waiting()})
    await play(h, 3, timer=30)
    assert h.peers[0].table.obligations() == {2: "action"}
    await h.peers[0].host_command("pause")
    await h.settle()
    await h.advance(100)
    assert h.peers[0].table.obligations() == {2: "action"}, "paused timers do not fire"
    await h.peers[0].host_command("resume")
    await h.peers[0].host_command("hurry", 2)
    await h.settle()
    assert 2 not in h.peers[0].table.obligations() or h.peers[0].table.state["phase"] != "seal"
    # Seat 2 keeps waiting in later phases: its own timer makes the automatic choice.
    for _ in range(6):
        await h.advance(31)
    assert_finished_clean(h)
    await h.bus.close()
