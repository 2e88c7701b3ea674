"""The effects benchmark's arithmetic (``benchmarks.bench_effects``): an effect's CPU over the idle
pages' floor, per effect per page, and its option. (Nothing is timed: the readings are made up.)"""

from __future__ import annotations

import pytest

from benchmarks import bench_effects, cpu_use

GROUPS = (cpu_use.PAGE_MAIN, cpu_use.PAGE_COMPOSITOR, cpu_use.PAGE_OTHER, cpu_use.DISPLAY)


def reading(*seconds: float) -> dict[str, float]:
    return dict(zip((*GROUPS, "all"), seconds, strict=True))


def test_the_floor_is_the_idle_pages_cpu_a_second_over_every_idle_spell() -> None:
    idles = [(reading(0.1, 0.0, 0.2, 0.0, 0.4), 10.0), (reading(0.3, 0.0, 0.2, 0.1, 0.8), 10.0)]
    assert bench_effects.floor_of(idles) == pytest.approx(reading(0.02, 0, 0.02, 0.005, 0.06))


def test_an_effects_cost_is_what_it_took_over_the_floor_for_as_long() -> None:
    floor = reading(0.01, 0.0, 0.01, 0.0, 0.02)
    spent = reading(0.6, 0.9, 0.3, 1.2, 3.3)
    # 15 effects (5 on each of 3 pages) over 15 s: the floor took 0.15 s of the main threads
    cost = bench_effects.per_effect(spent, floor, seconds=15.0, effects=15)
    assert cost == pytest.approx(reading(30.0, 60.0, 10.0, 80.0, 200.0))
    line = bench_effects.row("banner", cost, floor)
    assert line.startswith("banner") and "200.0" in line and "10.0 s of the idle pages" in line


def test_every_kind_plays_through_the_pages_own_effects() -> None:
    assert set(bench_effects.KINDS) == {
        "banner",
        "floating number",
        "flown icon",
        "ghost",
        "shake",
        "dice tumble",
    }
    for code in bench_effects.KINDS.values():
        assert code.startswith("shown.") or "\nshown." in code, code
    compile(bench_effects.SET_UP, "set-up", "exec")  # the page's Python is at least Python


class FakeEffects:
    """Stands in for the page's ``fx.Effects``: notes every method called on it."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> object:
        return lambda *args: self.calls.append(name)


def test_each_kind_is_compiled_once_and_played_by_its_name() -> None:
    # The set-up's last lines, as the page runs them (what comes before needs the page).
    tail = bench_effects.SET_UP[bench_effects.SET_UP.index("PLAYS = ") :]
    shown = FakeEffects()
    space = {"shown": shown, "picture": str, "icon": str, "CARDS": bench_effects.CARDS}
    exec(compile(tail, "set-up", "exec"), space)
    assert set(space["PLAYS"]) == set(bench_effects.KINDS)
    for kind in bench_effects.KINDS:
        shown.calls.clear()
        space["play_effect"](kind)
        assert shown.calls[-1] == "_place" and len(shown.calls) >= 2, (kind, shown.calls)
    assert "runPython" not in bench_effects.PLAY and "play_effect" in bench_effects.PLAY
