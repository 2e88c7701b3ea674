"""Which log entry a benchmark times a click to (``bench_table_browser.click_entries``)."""

from __future__ import annotations

from typing import Any

from benchmarks.bench_table_browser import click_entries, shown_by


def traces(log: list[list[str]], clicks: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Two pages that applied entry i at time 10·i (the second 1 ms later); ``clicks``: tid →
    the log lengths at its clicks, each made at time 10·length − 5."""
    pages = []
    for lag, tid in enumerate(("a", "b")):
        pages.append(
            {
                "tid": tid,
                "log": log,
                "applied": [10.0 * i + lag for i in range(len(log))],
                "submitted": [[10.0 * n - 5, n] for n in clicks.get(tid, [])],
            }
        )
    return pages


def test_a_move_that_shows_cards_is_timed_to_its_cardkeys() -> None:
    log = [["a", "action"], ["b", "preimage"], ["a", "cardkeys"]]
    assert shown_by(log, 0) == 2
    assert click_entries(traces(log, {"a": [0]})) == [(26.0, 2)]


def test_an_action_is_not_timed_to_the_cards_of_its_authors_next_action() -> None:
    # The click declares something; the game then opens the same seat's spell at once (an
    # automatic move) and its cards follow: they belong to the second action, not the click's.
    log = [["a", "action"], ["a", "action"], ["a", "cardkeys"]]
    assert shown_by(log, 0) == 0
    assert shown_by(log, 1) == 2
    assert click_entries(traces(log, {"a": [0]})) == [(6.0, 0)]


def test_another_seats_cardkeys_do_not_show_this_move() -> None:
    log = [["a", "action"], ["b", "cardkeys"], ["b", "action"]]
    assert shown_by(log, 0) == 0
    assert click_entries(traces(log, {"a": [0], "b": [2]})) == [(6.0, 0), (6.0, 2)]
