"""Two builds of the site run in turn by one browser benchmark: did a change move the clicks or
the long tasks by more than the runs' own spread?

``unshare -rn sh -c 'ip link set lo up && python -m benchmarks.ab OTHER_DIST [--pairs N] --
bench_rumble_browser --fights 2'``

"This build" is the site in ``web/dist`` (or ``MT_TEST_DIST``), "the other" a copy of another
build (``cp -r web/dist /tmp/other`` before the change, then ``python -m web.build``) — or, for a
change to the engine or the protocol, a checkout of the other commit with its site built
(``git worktree add /tmp/other COMMIT``, then ``python -m web.build`` in it): the benchmark's own
process plays the server bot with its own engine, so a copy of the pages alone would have old
pages play against a new bot; a checkout's runs are run from that checkout. The
benchmark runs ``N`` times on each, alternating as A B B A … so that a machine growing quicker or
slower through the runs weighs on both alike, each run its own process (``MT_TEST_DIST`` names the
build it serves) writing its raw samples (``--json``). Printed: each run's p50 and p95 and tasks
over 50 ms; each build's p50 and p95 of all its runs' clicks pooled; and the difference of the
pooled p95s (this − the other) with a 90 % interval from resampling whole runs (a cluster
bootstrap), so that the spread from run to run counts, not only from click to click. Run it with
the other build a copy of this one (an A/A) to see what difference the spread alone makes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks import options
from benchmarks.bench_table_browser import pct

BENCHES = ("bench_rumble_browser", "bench_nevermore_browser", "bench_circle_browser")
ROUNDS = 2000  # bootstrap resamples
THIS, OTHER = "this", "other"


@dataclass
class Run:
    """One benchmark run's samples: click latencies (ms) and tasks over 50 ms (ms, all pages)."""

    build: str
    clicks: list[float]
    long: list[float]
    cpu_per_entry: float | None = None


@dataclass
class Plan:
    """What the command line asks for."""

    other: Path
    pairs: int
    bench: str
    args: list[str]


def parse(argv: list[str]) -> Plan:
    """``OTHER_DIST [--pairs N] -- BENCH [ARGS…]``; a clear error for anything else (the words
    after ``--`` are the benchmark's, which checks them itself)."""
    parser = options.parser(__doc__)
    parser.usage = "python -m benchmarks.ab OTHER_DIST [--pairs N] -- BENCH [ARGS...]"
    parser.add_argument("other", type=Path, metavar="OTHER_DIST")
    parser.add_argument("--pairs", type=options.whole(1, 20, "pairs of runs"), default=3)
    if "--" not in argv:
        if {"-h", "--help"} & set(argv):
            parser.parse_args(["--help"])
        parser.error("the benchmark to run comes after --")
    split = argv.index("--")
    rest = argv[split + 1 :]
    if not rest:
        parser.error("name the benchmark to run after --")
    own = parser.parse_args(argv[:split])
    other = own.other.resolve()
    if not (other / "index.html").is_file() and not is_checkout(other):
        parser.error(
            f"{other} is neither a built site (no index.html: copy web/dist there) nor a"
            " checkout with its site built (benchmarks/ and web/dist/index.html)"
        )
    bench = rest[0].removeprefix("benchmarks.")
    if bench not in BENCHES:
        parser.error(f"the benchmark must be one of {', '.join(BENCHES)} (not {rest[0]!r})")
    return Plan(other, own.pairs, bench, rest[1:])


def is_checkout(folder: Path) -> bool:
    """A source tree of this project with its site built (its runs are run from it)."""
    return (folder / "benchmarks" / "__init__.py").is_file() and (
        folder / "web" / "dist" / "index.html"
    ).is_file()


def order(pairs: int) -> list[str]:
    """The builds in the order they run: A B B A A B … (the other build first)."""
    pair = [(OTHER, THIS), (THIS, OTHER)]
    return [build for i in range(pairs) for build in pair[i % 2]]


def pooled(runs: list[Run]) -> list[float]:
    return [ms for run in runs for ms in run.clicks]


def p95_difference(
    this: list[Run], other: list[Run], rounds: int = ROUNDS, seed: int = 1
) -> tuple[float, float, float]:
    """This build's pooled click p95 minus the other's, and a 90 % interval of that difference
    from ``rounds`` resamples of whole runs (each build's runs drawn with replacement)."""
    observed = pct(pooled(this), 0.95) - pct(pooled(other), 0.95)
    rng = random.Random(seed)
    differences = sorted(
        pct(pooled(rng.choices(this, k=len(this))), 0.95)
        - pct(pooled(rng.choices(other, k=len(other))), 0.95)
        for _ in range(rounds)
    )
    return observed, pct(differences, 0.05), pct(differences, 0.95)


def run_once(plan: Plan, build: str, folder: Path, index: int) -> Run:
    """One run of the benchmark on ``build``, in its own process; its samples."""
    out = folder / f"{index}-{build}.json"
    env, cwd = dict(os.environ), None
    if build == OTHER and is_checkout(plan.other):  # its pages, its bot, its benchmark
        env.pop("MT_TEST_DIST", None)
        env["PYTHONPATH"], cwd = str(plan.other), plan.other
    elif build == OTHER:
        env["MT_TEST_DIST"] = str(plan.other)
    command = [sys.executable, "-m", f"benchmarks.{plan.bench}", *plan.args, "--json", str(out)]
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not out.is_file():
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        raise SystemExit(f"run {index + 1} ({build} build) failed:\n{tail}")
    samples = json.loads(out.read_text(encoding="utf-8"))
    if not samples["clicks"]:
        raise SystemExit(f"run {index + 1} ({build} build) timed no click")
    long = [float(ms) for page in samples["long"] for ms in page]
    return Run(build, [float(ms) for ms in samples["clicks"]], long, samples["cpu_per_entry"])


def run_line(index: int, run: Run) -> str:
    cpu = f", CPU {run.cpu_per_entry:.1f} ms an entry" if run.cpu_per_entry else ""
    return (
        f"run {index + 1} ({run.build}): {len(run.clicks)} clicks, p50"
        f" {pct(run.clicks, 0.5):.1f} ms, p95 {pct(run.clicks, 0.95):.1f} ms;"
        f" tasks over 50 ms: {len(run.long)}{cpu}"
    )


def report(runs: list[Run]) -> list[str]:
    """Each build's pooled figures and the p95 difference with its interval."""
    lines = []
    by_build = {build: [r for r in runs if r.build == build] for build in (THIS, OTHER)}
    for build, mine in by_build.items():
        clicks = pooled(mine)
        tasks = [len(r.long) for r in mine]
        lines.append(
            f"{build} build, {len(mine)} runs pooled: {len(clicks)} clicks, p50"
            f" {pct(clicks, 0.5):.1f} ms, p95 {pct(clicks, 0.95):.1f} ms; tasks over 50 ms:"
            f" {sum(tasks)} ({' / '.join(str(n) for n in tasks)})"
        )
    observed, low, high = p95_difference(by_build[THIS], by_build[OTHER])
    verdict = (
        "within the runs' spread"
        if low <= 0 <= high
        else ("this build slower" if low > 0 else "this build quicker")
    )
    lines.append(
        f"p95 this − other: {observed:+.1f} ms, 90 % interval {low:+.1f} … {high:+.1f} ms"
        f" (resampling whole runs): {verdict}"
    )
    return lines


def main() -> None:
    plan = parse(sys.argv[1:])
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="ab-") as folder:
        for index, build in enumerate(order(plan.pairs)):
            runs.append(run_once(plan, build, Path(folder), index))
            print(run_line(index, runs[-1]), flush=True)
    print("\n".join(report(runs)))


if __name__ == "__main__":
    main()
