"""The panel's parts: a board rendered through ``parts.Marked`` is its skeleton and its parts,
which make exactly the HTML it renders otherwise; what the page is told of each redraw is only
the parts that changed, and a log that moved is told only its new lines."""

from __future__ import annotations

import json
import re
from functools import partial
from itertools import pairwise
from typing import Any

import pytest

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.games.circle.rules import CircleRules
from engine.games.nevermore import NevermoreRules
from engine.games.rumble import RumbleRules
from web.ui import circle_views, nevermore_views, parts, rumble_views

SEATS = range(4)
GAMES: dict[str, Any] = {
    "rumble": (
        RumbleRules,
        rumble_views.board,
        ["game-log", "hand", "rumble-head", "rumble-ask", "dice-box"]
        + [f"wizard-{s}" for s in SEATS],
    ),
    "nevermore": (
        NevermoreRules,
        nevermore_views.board,
        ["hand", "game-log", "nm-head", "nm-tokens-box", "nm-called-box", "nm-ask"]
        + [f"nm-player-{s}" for s in SEATS],
    ),
    "circle": (
        CircleRules,
        circle_views.board,
        ["game-log", "spell-box", "race-box", "c-piles", "race-note", "c-dock"]
        + [f"c-seat-{s}" for s in SEATS],
    ),
}


def views_of(game: str, steps: int, seat: int = 1) -> list[dict[str, Any]]:
    """``seat``'s view after each of ``steps`` steps of a seeded game of random bots."""
    rules = GAMES[game][0]()
    table = LocalTable(rules, {"seats": 4}, seed=7)
    bot = RandomBot(7)
    views = []
    for _ in range(steps):
        if not table.step(bot.choose):
            break
        views.append(rules.view(table.state, table.knowledge[seat]))
    return views


@pytest.mark.parametrize("game", GAMES)
def test_a_marked_board_is_its_skeleton_and_parts(game: str) -> None:
    board, ids = GAMES[game][1], GAMES[game][2]
    for view in views_of(game, 300)[::25]:
        html = board(view, 1, [], [])
        drawn = parts.Marked(partial(board, view, 1, [], []))
        assert drawn.html() == html
        assert sorted(drawn.parts) == sorted(ids)
        for part_id in ids:  # each part's element is there, empty, in the skeleton
            assert re.search(f'<[a-z]+ id="{part_id}"[^>]*></[a-z]+>', drawn.skeleton), part_id
        assert parts.part("x", "<b>y</b>") == "<b>y</b>"  # outside marked: the content
        assert parts.part("x", ["<i>1</i>", "<i>2</i>"]) == "<i>1</i><i>2</i>"


@pytest.mark.parametrize("game", GAMES)
def test_the_skeleton_changes_only_with_the_boards_own_attributes(game: str) -> None:
    """A seat's classes, the turn's data, the question asked, the piles change with most entries,
    each in a part of its own: from one step to the next the skeleton stays the same unless the
    board's section itself changed (its round, phase or fight). Before the parts' boxes it
    changed at 76-100 % of those steps."""
    board = GAMES[game][1]
    skeletons = [
        parts.Marked(partial(board, view, 1, [], [])).skeleton for view in views_of(game, 600)
    ]

    def section(skeleton: str) -> str:
        found = re.search(r"<section[^>]*>", skeleton)
        assert found is not None
        return found.group(0)

    same = [(a, b) for a, b in pairwise(skeletons) if section(a) == section(b)]
    assert len(same) >= 15
    assert sum(a != b for a, b in same) <= 0.02 * len(same)


def test_a_player_s_text_cannot_pass_for_a_placeholder() -> None:
    fake = "\ue000" + "0" * 16 + ":hand\ue001"
    drawn = parts.Marked(
        lambda: f'<p>{fake}</p><div id="hand">{parts.part("hand", "<b>h</b>")}</div>'
    )
    assert drawn.skeleton == f'<p>{fake}</p><div id="hand"></div>'
    assert drawn.html() == f'<p>{fake}</p><div id="hand"><b>h</b></div>'


def test_a_list_that_moved_is_told_by_its_ends() -> None:
    lines = [f"<li>{i}</li>" for i in range(10)]
    assert parts.list_shift(lines[:5], lines[:8]) == (0, lines[5:8])  # grew
    assert parts.list_shift(lines[:5], lines[2:7]) == (2, lines[5:7])  # at its cap
    assert parts.list_shift(lines[:5], lines[5:9]) is None  # nothing kept: told whole
    assert parts.list_shift(lines[:5], lines[6:]) is None
    assert parts.list_shift([], lines[:3]) == (0, lines[:3])
    assert parts.list_shift(lines[:5], ["<li>new game</li>"]) is None
    assert parts.list_shift(lines[:5], lines[:3]) is None  # lost its end: told whole
    same = ["<li>a</li>", "<li>a</li>", "<li>a</li>"]
    assert parts.list_shift(same, [*same, "<li>b</li>"]) == (0, ["<li>b</li>"])


def test_each_redraw_tells_only_what_changed() -> None:
    told = parts.Told()

    def draw(head: str, hand: str, log: list[str]) -> tuple[str, dict[str, Any]] | None:
        drawn = parts.Marked(
            lambda: (
                f"<h2>{head}</h2><div id='hand'>{parts.part('hand', hand)}</div>"
                f"<ol id='game-log'>{parts.part('game-log', log)}</ol>"
            )
        )
        out = told.tell(drawn)
        return None if out is None else (out[0], json.loads(out[1]))

    lines = [f"<li>{i}</li>" for i in range(200)]
    first = draw("1", "<b>a</b>", lines[:150])
    assert first is not None
    assert first[1] == {
        "ids": ["hand", "game-log"],
        "whole": {"hand": "<b>a</b>", "game-log": lines[:150]},
        "moved": {},
    }
    assert draw("1", "<b>a</b>", lines[:150]) is None  # nothing changed: nothing to do
    second = draw("2", "<b>a</b>", lines[3:153])
    assert second == (
        "<h2>2</h2><div id='hand'></div><ol id='game-log'></ol>",
        {"ids": ["hand", "game-log"], "whole": {}, "moved": {"game-log": [3, lines[150:153]]}},
    )
    third = draw("2", "<b>b</b>", lines[3:153])
    assert third is not None and third[1]["whole"] == {"hand": "<b>b</b>"}
    assert third[1]["moved"] == {}
    assert third[0] is None  # the skeleton told last: the page neither parses nor compares it
    # The panel was emptied: told again, with nothing new, so the page fills it from before.
    drawn = parts.Marked(
        lambda: (
            f"<h2>2</h2><div id='hand'>{parts.part('hand', '<b>b</b>')}</div>"
            f"<ol id='game-log'>{parts.part('game-log', lines[3:153])}</ol>"
        )
    )
    again = told.tell(drawn, again=True)
    assert again is not None and json.loads(again[1])["whole"] == {}
    assert second is not None and again[0] == second[0]  # the skeleton too, the panel being empty
    told.forget("hand")  # the page wrote into the hand's nodes: it is told again
    fourth = draw("2", "<b>b</b>", lines[3:153])
    assert fourth is not None and fourth[0] is None and fourth[1]["whole"] == {"hand": "<b>b</b>"}


def test_a_memo_draws_again_only_for_new_inputs_and_gives_its_parts_back() -> None:
    memo, calls = parts.Memo(), []

    def board(hand: str) -> str:
        calls.append(hand)
        return f'<p>head</p><div id="hand">{parts.part("hand", hand)}</div>'

    def marked(hand: str, inputs: tuple[Any, ...]) -> parts.Marked:
        return parts.Marked(lambda: "<h2>t</h2>" + memo.render(inputs, lambda: board(hand)))

    first = marked("<b>1</b>", ({"view": [1]}, "ru"))
    again = marked("<b>1</b>", ({"view": [1]}, "ru"))  # an equal view, another object
    assert calls == ["<b>1</b>"]
    assert again.skeleton == first.skeleton == '<h2>t</h2><p>head</p><div id="hand"></div>'
    assert again.parts == first.parts == {"hand": "<b>1</b>"}
    assert marked("<b>2</b>", ({"view": [2]}, "ru")).parts == {"hand": "<b>2</b>"}
    assert memo.render(({"view": [2]}, "ru"), lambda: board("<b>2</b>")) == (
        '<p>head</p><div id="hand"><b>2</b></div>'  # outside Marked: drawn whole, once more
    )
    assert calls == ["<b>1</b>", "<b>2</b>", "<b>2</b>"]
    marked("<b>2</b>", ({"view": [2]}, "en"))
    assert len(calls) == 4
