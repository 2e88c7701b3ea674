"""The log's items are said once: a redraw renders only the entries added since the last one,
and the result is always what rendering the whole log would give."""

from __future__ import annotations

from typing import Any

import pytest

from web.ui import log_icons, log_view
from web.ui.phrases import render_log

NAMES = ["Аня", "Боря"]
LOG: list[dict[str, Any]] = [
    {"e": "round", "round": 1},
    {"e": "seal", "seat": 1, "count": 2},
    {"e": "hurt", "seat": 1, "amount": 3, "by": 0, "life": 17},
    {"e": "dies", "seat": 1},
    {"e": "survivor", "seat": 0},
]


def whole(events: list[Any], lang: str = "ru", last: int = 150) -> str:
    """The items of the last ``last`` entries, every one said afresh."""
    texts = render_log("rumble", events, lang, NAMES)
    lines = [log_icons.line("rumble", e, t) for e, t in zip(events, texts, strict=True)]
    return "".join(lines[-last:])


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many entries each call of render_log said."""
    calls: list[int] = []

    def counting(game: str, events: Any, lang: str = "ru", names: Any = ()) -> list[str]:
        calls.append(len(events))
        return render_log(game, events, lang, names)

    monkeypatch.setattr(log_view, "render_log", counting)
    log_view._SAID.clear()
    return calls


def test_a_growing_log_is_said_entry_by_entry(counted: list[int]) -> None:
    for n in range(1, len(LOG) + 1):
        assert log_view.items("rumble", LOG[:n], "ru", NAMES, 150) == whole(LOG[:n])
    assert counted == [1, 1, 1, 1, 1]
    assert log_view.items("rumble", LOG, "ru", NAMES, 2) == whole(LOG, last=2)
    assert counted[-1] == 0  # nothing new to say


def test_another_language_names_or_game_says_it_all_again(counted: list[int]) -> None:
    log_view.items("rumble", LOG, "ru", NAMES, 150)
    assert log_view.items("rumble", LOG, "en", NAMES, 150) == whole(LOG, "en")
    assert log_view.items("rumble", LOG, "en", ["Ann", "Bob"], 150).count("Bob") >= 2
    assert counted == [5, 5, 5]


def test_a_log_that_is_not_the_one_known_starts_again(counted: list[int]) -> None:
    log_view.items("rumble", LOG, "ru", NAMES, 150)
    other = [{"e": "round", "round": 7}, *LOG[1:]]
    assert log_view.items("rumble", other, "ru", NAMES, 150) == whole(other)
    assert log_view.items("rumble", LOG[:2], "ru", NAMES, 150) == whole(LOG[:2])  # shorter
    assert counted == [5, 5, 2]


def test_the_shown_lines_start_moves_by_whole_steps() -> None:
    assert [log_view.first_shown(n, 3, 2) for n in range(9)] == [0, 0, 0, 0, 0, 2, 2, 4, 4]
    for count in range(400):
        start = log_view.first_shown(count, 150, 50)
        assert start % 50 == 0
        assert min(count, 150) <= count - start <= max(count, 150) and count - start < 200
    assert [log_view.first_shown(n, 2) for n in range(5)] == [0, 0, 0, 1, 2]  # step 1: the last 2
    assert log_view.first_shown(7, 0, 50) == 7  # nothing shown


def test_a_long_log_drops_its_oldest_lines_a_step_at_a_time(counted: list[int]) -> None:
    events = [{"e": "round", "round": n} for n in range(1, 12)]
    shown = [log_view.lines("rumble", events[:n], "ru", NAMES, 4, 3) for n in range(1, 12)]
    texts = render_log("rumble", events, "ru", NAMES)
    every = [log_icons.line("rumble", e, t) for e, t in zip(events, texts, strict=True)]
    firsts = [every.index(lines[0]) for lines in shown]
    assert firsts == [0, 0, 0, 0, 0, 0, 3, 3, 3, 6, 6]
    assert all(
        lines == every[first : n + 1]
        for n, (lines, first) in enumerate(zip(shown, firsts, strict=True))
    )
    assert counted == [1] * 11  # still said entry by entry


def test_a_drop_moves_no_more_lines_than_it_drops() -> None:
    """Each drop of old lines moves every kept line, which the page then paints again (in a
    traced fight, whole-log repaints of 150 lines made frames of up to 50 ms): the boards keep at
    most as many lines as a drop takes away, and drop them rarely."""
    from web.ui import nevermore_views, rumble_views

    for board in (rumble_views, nevermore_views):
        assert 50 <= board.LOG_LINES <= log_view.STEP, board.__name__
