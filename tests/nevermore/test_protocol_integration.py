"""«Невермор» through the real fair-play table: four in-process peers, a mental-poker deck of 114
cards (one main deck of 60, Light and Shadow of 25), a full game and the final audit.

Between rounds the table reveals the main deck's unshown slots and re-shuffles all 60 of them; the
re-dealt slots are delivered privately again. Bots are seeded, the peers' keys are not, so every run
plays another game. A second game without magic cards has suit calls with nobody acting between
them: the table takes each call for a new round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.model import JSON, Action
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot
from engine.protocol.players import Player, Policy, RandomBot
from tests.engine.harness import make_table

from .helpers import data


async def test_a_four_player_game_plays_to_an_audited_end_through_the_table() -> None:
    seats = 4
    players: list[Player] = [RandomBot(1), Policy(HeuristicBot()), RandomBot(3), RandomBot(4)]
    h = await make_table(seats, rules=NevermoreRules(), players=dict(enumerate(players)))
    bus, peers = h.bus, h.peers
    await peers[0].start({"seats": seats, "max_rounds": 3}, timer=30)
    await bus.settle()
    try:
        assert all(peer.errors == [] for peer in peers), [p.errors for p in peers]
        table = peers[0].table
        assert {peer.table.digest() for peer in peers} == {table.digest()}
        assert table.layout.total == 114
        assert table.state["need"]["kind"] == "terminal", table.state["need"]
        state = data(table.state)
        assert state["over"]
        assert all(peer.table.result == {"ok": True, "blame": {}} for peer in peers)
        # Every round after the first was dealt from the whole main deck, re-shuffled by the table.
        boundaries = sum(1 for e in state["log"] if e["e"] == "new_deck")
        assert boundaries == state["round"] - 1 - (state["round"] > state["max_rounds"])
        main = [r for r in table.reshuffles if r.name == "main" and len(r.slots) == 60]
        assert len(main) == boundaries >= 1
        assert all(r.slots == list(range(60)) for r in main)
        # The undrawn rest (at least) went in unseen: pass 0 swapped keys, nothing was shown.
        assert all(r.hidden and len(r.pass0) == len(r.seats) for r in main)
    finally:
        await bus.close()


class WithoutMagic(NevermoreRules):
    """Nobody keeps the Shadow card of the set-up, so nobody acts between two suit calls of round
    one; counts the «show» calls that follow one another directly — one that wants the seat that
    just moved again, and one that waits on other seats than the rest of the call did."""

    def __init__(self) -> None:
        super().__init__()
        self.back_to_back = {"mover again": 0, "without the mover": 0}

    def new_game(self, config: Mapping[str, JSON]) -> dict[str, Any]:
        state = super().new_game(config)
        g = state["g"]  # the data before the first task, which runs again on the change
        for seat in range(g["n"]):
            g["discard"] += g["magic"][seat]
            g["magic"][seat] = []
        return {**state, "g": g}

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        before = self.decision(state)
        after = super().apply(state, action)
        now = self.decision(after)
        seat = action.get("seat")
        if before.phase == now.phase == "show" and set(now.seats) != set(before.seats) - {seat}:
            self.back_to_back["mover again" if seat in now.seats else "without the mover"] += 1
        return after


async def play_without_magic() -> dict[str, int]:
    """One 3-seat round without magic through the table, to its end; the calls in a row met."""
    seats = 3
    players: list[Player] = [RandomBot(s) for s in range(seats)]
    rules = WithoutMagic()
    h = await make_table(seats, rules=rules, players=dict(enumerate(players)))
    bus, peers = h.bus, h.peers
    await peers[0].start({"seats": seats, "max_rounds": 1}, timer=30)
    await bus.settle()
    try:
        assert all(peer.errors == [] for peer in peers), [p.errors for p in peers]
        need = peers[0].table.state["need"]
        assert need["kind"] == "terminal", f"stalled: {need}; calls in a row {rules.back_to_back}"
        assert all(peer.table.result == {"ok": True, "blame": {}} for peer in peers)
    finally:
        await bus.close()
    return rules.back_to_back


async def test_suit_calls_in_a_row_do_not_stall_the_table() -> None:
    """Every game plays to its end with no timer running out (the clock never moves); games are
    played until calls in a row were met (tests/engine/test_calls_in_a_row.py makes each kind of
    them happen for certain)."""
    met = {"mover again": 0, "without the mover": 0}
    for _ in range(6):
        for kind, count in (await play_without_magic()).items():
            met[kind] += count
        if any(met.values()):
            break
    assert any(met.values()), "no two calls in a row: the test shows nothing"
