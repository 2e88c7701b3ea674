"""Where in a game the browser benchmarks' long tasks came (``benchmarks.longtasks.when``)."""

from __future__ import annotations

from benchmarks import longtasks

ORIGIN = 1_000_000.0  # a page's timeOrigin (ms since the epoch)


def test_a_long_task_is_placed_among_the_entries_its_page_showed_around_it() -> None:
    kinds = ["shuffle2", "shuffle2", "deliver", "deliver", "deliver", "action", "preimages"]
    # Page 0 showed each entry 100 ms after the last, from 10 ms after its origin.
    shown = [[ORIGIN + 10 + 100 * i for i in range(len(kinds))], []]
    # A 60 ms task starting 250 ms into the page (after entry 2, before entry 3 at 310).
    tasks: list[list[list[float]]] = [[[250.0, 60.0]], []]
    lines = longtasks.when(tasks, shown, kinds, [ORIGIN, ORIGIN + 5], around_ms=150)
    assert lines == [
        "page 0: 60 ms at entry 3 of 7; shown in the 150 ms before: shuffle2, deliver;"
        " during: deliver; after: deliver"
    ]


def test_each_page_reads_its_own_clock_and_stamps() -> None:
    kinds = ["deliver", "action"]
    shown = [[ORIGIN + 100, ORIGIN + 400], [ORIGIN + 900, ORIGIN + 1200]]
    # The same start (200 ms) on two pages whose origins differ by 700 ms.
    tasks = [[[200.0, 55.0]], [[200.0, 55.0]]]
    first, second = longtasks.when(tasks, shown, kinds, [ORIGIN, ORIGIN + 700], around_ms=150)
    assert first == (
        "page 0: 55 ms at entry 1 of 2; shown in the 150 ms before: deliver;"
        " during: nothing; after: action"
    )
    assert second == (
        "page 1: 55 ms at entry 0 of 2; shown in the 150 ms before: nothing;"
        " during: deliver; after: nothing"
    )


def test_no_long_task_no_lines() -> None:
    assert longtasks.when([[], []], [[ORIGIN], [ORIGIN]], ["start"], [ORIGIN, ORIGIN]) == []


def test_runs_of_one_kind_are_counted() -> None:
    assert longtasks.runs(["deliver"] * 3 + ["action", "deliver"]) == "deliver ×3, action, deliver"
    assert longtasks.runs([]) == "nothing"


def test_a_game_read_off_its_pages_is_placed_the_same_way() -> None:
    log = [["a", "start"], ["b", "chain"], ["a", "action", True]]
    traces = [
        {"applied": [ORIGIN + 10, ORIGIN + 20, ORIGIN + 400], "log": log},
        {"applied": [ORIGIN + 12, ORIGIN + 25, ORIGIN + 402], "log": log},
    ]
    tasks = [[[30.0, 70.0]], []]
    assert longtasks.when_traced(tasks, [traces], [ORIGIN, ORIGIN]) == [
        "page 0: 70 ms at entry 2 of 3; shown in the 300 ms before: start, chain;"
        " during: nothing; after: action"
    ]


def test_games_in_a_row_are_joined_in_turn() -> None:
    first = [{"applied": [ORIGIN + 10], "log": [["a", "start"]]}]
    second = [{"applied": [ORIGIN + 500, ORIGIN + 520], "log": [["a", "start"], ["b", "chain"]]}]
    tasks = [[[530.0, 60.0]]]
    assert longtasks.when_traced(tasks, [first, second], [ORIGIN], around_ms=100) == [
        "page 0: 60 ms at entry 3 of 3; shown in the 100 ms before: start, chain;"
        " during: nothing; after: nothing"
    ]
