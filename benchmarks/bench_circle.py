"""«Волшебный круг» speed: random games per second and the heuristic bot's time per decision.

Run: ``python -m benchmarks.bench_circle [--games N] [--bot-games N]``. Prints the figures and their
ratio to a floor measured in the same run (a fixed pure-Python loop, as in ``bench_rumble``), so
numbers compare across machines. Games have 3–8 players and go through ``LocalTable`` (the
omniscient local table); a bot decision is one ``choose`` call at a «переполох» moment, whether it
plays a card or lets the moment pass.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from benchmarks import options
from benchmarks.bench_rumble import FLOOR_N, floor_loop
from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Action, Kind, Knowledge, Rules
from engine.games.circle import CircleRules
from engine.games.circle.bot import HeuristicBot


def random_games(rules: CircleRules, games: int) -> tuple[int, int, float]:
    """Play ``games`` random-bot games of 3–8 players; (games, actions, seconds)."""
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        seats = 3 + seed % 6
        table = LocalTable(rules, {"seats": seats}, seed=seed)
        actions += table.play({s: RandomBot(seed * 8 + s).choose for s in range(seats)})
    return games, actions, time.perf_counter() - start


class TimedBots:
    """A table policy that asks each seat's heuristic bot and adds up the time spent in it."""

    def __init__(self, seats: int, seed: int) -> None:
        self.bots = {s: HeuristicBot(seed * 8 + s) for s in range(seats)}
        self.spent = 0.0
        self.count = 0

    def __call__(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge
    ) -> Action | None:
        start = time.perf_counter()
        out = self.bots[seat].choose(rules, state, seat, knowledge)
        self.spent += time.perf_counter() - start
        self.count += 1
        return out


def heuristic_decisions(rules: CircleRules, games: int) -> tuple[int, float]:
    """Time inside ``HeuristicBot.choose`` over ``games`` all-heuristic games of 3–8 players."""
    spent = 0.0
    count = 0
    for seed in range(games):
        seats = 3 + seed % 6
        policy = TimedBots(seats, seed)
        table = LocalTable(rules, {"seats": seats}, seed=1000 + seed)
        while table.decision().kind != Kind.TERMINAL:
            table.step(policy)
        spent += policy.spent
        count += policy.count
    return count, spent


def main(argv: list[str] | None = None) -> int:
    parser = options.parser(__doc__)
    parser.add_argument("--games", type=options.whole(1, 100_000, "games"), default=300)
    parser.add_argument("--bot-games", type=options.whole(1, 10_000, "games"), default=60)
    args = parser.parse_args(argv)
    rules = CircleRules()
    floor = min(floor_loop() for _ in range(3))
    games, actions, seconds = random_games(rules, args.games)
    decisions, spent = heuristic_decisions(rules, args.bot_games)
    per_game = seconds / games
    per_action = seconds / actions
    per_decision = spent / decisions
    print(
        f"[CPython {sys.version.split()[0]}] floor (fixed loop of {FLOOR_N} steps): "
        f"{floor * 1e3:.2f} ms"
    )
    print(
        f"random bots, 3–8 players: {games} games in {seconds:.2f} s = {games / seconds:.1f} "
        f"games/s; one game {per_game * 1e3:.2f} ms = {per_game / floor:.3f} × floor"
    )
    print(
        f"actions: {actions} = {actions / seconds:.0f} actions/s; one action "
        f"{per_action * 1e6:.1f} µs = {per_action / floor:.5f} × floor"
    )
    print(
        f"heuristic bot: {decisions} decisions, {per_decision * 1e6:.1f} µs each "
        f"= {per_decision / floor:.5f} × floor"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
