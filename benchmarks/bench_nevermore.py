"""«Невермор» speed: ``python -m benchmarks.bench_nevermore [GAMES]``.

Prints random games per second (3–6 players through the omniscient ``LocalTable``), actions per
second, and the heuristic bot's mean decision time, each against a floor measured in the same run:
one canonical-JSON state hash (the cost every peer pays per action anyway).

Then the fair-play table (four in-process peers, native backend, one process): the hidden cards it
shuffles (one main deck of 60, Light and Shadow of 25), the time from the start to the first move
(both shuffle passes of every deck, the search for the first dealer, the deal and its deliveries),
and a whole random game (each round boundary: REVEAL of the unshown main slots and RESHUFFLE of
all 60).
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from benchmarks import options
from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.fairness.backends.native import NativeBackend
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot
from engine.protocol.bundle import SecretBundle
from engine.protocol.peer import Peer
from engine.protocol.players import Player, Waiting
from engine.protocol.players import RandomBot as TableBot
from engine.protocol.table import Member
from engine.protocol.transport import InProcessBus


class Clock:
    """Table time that stands still (nobody times out)."""

    now = 1000.0

    def __call__(self) -> float:
        return self.now


async def table_game(seats: int, rounds: int, play: bool) -> tuple[float, Any]:
    """Seconds from the start until the table stops (the first move when nobody plays)."""
    backend = NativeBackend()
    bus = InProcessBus()
    bundles = [await SecretBundle.create(backend) for _ in range(seats)]
    roster = [Member(f"p{i}", i, b.sign.public, b.dh.public) for i, b in enumerate(bundles)]
    peers = []
    for i, bundle in enumerate(bundles):
        player: Player = TableBot(i) if play else Waiting()
        peers.append(
            Peer(
                peer_id=f"p{i}",
                roster=roster,
                room="bench",
                game=f"nevermore-{play}",
                rules=NevermoreRules(),
                backend=backend,
                transport=bus.endpoint(f"p{i}"),
                bundle=bundle,
                player=player,
                clock=Clock(),
            )
        )
    start = time.perf_counter()
    await peers[0].start({"seats": seats, "max_rounds": rounds}, timer=30)
    await bus.settle()
    elapsed = time.perf_counter() - start
    await bus.close()
    return elapsed, peers[0].table


def table_figures(seats: int = 4, rounds: int = 4) -> None:
    rules = NevermoreRules()
    cards = sum(len(deck) for deck in rules.hidden_decks({"seats": seats}).values())
    setup, table = asyncio.run(table_game(seats, rounds, play=False))
    assert table.state["need"]["kind"] == "move", table.state["need"]
    whole, table = asyncio.run(table_game(seats, rounds, play=True))
    state = table.rules.data(table.state)
    assert state["over"] and table.result == {"ok": True, "blame": {}}, table.result
    played = min(state["round"], rounds)
    boundaries = [r for r in table.reshuffles if r.name == "main" and len(r.slots) == 60]
    print(f"fair-play table, {seats} seats: {cards} hidden cards shuffled at the start")
    print(f"start to the first move: {setup:.2f} s")
    print(
        f"whole random game: {played} rounds, {len(table.log)} log entries in {whole:.2f} s,"
        f" {len(boundaries)} main-deck re-shuffles of 60, audit ok"
    )


def main(argv: list[str] | None = None) -> int:
    parser = options.parser(__doc__)
    parser.add_argument("games", nargs="?", type=options.whole(1, 10_000, "games"), default=60)
    games = parser.parse_args(argv).games
    rules = NevermoreRules()
    steps = 0
    states = []
    start = time.perf_counter()
    for seed in range(games):
        n = 3 + seed % 4
        t = LocalTable(rules, {"seats": n, "max_rounds": 10}, seed=seed)
        steps += t.play({s: RandomBot(seed + s).choose for s in range(n)})
        states.append(t)
    elapsed = time.perf_counter() - start
    sample = states[0].state
    reps = 200
    start = time.perf_counter()
    for _ in range(reps):
        rules.state_hash(sample)
    floor = (time.perf_counter() - start) / reps
    bot = HeuristicBot()
    timings = []
    t = LocalTable(rules, {"seats": 5, "max_rounds": 6}, seed=1)
    while t.decision().kind != Kind.TERMINAL:
        d = t.decision()
        if d.kind in (Kind.MOVE, Kind.SIMULTANEOUS):
            seat = d.seats[0]
            t0 = time.perf_counter()
            action = bot.choose(rules, t.state, seat, t.knowledge[seat])
            timings.append(time.perf_counter() - t0)
            t.apply(t.public(seat, action, d.phase))
        else:
            t.step({})
    decision = sum(timings) / len(timings)
    print(f"random games: {games} in {elapsed:.2f} s = {games / elapsed:.1f} games/s")
    print(f"actions: {steps} = {steps / elapsed:.0f} actions/s")
    print(f"floor: state hash of a finished game {floor * 1e3:.3f} ms")
    per_action = elapsed / steps
    print(f"per action {per_action * 1e3:.3f} ms = {per_action / floor:.2f}× the hash floor")
    print(
        f"heuristic bot: {len(timings)} decisions, mean {decision * 1e3:.3f} ms"
        f" = {decision / floor:.2f}× the hash floor"
    )
    table_figures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
