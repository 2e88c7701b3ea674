"""Mid-game re-shuffle of revealed slots: LocalTable, deck level, and the table protocol.

The protocol tests play «Проба» with ``{"reshuffle": true}``: the opened seals and the top card are
revealed, go back face down in two consecutive re-shuffles, are dealt again, sealed, opened and the
last one revealed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from engine.core.local_table import LocalTable
from engine.core.model import (
    JSON,
    Action,
    Decision,
    IllegalAction,
    Kind,
    Knowledge,
    Rules,
)
from engine.fairness import curve
from engine.fairness.backends.native import NativeBackend
from engine.fairness.deck import (
    DeckError,
    DeckTranscript,
    ShuffleSeed,
    audit_deck,
    card_points,
    pass_one,
    pass_two,
    slot_commitments,
    unmask_many,
)
from engine.protocol.peer import Peer
from engine.protocol.players import Player, RandomBot
from tests.engine.harness import Harness, make_table, waiting_on

ROOM, GAME = "room-1", "game-1"

# ----- LocalTable ---------------------------------------------------------------------------


class Recycle(Rules[dict[str, Any]]):
    """Two seats get two cards each, all four are revealed, re-shuffled and dealt the other way."""

    game_id = "recycle"

    def new_game(self, config: Mapping[str, JSON]) -> dict[str, Any]:
        return {"step": "reveal", "hands": [[0, 1], [2, 3]], "known": {}}

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        return {"main": ["a", "b", "c", "d", "e", "f"]}

    def visible_slots(self, state: dict[str, Any], seat: int) -> frozenset[int]:
        return frozenset(state["hands"][seat])

    def decision(self, state: dict[str, Any]) -> Decision:
        if state["step"] == "reveal":
            return Decision(Kind.REVEAL, slots=(0, 1, 2, 3), deck="main", phase="reveal")
        if state["step"] == "recycle":
            return Decision(Kind.RESHUFFLE, slots=(3, 1, 0, 2), deck="main", phase="recycle")
        return Decision(Kind.TERMINAL)

    def legal_actions(self, state: dict[str, Any], seat: int, knowledge: Knowledge) -> list[Action]:
        return []

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        new = {"step": state["step"], "hands": state["hands"], "known": dict(state["known"])}
        if action["type"] == "reveal" and state["step"] == "reveal":
            new["known"] = dict(action["cards"])
            new["step"] = "recycle"
        elif action["type"] == "reshuffled" and state["step"] == "recycle":
            if action["slots"] != [0, 1, 2, 3]:
                raise IllegalAction("reshuffled names other slots")
            new["known"] = {}
            new["hands"] = [[2, 3], [0, 1]]
            new["step"] = "over"
        else:
            raise IllegalAction("unexpected")
        return new

    def view(self, state: dict[str, Any], knowledge: Knowledge) -> JSON:
        return dict(state)

    def to_json(self, state: dict[str, Any]) -> JSON:
        return dict(state)


def test_local_table_permutes_the_slots_and_every_seat_forgets_them() -> None:
    rules = Recycle()
    table = LocalTable(rules, {"seats": 2}, seed=7)
    before = dict(table.slot_card)
    table.play(lambda *args: {})
    assert table.history[-1] == {"type": "reshuffled", "slots": [0, 1, 2, 3]}
    after = table.slot_card
    assert Counter(after[s] for s in range(4)) == Counter(before[s] for s in range(4))
    assert all(after[s] == before[s] for s in (4, 5)), "slots outside the list stay"
    for seat, hand in ((0, [2, 3]), (1, [0, 1])):
        assert table.knowledge[seat].cards == {s: after[s] for s in hand}


def test_local_table_moves_cards_for_some_seed() -> None:
    moved = False
    for seed in range(10):
        table = LocalTable(Recycle(), {"seats": 2}, seed=seed)
        before = dict(table.slot_card)
        table.play(lambda *args: {})
        moved = moved or any(table.slot_card[s] != before[s] for s in range(4))
    assert moved


# ----- deck level ---------------------------------------------------------------------------


class StaleSlotKeys(ShuffleSeed):
    """A seed whose slot keys ignore the epoch: re-uses the initial shuffle's keys."""

    def slot_key(self, slot: int, epoch: int = 0) -> int:
        return super().slot_key(slot, 0)


class StaleDeckKey(ShuffleSeed):
    """A seed whose deck key and permutation ignore the epoch (the initial shuffle's again)."""

    def deck_key(self, deck: str, epoch: int = 0) -> int:
        return super().deck_key(deck, 0)

    def permutation(self, deck: str, size: int, epoch: int = 0) -> list[int]:
        return super().permutation(deck, size, 0)


def test_epoch_keys_are_fresh_and_epoch_zero_is_unchanged() -> None:
    seed = ShuffleSeed(bytes(range(32)))
    assert seed.slot_key(5) == curve.scalar_from_bytes(b"slot-key", seed.seed, b"5")
    keys = {seed.slot_key(5, epoch) for epoch in range(4)}
    assert len(keys) == 4
    assert seed.deck_key("main", 1) != seed.deck_key("main", 0)
    assert seed.slot_key(15, 1) != seed.slot_key(1, 51), "slot and epoch fields do not run together"


async def _reshuffle(
    seeds: list[ShuffleSeed], seats: list[int], slots: list[int], points: list[int]
) -> DeckTranscript:
    backend = NativeBackend()
    transcript = DeckTranscript("main", slots[0], points, [], [], [], 3, slots, seats)
    current = points
    for seed in seeds:
        current = await pass_one(backend, seed, "main", current, 3)
        transcript.pass1.append(current)
    for seat, seed in zip(seats, seeds, strict=True):
        current = await pass_two(backend, seed, "main", 0, current, slots=slots, epoch=3)
        transcript.pass2.append(current)
        commits = slot_commitments(ROOM, GAME, seat, seed, 0, len(slots), slots=slots, epoch=3)
        transcript.commitments.append(commits)
    return transcript


async def test_reshuffle_transcript_unmasks_to_the_same_cards_and_audits() -> None:
    cards = ["a", "b", "c", "d", "e"]
    points = card_points(ROOM, GAME, "main", cards)
    table = dict(zip(points, cards, strict=True))
    seeds = [ShuffleSeed(bytes([s + 1]) * 32) for s in (0, 2)]
    slots = [3, 7, 8, 20, 21]
    transcript = await _reshuffle(seeds, [0, 2], slots, points)
    items = [
        (x, [seed.slot_key(slot, 3) for seed in seeds])
        for slot, x in zip(slots, transcript.final, strict=True)
    ]
    found = await unmask_many(NativeBackend(), items, table)
    assert sorted(c or "" for c in found) == cards
    await audit_deck(NativeBackend(), ROOM, GAME, transcript, seeds)


@pytest.mark.parametrize("cheat", [StaleSlotKeys, StaleDeckKey])
async def test_audit_names_a_seat_that_reused_old_keys_in_a_reshuffle(cheat: type) -> None:
    cards = ["a", "b", "c", "d"]
    points = card_points(ROOM, GAME, "main", cards)
    honest = ShuffleSeed(bytes([1]) * 32)
    cheater = cheat(bytes([9]) * 32)
    transcript = await _reshuffle([honest, cheater], [1, 4], [0, 1, 2, 3], points)
    with pytest.raises(DeckError) as caught:
        await audit_deck(
            NativeBackend(), ROOM, GAME, transcript, [honest, ShuffleSeed(cheater.seed)]
        )
    assert caught.value.seat == 4


# ----- table protocol -----------------------------------------------------------------------


class HoldAt:
    """A random bot that waits in one phase until released."""

    def __init__(self, seed: int, phase: str) -> None:
        self.bot = RandomBot(seed)
        self.phase = phase
        self.released = False

    async def choose(self, rules: Any, state: Any, seat: int, knowledge: Any, legal: Any) -> Any:
        if state["phase"] == self.phase and not self.released:
            return None
        return await self.bot.choose(rules, state, seat, knowledge, legal)


async def _start(h: Harness, seats: int) -> None:
    await h.peers[0].start({"seats": seats, "reshuffle": True}, timer=30)
    await h.settle()


def _truth(h: Harness, slot: int) -> tuple[int, list[int]]:
    """Final masked x of a slot and every key unmasking it, from all seeds (omniscient)."""
    table = h.peers[0].table
    epoch = table.epoch(slot)
    seeds = [b.shuffle_seed(ROOM, GAME) for b in h.bundles]
    return table.final_x(slot), [seeds[s].slot_key(slot, epoch) for s in table.slot_seats(slot)]


def assert_clean_end(h: Harness) -> None:
    assert len({p.table.digest() for p in h.peers}) == 1, "peers disagree on the table"
    for peer in h.peers:
        assert peer.table.stage == "done"
        assert peer.table.result == {"ok": True, "blame": {}}
        assert peer.errors == []


@pytest.mark.parametrize("seats", [3, 6])
async def test_reshuffled_slots_are_secret_again_and_dealt_privately(seats: int) -> None:
    holds: dict[int, Player] = {s: HoldAt(s, "reopen") for s in range(seats)}
    h = await make_table(seats, spectators=1, players=holds)
    await _start(h, seats)
    table = h.peers[0].table
    state = table.state
    assert state["phase"] == "reopen"
    recycled = state["recycled"]
    assert len(table.reshuffles) == 2, "two consecutive re-shuffles at one node"
    assert [t.slots for t in table.reshuffles] == [
        recycled[: len(recycled) // 2],
        recycled[len(recycled) // 2 :],
    ]
    old = {slot: (epoch, x) for slot, epoch, x in table.past_reveals}
    assert sorted(old) == recycled
    assert not set(recycled) & set(table.revealed), "re-shuffled slots are no longer public"
    old_final = {table.final_x(slot, epoch) for slot, (epoch, _) in old.items()}
    old_points = {x for _, x in old.values()}
    truth = {}
    for slot in recycled:
        assert table.epoch(slot) >= 1
        new_x = table.final_x(slot)
        assert new_x not in old_final and new_x not in old_points, "maps back to an old card"
        final, keys = _truth(h, slot)
        (card,) = await unmask_many(h.backend, [(final, keys)], table.cards)
        assert card is not None
        truth[slot] = card
    old_cards = Counter(table.cards[x] for x in old_points)
    assert Counter(truth.values()) == old_cards, "the same cards, in a new order"
    for peer in h.peers:
        assert peer.table.digest() == table.digest()
        recycled_known = {s: c for s, c in peer.knowledge.cards.items() if s in recycled}
        if peer.seat is None:
            assert recycled_known == {}
            continue
        mine = state["redealt"][peer.seat]
        expected = {} if mine is None else {mine: truth[mine]}
        assert recycled_known == expected, f"seat {peer.seat} knows only its own new card"
        view = peer.view()
        assert set(view["my_cards"]) <= {str(s) for s in state["hands"][peer.seat]}
    for hold in holds.values():
        assert isinstance(hold, HoldAt)
        hold.released = True
    await h.advance(1)
    assert_clean_end(h)
    final_state = h.peers[0].table.state
    for seat in range(seats):
        if final_state["redealt"][seat] is not None:
            assert final_state["opened2"][seat] == truth[final_state["redealt"][seat]]
    assert final_state["top2"] == truth[final_state["top2_slot"]]
    await h.bus.close()


class DuplicateInReshuffle(Peer):
    """Publishes a re-shuffle pass 1 with one card twice."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed.startswith("reshuffle1"):
            body["xs"][1] = body["xs"][0]
        return body


class ReusesOldKeys(Peer):
    """Keys its re-shuffle pass 2 with the initial shuffle's slot keys."""

    async def _reshuffle_body(self, owed: str, seed: ShuffleSeed) -> dict[str, Any]:
        if owed.startswith("reshuffle2"):
            seed = StaleSlotKeys(seed.seed)
        return await super()._reshuffle_body(owed, seed)


@pytest.mark.parametrize(
    ("cheat", "reason"),
    [(DuplicateInReshuffle, "duplicated"), (ReusesOldKeys, "re-uses its key")],
)
async def test_cheating_reshuffle_pass_is_refused_named_and_the_game_goes_on(
    cheat: type[Peer], reason: str
) -> None:
    h = await make_table(3, peer_class={1: cheat})
    await _start(h, 3)
    host = h.peers[0]
    assert any(e.peer == "p1" and reason in e.reason for e in host.errors), host.errors
    assert host.table.state["phase"] == "recycle"
    assert host.table.obligations() == {1: f"reshuffle{1 if 'dup' in reason else 2} 1"}
    await h.advance(100, steps=10)
    table = host.table
    assert 1 in table.out and 1 in table.recovered
    assert "withheld reshuffle" in table.blame[1]
    assert table.stage == "done"
    assert table.result is not None and set(table.result["blame"]) == {1}
    assert len({p.table.digest() for p in h.peers}) == 1
    finished = [t for t in table.reshuffles if t.complete(table.seats)]
    assert [t.seats for t in finished] == [[0, 2], [0, 2]], "restarted among those present"
    assert table.reshuffles[0].seats == [0, 1, 2] and not table.reshuffles[0].complete(3)
    state = table.state
    for peer in (h.peers[0], h.peers[2]):
        mine = state["redealt"][peer.seat]
        final, keys = _truth(h, mine)
        (card,) = await unmask_many(h.backend, [(final, keys)], table.cards)
        assert state["opened2"][peer.seat] == card
    await h.bus.close()


class StaleDeckKeyPeer(Peer):
    """Re-uses its initial deck key and permutation in every re-shuffle (well-formed passes)."""

    def _seed(self) -> ShuffleSeed:
        return StaleDeckKey(super()._seed().seed)


async def test_reshuffle_with_an_old_deck_key_is_named_by_the_audit() -> None:
    h = await make_table(3, peer_class={2: StaleDeckKeyPeer})
    await _start(h, 3)
    table = h.peers[0].table
    assert table.stage == "done"
    assert all(p.errors == [] for p in h.peers), "well-formed: nothing to see during play"
    assert table.result is not None and set(table.result["blame"]) == {2}
    assert "re-shuffle" in table.result["blame"][2]
    await h.bus.close()


class WithholdsReshuffledReveal(Peer):
    """Never reveals its key for the re-shuffled slot the table turns face up."""

    async def _act_once(self) -> bool:
        table = self.table
        owes = self.seat is not None and table.obligations().get(self.seat) == "keys"
        if owes and table.state["phase"] == "reveal2":
            return False
        return await super()._act_once()


async def test_seat_leaving_after_a_reshuffle_is_recovered_at_the_new_epoch() -> None:
    h = await make_table(4, peer_class={3: WithholdsReshuffledReveal})
    await _start(h, 4)
    table = h.peers[0].table
    assert waiting_on(h.peers[0]) == {3: "keys"}
    assert table.epoch(table.state["top2_slot"]) >= 1
    await h.advance(100, steps=10)
    assert table.out.get(3, "").startswith("timed out") and 3 in table.recovered
    assert table.stage == "done"
    assert table.result is not None and set(table.result["blame"]) == {3}
    final, keys = _truth(h, table.state["top2_slot"])
    (card,) = await unmask_many(h.backend, [(final, keys)], table.cards)
    assert table.state["top2"] == card
    assert len({p.table.digest() for p in h.peers}) == 1
    await h.bus.close()


async def test_player_rejoining_after_a_reshuffle_rebuilds_its_knowledge_from_the_log() -> None:

    holds: dict[int, Player] = {s: HoldAt(s, "reopen") for s in range(3)}
    h = await make_table(3, players=holds)
    await _start(h, 3)
    target = h.peers[1]
    mine = target.table.state["redealt"][1]
    learnt = dict(target.knowledge.cards)
    assert mine in learnt
    h.bus.disconnect("p1")
    h.bus.reconnect("p1")
    fresh = await h.reload(1, seed=42)
    assert fresh.knowledge.cards == learnt, "the same cards, old epochs forgotten"
    recycled = set(fresh.table.state["recycled"])
    assert {s for s in fresh.knowledge.cards if s in recycled} == {mine}
    for hold in holds.values():
        assert isinstance(hold, HoldAt)
        hold.released = True
    await h.advance(1)
    assert_clean_end(h)
    await h.bus.close()
