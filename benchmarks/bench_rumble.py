"""«Схватка» speed: random-bot fights per second and heuristic-bot time per decision.

Run: ``python -m benchmarks.bench_rumble [--fights N] [--repeat R] [--pyodide] [--instructions]``.
Prints figures
and ratios against a floor measured in the same run (a fixed pure-Python loop), so numbers compare
across machines: by the wall clock, and by the process's own CPU time (``R`` rounds of the floor
and the fights in turn, the median ratio), which other work on a shared machine disturbs far less.
``--pyodide`` also runs the
same measurements inside Pyodide under Node (needs ``node`` and the pinned ``pyodide`` npm package
in ``node_modules`` or ``--pyodide-dir``) and prints the Pyodide/CPython ratios (wall clock).
``--instructions`` counts the instructions of a fight and of the floor under ``valgrind
--tool=callgrind`` (each run's start-up subtracted): figures the load of other work does not move,
to compare two builds of the engine on a shared machine.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import options
from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.rumble import RumbleRules
from engine.games.rumble.bot import HeuristicBot

FLOOR_N = 200_000


def floor_loop(clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds (of ``clock``) for a fixed pure-Python loop (dict updates and arithmetic)."""
    start = clock()
    table: dict[int, int] = {}
    total = 0
    for i in range(FLOOR_N):
        table[i & 1023] = table.get(i & 1023, 0) + i
        total += i * i % 7
    return clock() - start


def random_fights(
    rules: RumbleRules, fights: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[int, int, float]:
    """Play 4-player tournaments with random bots until ``fights`` fights; (fights, actions,
    seconds of ``clock``)."""
    done = actions = seed = 0
    start = clock()
    while done < fights:
        table = LocalTable(rules, {"seats": 4}, seed=seed)
        actions += table.play(RandomBot(seed).choose)
        done += len(table.state["g"]["results"])
        seed += 1
    return done, actions, clock() - start


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


ROOT = Path(__file__).resolve().parents[1]
ENGINE_PARTS = ["engine/__init__.py", "engine/core", "engine/bots", "engine/games/__init__.py"]
NODE_SCRIPT = """
import { loadPyodide } from "%(dir)s/pyodide.mjs";
import { readFileSync } from "node:fs";
const files = JSON.parse(readFileSync(process.argv[2], "utf8"));
const py = await loadPyodide({ indexURL: "%(dir)s/" });
for (const [path, text] of Object.entries(files)) {
  py.FS.mkdirTree("/bench/" + path.split("/").slice(0, -1).join("/"));
  py.FS.writeFile("/bench/" + path, text);
}
py.runPython("import sys; sys.path.insert(0, '/bench')");
console.log(py.runPython(readFileSync(process.argv[3], "utf8")));
"""
PYODIDE_MAIN = """
import json, bench_rumble as b
from engine.games.rumble import RumbleRules
rules = RumbleRules()
floor = min(b.floor_loop() for _ in range(3))
fights, actions, seconds = b.random_fights(rules, %(fights)d)
decisions, spent = b.heuristic_decisions(rules, %(games)d)
json.dumps({"floor": floor, "per_fight": seconds / fights, "per_decision": spent / decisions})
"""


def paired_rounds(
    rules: RumbleRules,
    fights: int,
    repeat: int,
    floor_runs: int,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, float]:
    """The CPU time of a fight against the floor's, in ``repeat`` rounds of the floor then the
    fights, each round about as long for both (the floor run ``floor_runs`` times at first, then
    as many times as the last round of fights lasted): the ratio of each round, and their
    medians. A shared machine's quick and slow spells then move both sides of a ratio alike,
    where the best of a few short floors against the best of long rounds of fights read anywhere
    from 0.24× to 0.32× for the same code."""
    floors: list[float] = []
    per_fight: list[float] = []
    for _ in range(repeat):
        runs = [floor_loop(clock) for _ in range(floor_runs)]
        done, _actions, spent = random_fights(rules, fights, clock)
        floors.append(statistics.median(runs))
        per_fight.append(spent / done)
        floor_runs = max(3, round(spent / floors[-1]))
    ratios = [fight / floor for fight, floor in zip(per_fight, floors, strict=True)]
    return {
        "floor_cpu": statistics.median(floors),
        "per_fight_cpu": statistics.median(per_fight),
        "ratio_cpu": statistics.median(ratios),
        "ratio_cpu_low": min(ratios),
        "ratio_cpu_high": max(ratios),
    }


def measure(fights: int, games: int, repeat: int = 0) -> dict[str, float]:
    """The three figures in this interpreter; with ``repeat``, also the CPU time of a fight
    against the floor's (``paired_rounds``)."""
    rules = RumbleRules()
    floor = min(floor_loop() for _ in range(3))
    done, _actions, seconds = random_fights(rules, fights)
    decisions, spent = heuristic_decisions(rules, games)
    out = {"floor": floor, "per_fight": seconds / done, "per_decision": spent / decisions}
    if repeat:
        floor_runs = max(3, round(seconds / floor))  # the wall-clock round's length in floors
        out.update(paired_rounds(rules, fights, repeat, floor_runs))
    return out


def measure_pyodide(fights: int, games: int, pyodide_dir: Path) -> dict[str, float]:
    """The same figures inside Pyodide under Node (engine files copied into its file system)."""
    files: dict[str, str] = {"bench_rumble.py": Path(__file__).read_text("utf-8")}
    for part in ENGINE_PARTS:
        path = ROOT / part
        paths = [path] if path.is_file() else sorted(path.glob("*.py"))
        for p in paths:
            files[str(p.relative_to(ROOT))] = p.read_text("utf-8")
    for p in sorted((ROOT / "engine/games/rumble").iterdir()):
        if p.suffix in (".py", ".json"):
            files[str(p.relative_to(ROOT))] = p.read_text("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "files.json").write_text(json.dumps(files), "utf-8")
        (Path(tmp) / "main.py").write_text(PYODIDE_MAIN % {"fights": fights, "games": games})
        script = Path(tmp) / "run.mjs"
        script.write_text(NODE_SCRIPT % {"dir": pyodide_dir.resolve()}, "utf-8")
        out = subprocess.run(
            ["node", str(script), str(Path(tmp) / "files.json"), str(Path(tmp) / "main.py")],
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


INSTRUCTION_FIGHTS = 30
CALLGRIND = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
COUNTED = """
import sys
from benchmarks.bench_rumble import floor_loop, random_fights
from engine.games.rumble import RumbleRules
what, n = sys.argv[1], int(sys.argv[2])
if what == "floor":
    for _ in range(n):
        floor_loop()
elif n:
    random_fights(RumbleRules(), n)
else:
    RumbleRules()
"""


def instructions(what: str, n: int) -> int:
    """Instructions of a run of ``n`` floors or fights (``what``), start-up included."""
    run = subprocess.run(
        [*CALLGRIND, sys.executable, "-c", COUNTED, what, str(n)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def report_instructions() -> None:
    """Instructions per fight (random bots, 4 players, the seeds of ``random_fights``) and per
    floor, each less its run's start-up."""
    if shutil.which("valgrind") is None:
        print("valgrind not found: apt-get install valgrind")
        return
    fights = instructions("fights", INSTRUCTION_FIGHTS) - instructions("fights", 0)
    floor = (instructions("floor", 3) - instructions("floor", 0)) / 3
    per_fight = fights / INSTRUCTION_FIGHTS
    print(
        f"[callgrind] one fight {per_fight / 1e6:.2f} M instructions ({INSTRUCTION_FIGHTS} fights),"
        f" floor {floor / 1e6:.1f} M: {per_fight / floor:.4f} × floor"
    )


def report(name: str, m: dict[str, float]) -> None:
    print(f"[{name}] floor (fixed loop of {FLOOR_N} steps): {m['floor'] * 1e3:.2f} ms")
    print(
        f"[{name}] random bots, 4 players: {1 / m['per_fight']:.1f} fights/s, one fight "
        f"{m['per_fight'] * 1e3:.1f} ms = {m['per_fight'] / m['floor']:.2f} × floor"
    )
    print(
        f"[{name}] heuristic bot: {m['per_decision'] * 1e6:.0f} µs per decision "
        f"= {m['per_decision'] / m['floor']:.4f} × floor"
    )
    if "per_fight_cpu" in m:
        fight, floor = m["per_fight_cpu"], m["floor_cpu"]
        print(
            f"[{name}] CPU time (median of rounds, floor and fights in turn): floor "
            f"{floor * 1e3:.2f} ms, one fight {fight * 1e3:.2f} ms ({1 / fight:.0f} fights/s) = "
            f"{m['ratio_cpu']:.3f} × floor (rounds {m['ratio_cpu_low']:.3f}–"
            f"{m['ratio_cpu_high']:.3f})"
        )


def main() -> None:
    parser = options.parser(__doc__)
    parser.add_argument("--fights", type=options.whole(1, 100_000, "fights"), default=150)
    parser.add_argument("--games", type=options.whole(1, 10_000, "games"), default=10)
    parser.add_argument(
        "--repeat",
        type=options.whole(0, 100, "rounds"),
        default=5,
        help="rounds of CPU-time measure (0: wall clock only)",
    )
    parser.add_argument("--pyodide", action="store_true", help="also measure inside Pyodide")
    parser.add_argument("--pyodide-dir", type=Path, default=ROOT / "node_modules/pyodide")
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions under callgrind"
    )
    args = parser.parse_args()
    cpython = measure(args.fights, args.games, args.repeat)
    report("CPython " + sys.version.split()[0], cpython)
    if args.instructions:
        report_instructions()
    if not args.pyodide:
        return
    if not (args.pyodide_dir / "pyodide.mjs").exists():
        print(f"Pyodide not found in {args.pyodide_dir}: run `npm install pyodide@314.0.7` there")
        return
    pyo = measure_pyodide(args.fights, args.games, args.pyodide_dir)
    report("Pyodide", pyo)
    for key, label in (("floor", "floor"), ("per_fight", "fight"), ("per_decision", "decision")):
        print(f"Pyodide / CPython, {label}: {pyo[key] / cpython[key]:.2f}×")


if __name__ == "__main__":
    main()
