"""The joint dice a game can roll: enough links for a long match, a clear stop past the last.

Every seat commits to a hash chain with one link per joint die (``CHAIN_LENGTH``); a die past
the end of the chains cannot be rolled. A six-seat «до двух побед» match of «Схватка» rolled a
median 370 dice with random bots (and up to 633 in 400 games), so 256 links stopped most of
them."""

from __future__ import annotations

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.fairness.randomness import (
    MARK_STRIDE,
    WALK_PART,
    HashChain,
    chain_step,
    verify_link,
)
from engine.games.rumble import RumbleRules
from engine.protocol.table_state import CHAIN_LENGTH
from tests.engine.harness import make_table, play


def walked(seed: bytes, length: int, event: int) -> bytes:
    """``h^(length-event)(seed)`` the slow way, a link at a time."""
    value = seed
    for _ in range(length - event):
        value = chain_step(value)
    return value


@pytest.mark.parametrize("length", [1, MARK_STRIDE - 1, MARK_STRIDE, 3 * MARK_STRIDE + 5])
def test_every_preimage_is_the_walked_value_and_links_to_the_last(length: int) -> None:
    seed = bytes(range(32))
    chain = HashChain(seed, length)
    assert chain.tip() == walked(seed, length, 0)
    previous = chain.tip()
    for event in range(1, length + 1):
        value = chain.preimage(event)
        assert value == walked(seed, length, event)
        assert verify_link(previous, value)
        previous = value
    assert chain.preimage(length) == seed
    with pytest.raises(ValueError, match="exhausted"):
        chain.preimage(length + 1)


def test_a_long_chain_gives_a_late_preimage_from_a_kept_value() -> None:
    """A preimage walks at most ``MARK_STRIDE`` links, not the whole chain (counted)."""
    import engine.fairness.randomness as randomness

    seed = b"\x07" * 32
    chain = HashChain(seed, CHAIN_LENGTH)
    chain.tip()  # the one full walk, kept
    links = 0
    real_step = randomness.chain_step

    def counting(value: bytes) -> bytes:
        nonlocal links
        links += 1
        return real_step(value)

    randomness.chain_step = counting
    try:
        for event in (1, 300, CHAIN_LENGTH - 1):
            links = 0
            value = HashChain(seed, CHAIN_LENGTH).preimage(event)
            assert links < MARK_STRIDE
            assert value == walked(seed, CHAIN_LENGTH, event)
    finally:
        randomness.chain_step = real_step


def test_six_seat_matches_of_random_bots_stay_far_from_the_chains_end() -> None:
    rules = RumbleRules()
    most = 0
    for seed in range(6):
        table = LocalTable(rules, {"seats": 6, "mode": "two_wins"}, seed=seed)
        bot = RandomBot(seed)
        dice = 0
        while table.decision().kind != Kind.TERMINAL:
            dice += table.decision().kind == Kind.CHANCE
            assert table.step(bot.choose)
        most = max(most, dice)
    assert 256 < most < CHAIN_LENGTH // 4


async def test_a_game_past_its_last_die_stops_every_peer_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import engine.protocol.peer_duties as duties
    import engine.protocol.table as table
    import engine.protocol.table_audit as audit
    import engine.protocol.table_setup as setup

    for module in (duties, table, audit, setup):
        monkeypatch.setattr(module, "CHAIN_LENGTH", 1)  # the toy game rolls two dice
    seats = 3
    h = await make_table(seats)
    try:
        await play(h, seats)
        reason = "the game has rolled all of its 1 joint dice"
        for peer in h.peers:
            assert peer.table.stage == "halted"
            assert peer.table.result == {"aborted": reason}
            assert peer.table.chance_event == 1
            assert peer.errors == []
        assert len({peer.table.digest() for peer in h.peers}) == 1
    finally:
        await h.bus.close()


async def test_a_walk_in_parts_pauses_and_gives_the_same_values() -> None:
    seed = b"\x09" * 32
    length = 3 * WALK_PART + 7
    pauses = 0

    async def pause() -> None:
        nonlocal pauses
        pauses += 1

    chain = HashChain(seed, length)
    await chain.walk(pause)
    assert pauses == 4
    for event in (0, 1, WALK_PART, length - 1, length):
        assert chain.preimage(event) == walked(seed, length, event)
    await HashChain(seed, length).walk(pause)
    assert pauses == 4  # kept: a second walk of the same chain does nothing


def test_a_chain_pushed_out_of_the_kept_ones_is_walked_again_and_stays_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only ``KEPT_CHAINS`` chains keep their values (the oldest kept goes first); a chain that
    lost its values gives the same preimages, walked again from its seed."""
    import engine.fairness.randomness as randomness

    monkeypatch.setattr(randomness, "_kept", {})
    length = 3 * MARK_STRIDE + 1
    chains = [HashChain(bytes([i]) * 32, length) for i in range(randomness.KEPT_CHAINS + 1)]
    first_values = [chains[0].preimage(event) for event in (0, 1, length)]
    for chain in chains[1:]:
        chain.tip()
    assert len(randomness._kept) == randomness.KEPT_CHAINS
    assert (chains[0].seed, length) not in randomness._kept
    assert (chains[-1].seed, length) in randomness._kept
    assert [chains[0].preimage(event) for event in (0, 1, length)] == first_values
    assert first_values == [walked(chains[0].seed, length, e) for e in (0, 1, length)]
    assert (chains[0].seed, length) in randomness._kept  # kept again, the oldest now gone
    assert (chains[1].seed, length) not in randomness._kept
    assert len(randomness._kept) == randomness.KEPT_CHAINS
