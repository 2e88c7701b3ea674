"""Departure recovery: no single player (nor a coalition below the threshold) learns a seat's
secrets from what it is dealt; false shares are caught when dealt; lying openers are named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.fairness import curve, sharing
from engine.fairness.deck import ShuffleSeed, check_key
from engine.protocol.boxes import open_box
from engine.protocol.peer import Peer
from engine.protocol.table import Table
from tests.engine.attacks.common import Never, blamed, digests
from tests.engine.harness import Harness, make_table, play


async def plaintexts_for(h: Harness, peer: Peer) -> list[bytes]:
    """Every box in the log that ``peer`` can open: a curious player reads them all."""
    table = peer.table
    found = []
    candidates: list[tuple[int, str, str]] = []
    for dealer, boxes in table.share_boxes.items():
        if peer.seat in boxes:
            candidates.append((dealer, f"share {dealer}->{peer.seat}", boxes[peer.seat]))
    for giver, receiver, box in table.boxes:
        if receiver == peer.seat:
            candidates.append((giver, f"deliver {giver}->{receiver}", box))
    for other, context, box in candidates:
        raw = await open_box(
            h.backend,
            peer.bundle.dh,
            table.seat_member(other).dh,
            table.room,
            table.game,
            context,
            box,
        )
        found.append(raw)
    return found


def seeds_from(raw: bytes) -> list[ShuffleSeed]:
    """Every way a curious player could read a plaintext as somebody's seed."""
    seeds = [ShuffleSeed(raw[:32])]
    value = int.from_bytes(raw[:32], "big")
    if 0 < value < curve.N:
        seeds.append(sharing.seeds_of(value)[0])
    try:
        inner = json.loads(json.loads(raw)["plain"])
        for key in inner["keys"].values():
            seeds.append(ShuffleSeed(bytes.fromhex(key)))
    except (ValueError, KeyError, TypeError):
        pass
    return seeds


def keys_matching(table: Table, seat: int, seeds: list[ShuffleSeed]) -> int:
    """How many of ``seat``'s slot-key commitments one of ``seeds`` opens."""
    matched = 0
    for slot in range(table.layout.total):
        digest = table.slot_commitment(seat, slot)
        if any(
            check_key(table.room, table.game, seat, slot, s.slot_key(slot), digest) for s in seeds
        ):
            matched += 1
    return matched


@pytest.mark.parametrize("seats", [3, 6])
async def test_a_player_reading_every_box_learns_no_other_seed_and_no_other_hand(
    seats: int,
) -> None:
    # Nobody moves: the table stays just after the deal, every hand still where it was dealt.
    h = await make_table(seats, players={i: Never() for i in range(seats)})
    await h.peers[0].start({"seats": seats}, timer=30)
    await h.settle()
    spy = h.peers[1]
    table = spy.table
    assert table.stage == "play" and table.state["phase"] == "seal"
    seeds: list[ShuffleSeed] = []
    for raw in await plaintexts_for(h, spy):
        seeds += seeds_from(raw)
    # One share of each other seat is all the spy holds; interpolating it alone gives nothing.
    for share in spy.shares.values():
        seeds.append(sharing.seeds_of(sharing.recover({sharing.share_x(1): share}) or 1)[0])
    for other in range(seats):
        if other != spy.seat:
            assert keys_matching(table, other, seeds) == 0, f"seat {other}'s keys leaked"
    assert set(spy.knowledge.cards) == set(table.state["hands"][1]), "it knows its own hand only"
    assert len(spy.shares) == seats - 1, "it does hold one checked share of every other seat"
    await h.bus.close()


def test_threshold_for_every_table_size() -> None:
    assert [sharing.threshold(n) for n in range(2, 9)] == [0, 2, 3, 3, 4, 5, 6]
    for n in range(3, 9):
        assert sharing.threshold(n) >= 2
        assert sharing.threshold(n) <= n - 1, "one departure can always be recovered"


async def test_below_the_threshold_the_shares_of_colluders_give_a_wrong_secret() -> None:
    h = await make_table(4)
    await h.peers[0].start({"seats": 4}, timer=30)
    await h.settle()
    victim = 3
    secret = h.bundles[victim].escrow_secret("room-1", "game-1")
    colluders = {p.seat: p.shares[victim] for p in h.peers[:2]}
    assert len(colluders) < h.peers[0].table.threshold
    guess = sharing.recover({sharing.share_x(s): v for s, v in colluders.items() if s is not None})
    assert guess != secret
    everyone = {
        sharing.share_x(p.seat): p.shares[victim] for p in h.peers[:3] if p.seat is not None
    }
    assert sharing.recover(everyone) == secret, "the threshold's worth of shares does rebuild it"
    await h.bus.close()


class BadDealer(Peer):
    """Deals seat 2 a share that is not on its polynomial."""

    def _share_to_send(self, holder: int, share: int) -> int:
        return share + 1 if holder == 2 else share


async def test_a_false_share_is_caught_when_dealt_and_the_dealer_must_publish_it() -> None:
    h = await make_table(3, peer_class={1: BadDealer})
    await play(h, 3)
    receiver = h.peers[2]
    assert any(e.peer == "p1" and "share" in e.reason for e in receiver.errors)
    table = h.peers[0].table
    assert (1, 2) in table.public_shares, "the dealer answered the complaint in public"
    assert receiver.shares[1] == table.public_shares[(1, 2)]
    assert table.stage == "done" and table.result is not None and table.result["ok"]
    assert len(digests(h)) == 1
    await h.bus.close()


class SilentBadDealer(BadDealer):
    """Deals a false share and then never answers the complaint."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        if owed.startswith("share"):
            return {"t": "share", "to": 2, "share": "11" * 32}
        return await super()._obligation_body(owed)


async def test_a_dealer_that_will_not_publish_the_share_is_named_and_set_up_stops() -> None:
    h = await make_table(3, peer_class={1: SilentBadDealer})
    await play(h, 3)
    await h.advance(200, steps=10)
    table = h.peers[0].table
    assert blamed(h, "p1")
    assert 1 in table.blame and table.stage == "halted"
    assert table.result is not None and "aborted" in table.result
    await h.bus.close()


class LyingOpener(Peer):
    """Posts a wrong share when a departed seat's secret is rebuilt."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed.startswith("escrow"):
            body["share"] = format(int(body["share"], 16) % (curve.N - 1) + 1, "064x")
        return body


class Leaver(Peer):
    """Leaves the game as soon as play begins."""

    async def _act_once(self) -> bool:
        if self.table.stage == "play" and self._once(("leave-now",)):
            await self._post({"t": "leave"})
            return True
        return await super()._act_once()


async def test_a_lying_opener_is_named_and_the_game_goes_on() -> None:
    h = await make_table(5, peer_class={4: Leaver, 2: LyingOpener})
    await play(h, 5)
    await h.advance(300, steps=20)
    table = h.peers[0].table
    assert any(e.peer == "p2" and "does not match" in e.reason for e in h.peers[0].errors)
    assert 4 in table.recovered, "three honest shares rebuilt the departed seat's secret"
    assert 2 not in table.recovery[4], "the false share never entered the log"
    assert table.stage == "done" and table.result == {"ok": True, "blame": {}}
    assert len(digests(h)) == 1
    await h.bus.close()


async def test_too_few_seats_to_recover_end_the_game_cleanly() -> None:
    h = await make_table(2, peer_class={1: Leaver})
    await play(h, 2)
    table = h.peers[0].table
    assert table.threshold == 0
    assert table.stage == "halted"
    assert table.result is not None and "too few players" in table.result["aborted"]
    assert not table.blame, "leaving is not cheating"
    await h.bus.close()
