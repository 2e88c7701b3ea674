"""Run every benchmark in turn: ``python -m benchmarks`` (browser ones need the loopback namespace;
``make bench`` sets it up). Each prints its own figures against a floor measured in the same run.
«Схватка» at the table runs twice, a tournament of three fights each: every page clicking the
moment it can (a stress test of the two cores), and each page moving a player's moment after it
is offered a move. One fight gives 16-35 clicks, whose p95 is their one or two slowest; three
give 60-100. «Невермор» plays two games in a row for the same reason (one gives 36-120 passes)."""

from __future__ import annotations

import subprocess
import sys

BENCHMARKS = [
    "benchmarks.bench_fairness",
    "benchmarks.bench_fairness_browser",
    "benchmarks.bench_rumble",
    "benchmarks.bench_nevermore",
    "benchmarks.bench_circle",
    "benchmarks.bench_rooms",
    "benchmarks.bench_signaling_capacity",
    "benchmarks.bench_table_browser",
    "benchmarks.bench_log_paint",
    "benchmarks.bench_card_pictures",
    "benchmarks.bench_effects",
    "benchmarks.bench_rumble_browser --fights 3",
    "benchmarks.bench_rumble_browser --fights 3 --think 0.3-1.2",
    "benchmarks.bench_nevermore_browser --games 2",
    "benchmarks.bench_circle_browser",
]


def main() -> int:
    failed = []
    for command in BENCHMARKS:
        print(f"\n===== {command}", flush=True)
        if subprocess.run([sys.executable, "-m", *command.split()], check=False).returncode != 0:
            failed.append(command)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
