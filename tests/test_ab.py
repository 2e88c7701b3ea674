"""The A/B runner of two builds (``benchmarks.ab``): its command line, the order of the runs, the
build each run serves, and the interval of the p95 difference (made-up samples, nothing timed)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from benchmarks import ab, samples
from benchmarks.ab import OTHER, THIS, Plan, Run


def built(tmp_path: Path) -> Path:
    site = tmp_path / "other"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html>", encoding="utf-8")
    return site


def test_the_command_line_names_the_other_build_the_pairs_and_the_benchmark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = built(tmp_path).resolve()
    plan = ab.parse([str(site), "--pairs", "4", "--", "bench_rumble_browser", "--fights", "2"])
    assert plan == Plan(site, 4, "bench_rumble_browser", ["--fights", "2"])
    assert ab.parse([str(site), "--", "benchmarks.bench_circle_browser"]).pairs == 3
    wrong = [
        ([str(site), "bench_rumble_browser"], "comes after --"),
        ([str(site), "--", "bench_rumble"], "must be one of"),  # no samples to pool
        ([str(tmp_path / "nothing"), "--", "bench_rumble_browser"], "neither a built site"),
        ([str(site), "--pairs", "x", "--", "bench_rumble_browser"], "whole number of pairs"),
        ([str(site), "--pairs", "0", "--", "bench_rumble_browser"], "from 1 to 20 pairs"),
        ([str(site), "--"], "name the benchmark"),
        (["--", "bench_rumble_browser"], "OTHER_DIST"),
    ]
    for argv, said in wrong:
        with pytest.raises(SystemExit):
            ab.parse(argv)
        assert said in capsys.readouterr().err, argv
    with pytest.raises(SystemExit) as told:
        ab.parse(["--help"])
    assert told.value.code == 0 and "Two builds of the site" in capsys.readouterr().out


def test_the_builds_alternate_so_a_drift_weighs_on_both() -> None:
    assert ab.order(3) == [OTHER, THIS, THIS, OTHER, OTHER, THIS]
    assert ab.order(2).count(THIS) == ab.order(2).count(OTHER) == 2


def runs(build: str, count: int, shift: float, rng: random.Random) -> list[Run]:
    return [Run(build, [rng.gauss(15 + shift, 4) for _ in range(60)], []) for _ in range(count)]


def test_a_real_difference_is_told_apart_and_the_same_build_is_not() -> None:
    rng = random.Random(7)
    same = ab.p95_difference(runs(THIS, 4, 0, rng), runs(OTHER, 4, 0, rng))
    assert same[1] <= 0 <= same[2], same
    slower = ab.p95_difference(runs(THIS, 4, 12, rng), runs(OTHER, 4, 0, rng))
    assert slower[1] > 0, slower
    assert "this build slower" in ab.report(runs(THIS, 4, 12, rng) + runs(OTHER, 4, 0, rng))[-1]


def test_one_run_far_off_widens_the_interval() -> None:
    """The interval resamples whole runs: one slow run among the others makes it wide, where
    resampling clicks alone would call a difference."""
    rng = random.Random(3)
    steady = runs(OTHER, 4, 0, rng)
    odd = runs(THIS, 3, 0, rng) + runs(THIS, 1, 20, rng)
    observed, low, high = ab.p95_difference(odd, steady)
    assert observed > 5 and low <= 0 < high


def test_each_run_serves_its_build_and_hands_back_its_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = built(tmp_path)
    plan = Plan(site, 1, "bench_nevermore_browser", ["--path"])
    served: list[str | None] = []

    def fake(
        command: list[str], env: dict[str, str], cwd: Path | None, **_: Any
    ) -> subprocess.CompletedProcess[str]:
        assert cwd is None
        assert command[1:4] == ["-m", "benchmarks.bench_nevermore_browser", "--path"]
        served.append(env.get("MT_TEST_DIST"))
        out = Path(command[command.index("--json") + 1])
        out.write_text(json.dumps({"clicks": [10, 20], "long": [[55], []], "cpu_per_entry": None}))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.delenv("MT_TEST_DIST", raising=False)
    monkeypatch.setattr(ab.subprocess, "run", fake)
    other = ab.run_once(plan, OTHER, tmp_path, 0)
    this = ab.run_once(plan, THIS, tmp_path, 1)
    assert served == [str(site), None]
    assert (other.clicks, other.long, this.build) == ([10.0, 20.0], [55.0], THIS)


def test_a_failed_run_stops_with_its_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = Plan(built(tmp_path), 1, "bench_circle_browser", [])

    def failing(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "Traceback: the page crashed")

    monkeypatch.setattr(ab.subprocess, "run", failing)
    with pytest.raises(SystemExit, match="the page crashed"):
        ab.run_once(plan, THIS, tmp_path, 0)


def test_samples_are_written_only_when_asked(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    samples.write(None, [1.0], [[]])
    assert not list(tmp_path.iterdir())
    samples.write(out, [1.0, 2.5], [[60.0]], 80.5)
    written = json.loads(out.read_text())
    assert written == {"clicks": [1.0, 2.5], "long": [[60.0]], "cpu_per_entry": 80.5}


def test_the_other_commits_checkout_runs_its_own_benchmark_and_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A change to the engine or the protocol is compared with a checkout of the commit before:
    its runs run from that tree (its pages, and the server bot with its engine)."""
    tree = tmp_path / "before"
    (tree / "benchmarks").mkdir(parents=True)
    (tree / "benchmarks" / "__init__.py").write_text("")
    with pytest.raises(SystemExit):
        ab.parse([str(tree), "--", "bench_rumble_browser"])
    assert "checkout with its site built" in capsys.readouterr().err
    (tree / "web" / "dist").mkdir(parents=True)
    (tree / "web" / "dist" / "index.html").write_text("<!doctype html>")
    plan = ab.parse([str(tree), "--pairs", "1", "--", "bench_rumble_browser"])
    seen: list[tuple[Path | None, str | None, str | None]] = []

    def fake(
        command: list[str], env: dict[str, str], cwd: Path | None, **_: Any
    ) -> subprocess.CompletedProcess[str]:
        seen.append((cwd, env.get("PYTHONPATH"), env.get("MT_TEST_DIST")))
        out = Path(command[command.index("--json") + 1])
        out.write_text(json.dumps({"clicks": [10], "long": [[]], "cpu_per_entry": None}))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setenv("MT_TEST_DIST", "/somewhere/else")
    monkeypatch.setattr(ab.subprocess, "run", fake)
    ab.run_once(plan, OTHER, tmp_path, 0)
    ab.run_once(plan, THIS, tmp_path, 1)
    assert seen[0] == (tree.resolve(), str(tree.resolve()), None)
    assert seen[1][0] is None and seen[1][2] == "/somewhere/else"
