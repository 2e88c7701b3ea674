"""The «Волшебный круг» board: ring geometry, hand buttons, target choice, result, escaping."""

from __future__ import annotations

import re
from typing import Any

from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.circle.rules import CircleRules
from web.ui import circle_views


def racing_table(seats: int = 4, names: list[str] | None = None) -> LocalTable:
    rules = CircleRules()
    config = {"seats": seats, "names": names or [f"P{i}" for i in range(seats)]}
    table = LocalTable(rules, config, seed=3)
    while table.decision().kind != Kind.RACE:
        table.step(lambda *args: None)
    return table


def view_of(table: LocalTable, seat: int) -> dict[str, Any]:
    view: dict[str, Any] = table.rules.view(table.state, table.knowledge[seat])
    return view


def test_my_seat_sits_at_the_bottom_and_my_left_neighbour_to_the_left() -> None:
    x0, y0 = circle_views.position(2, 2, 5)
    x1, _ = circle_views.position(3, 2, 5)
    assert y0 > 80 and abs(x0 - 50) < 1
    assert x1 < 50


def test_every_playable_card_is_one_button_and_a_key() -> None:
    table = racing_table()
    view = view_of(table, 0)
    moves = view["legal"]
    html = circle_views.board(view, 0, moves, [])
    hand = re.search(r'<div id="moves" class="c-hand">(.*?)</div>', html, re.S)
    assert hand is not None
    buttons = re.findall(r"<button[^>]*class=\"c-card\"[^>]*>", hand.group(1))
    assert len(buttons) == len(view["hand"]) >= 5
    keys = re.findall(r"<kbd>(\d)</kbd>", hand.group(1))
    assert keys == [str(i + 1) for i in range(len(keys))] and keys
    indexes = [int(i) for i in re.findall(r'data-index="(\d+)"', hand.group(1))]
    assert all(0 <= i < len(moves) for i in indexes)
    assert f'data-target="{view["spell"]["target"]}"' in html


def test_an_all_directions_wind_asks_for_its_target() -> None:
    table = racing_table(5)
    view = view_of(table, 0)
    slot = view["hand"][0]["slot"]
    moves = [
        {"type": "play", "seat": 0, "slot": slot, "show": [slot], "step": 0, "target": t}
        for t in (1, 2, 3)
    ]
    html = circle_views.board(view, 0, moves, [])
    assert f'data-action="pick" data-slot="{slot}"' in html
    chosen = circle_views.board(view, 0, moves, [slot])
    targets = re.findall(r'class="c-target" data-action="move" data-index="(\d)"', chosen)
    assert targets == ["0", "1", "2"]
    assert "→ P1" in chosen and "→ P3" in chosen


def test_names_are_escaped_and_spectators_have_no_hand() -> None:
    table = racing_table(3, ["<b>x</b>", "Ann", "Bo"])
    view = view_of(table, 1)
    html = circle_views.board(view, None, [], [])
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert 'id="moves"' not in html


def test_the_end_names_the_winner_or_nobody() -> None:
    table = racing_table(3)
    view = view_of(table, 0)
    over = {**view, "over": True, "winner": 2}
    assert 'data-winner="2"' in circle_views.board(over, 0, [], [])
    nobody = {**view, "over": True, "winner": None}
    assert "победителей нет" in circle_views.board(nobody, 0, [], [])


def test_the_countdown_setting_is_the_scramble_timer_and_is_bounded() -> None:
    window = circle_views.RACE_WINDOW_MS
    assert 0 < window <= 150
    for typed, seconds in (("6", 6), ("99", 15), ("x", 4)):
        expected = {"timers": {"scramble": seconds}, "race_window": window}
        assert circle_views.config(lambda _, typed=typed: typed) == expected
    assert 'id="table-countdown"' in circle_views.settings("ru")


def test_the_card_pane_explains_a_spell_keyword() -> None:
    html = circle_views.detail("fire")
    assert "ОГОНЬ" in html and "РАЗДУВАНИЕ" in html and "Сила 1" in html


def test_the_countdown_shows_only_while_a_spell_flies() -> None:
    table = racing_table(3)
    view = view_of(table, 0)
    assert 'id="race-countdown"' in circle_views.board(view, 0, [], [])
    over = {**view, "phase": "over", "over": True, "winner": 1}
    assert 'id="race-countdown"' not in circle_views.board(over, 0, [], [])
