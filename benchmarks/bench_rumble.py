"""«Схватка» speed: random-bot fights per second and heuristic-bot time per decision.

Run: ``python benchmarks/bench_rumble.py [--fights N]``. Prints figures and ratios against a floor
measured in the same run (a fixed pure-Python loop), so numbers compare across machines.
"""

from __future__ import annotations

import argparse
import time

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.rumble import RumbleRules
from engine.games.rumble.bot import HeuristicBot

FLOOR_N = 200_000


def floor_loop() -> float:
    """Seconds for a fixed pure-Python loop (dict updates and arithmetic)."""
    start = time.perf_counter()
    table: dict[int, int] = {}
    total = 0
    for i in range(FLOOR_N):
        table[i & 1023] = table.get(i & 1023, 0) + i
        total += i * i % 7
    return time.perf_counter() - start


def random_fights(rules: RumbleRules, fights: int) -> tuple[int, int, float]:
    """Play 4-player tournaments with random bots until ``fights`` fights; (fights, actions, s)."""
    done = actions = seed = 0
    start = time.perf_counter()
    while done < fights:
        table = LocalTable(rules, {"seats": 4}, seed=seed)
        actions += table.play(RandomBot(seed).choose)
        done += len(table.state["g"]["results"])
        seed += 1
    return done, actions, time.perf_counter() - start


def heuristic_decisions(rules: RumbleRules, games: int) -> tuple[int, float]:
    """Time spent inside the heuristic bot's ``choose`` over ``games`` 4-player tournaments."""
    times: list[float] = []
    for seed in range(games):
        bot = HeuristicBot(seed)
        table = LocalTable(rules, {"seats": 4}, seed=1000 + seed)
        while True:
            decision = table.decision()
            if decision.kind not in (Kind.MOVE, Kind.SIMULTANEOUS):
                if not table.step(bot.choose):
                    break
                continue
            seat = decision.seats[0]
            start = time.perf_counter()
            action = bot.choose(rules, table.state, seat, table.knowledge[seat])
            times.append(time.perf_counter() - start)
            table.apply(table.public(seat, action, decision.phase))
    return len(times), sum(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fights", type=int, default=150)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    rules = RumbleRules()
    floor = min(floor_loop() for _ in range(3))
    fights, actions, seconds = random_fights(rules, args.fights)
    decisions, spent = heuristic_decisions(rules, args.games)
    per_fight = seconds / fights
    per_decision = spent / decisions
    print(f"floor: fixed loop of {FLOOR_N} steps   {floor * 1e3:8.2f} ms")
    print(
        f"random bots, 4 players: {fights} fights, {actions} actions in {seconds:.2f} s "
        f"= {fights / seconds:.1f} fights/s, {actions / seconds:.0f} actions/s"
    )
    print(f"  one fight = {per_fight * 1e3:.1f} ms = {per_fight / floor:.2f} × floor")
    print(
        f"heuristic bot: {decisions} decisions, {per_decision * 1e6:.0f} µs each "
        f"= {per_decision / floor:.4f} × floor"
    )


if __name__ == "__main__":
    main()
