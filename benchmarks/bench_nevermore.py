"""«Невермор» speed: ``python -m benchmarks.bench_nevermore [GAMES]``.

Prints random games per second (3–6 players through the omniscient ``LocalTable``), actions per
second, and the heuristic bot's mean decision time, each against a floor measured in the same run:
one canonical-JSON state hash (the cost every peer pays per action anyway).
"""

from __future__ import annotations

import sys
import time

from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.bot import HeuristicBot, RandomBot


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 60
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
