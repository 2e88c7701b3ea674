"""«Невермор» through the real fair-play table: four in-process peers, a mental-poker deck of 110
cards (one main deck of 60, Light and Shadow of 25), a full game and the final audit.

Between rounds the table reveals the main deck's unshown slots and re-shuffles all 60 of them; the
re-dealt slots are delivered privately again. Bots are seeded, the peers' keys are not, so every run
plays another game.
"""

from __future__ import annotations

from engine.fairness.backends.native import NativeBackend
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot
from engine.protocol.bundle import SecretBundle
from engine.protocol.peer import Peer
from engine.protocol.players import Player, Policy, RandomBot
from engine.protocol.table import Member
from engine.protocol.transport import InProcessBus
from tests.engine.harness import FakeClock


async def test_a_four_player_game_plays_to_an_audited_end_through_the_table() -> None:
    seats = 4
    backend = NativeBackend()
    bus = InProcessBus()
    clock = FakeClock()
    bundles = [await SecretBundle.create(backend) for _ in range(seats)]
    roster = [Member(f"p{i}", i, b.sign.public, b.dh.public) for i, b in enumerate(bundles)]
    players: list[Player] = [RandomBot(1), Policy(HeuristicBot()), RandomBot(3), RandomBot(4)]
    peers = [
        Peer(
            peer_id=f"p{i}",
            roster=roster,
            room="room-n",
            game="game-n",
            rules=NevermoreRules(),
            backend=backend,
            transport=bus.endpoint(f"p{i}"),
            bundle=bundle,
            player=players[i],
            clock=clock,
        )
        for i, bundle in enumerate(bundles)
    ]
    await peers[0].start({"seats": seats, "max_rounds": 4}, timer=30)
    await bus.settle()
    try:
        assert all(peer.errors == [] for peer in peers), [p.errors for p in peers]
        table = peers[0].table
        assert {peer.table.digest() for peer in peers} == {table.digest()}
        assert table.layout.total == 110
        state = table.state
        assert state["need"]["kind"] == "terminal", state["need"]
        assert state["over"]
        assert all(peer.table.result == {"ok": True, "blame": {}} for peer in peers)
        # Every round after the first was dealt from the whole main deck, re-shuffled by the table.
        boundaries = sum(
            1 for line in state["log"] if line == "Основная колода собрана и перемешана."
        )
        assert boundaries == state["round"] - 1 - (state["round"] > state["max_rounds"])
        main = [r for r in table.reshuffles if r.name == "main" and len(r.slots) == 60]
        assert len(main) == boundaries >= 1
        assert all(r.slots == list(range(60)) for r in main)
    finally:
        await bus.close()
