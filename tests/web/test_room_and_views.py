"""The page's pure-Python side: the room model (roster, seats, chat checks) and its HTML views."""

from __future__ import annotations

import re

import pytest

from web.ui import rumble_views, views
from web.ui.room import BadMessage, Room, parse_message

JOINED = {
    "room": "ABC234",
    "you": "me",
    "host": "h",
    "roster": [
        {"id": "h", "name": "Аня", "role": "player", "order": 1},
        {"id": "s", "name": "Зритель", "role": "spectator", "order": 2},
        {"id": "me", "name": "Боря", "role": "player", "order": 3},
    ],
}


def test_seats_follow_join_order_and_skip_spectators() -> None:
    room = Room.from_joined(JOINED, "Боря")
    assert room.seats() == [(0, "h", "Аня"), (1, "me", "Боря")]
    html = views.roster("ru", room)
    assert "место 2" in html and "зритель" in html and "ведущий" in html


def test_chat_is_checked_deduplicated_and_survives_a_reload() -> None:
    room = Room.from_joined(JOINED, "Боря")
    wire, mine = room.make_chat("  привет\x07 ", 1000)
    message = parse_message(wire)
    assert message["text"] == "привет" and mine.mine
    other = Room.from_joined({**JOINED, "you": "h"}, "Аня")
    line = other.receive_chat("me", message)
    assert line is not None and line.name == "Боря"
    assert other.receive_chat("me", message) is None  # the same message twice shows once
    with pytest.raises(BadMessage):
        other.receive_chat("me", {**message, "id": "x", "text": "я" * 501})
    with pytest.raises(BadMessage):
        other.receive_chat("me", {"t": "chat", "id": "y"})
    with pytest.raises(BadMessage):
        parse_message("not json")
    with pytest.raises(BadMessage):
        room.make_chat("   ", 1)
    reloaded = Room.from_joined(JOINED, "Боря")
    reloaded.restore_chat(room.chat_json())
    assert [c.text for c in reloaded.chat] == ["привет"]
    reloaded.restore_chat("{damaged")  # a damaged copy changes nothing
    assert len(reloaded.chat) == 1


def test_a_dropped_peer_is_reported_once_and_the_host_moves_on() -> None:
    room = Room.from_joined(JOINED, "Боря")
    room.set_state("h", "connected", True)
    peer, dropped = room.set_state("h", "failed", False)
    assert peer is not None and dropped
    assert room.set_state("h", "failed", False)[1] is False
    room.remove_peer("h", "me")
    assert room.host == "me" and "h" not in room.peers


def test_views_escape_what_players_type() -> None:
    room = Room.from_joined(
        {**JOINED, "roster": [{"id": "h", "name": "<b>x</b>", "role": "player", "order": 1}]},
        "Боря",
    )
    html = views.roster("ru", room)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "&lt;" in views.home("ru", '"><script>', "", "[]")


def test_the_creature_prompt_shows_the_hit_and_names_the_creature() -> None:
    seat = {"seat": 1, "creatures": ["d_thicket_troll"], "creature_slots": [27]}
    view = {"waiting": {"phase": "absorb", "hit": 3}, "hand": [], "seats": [seat]}
    moves = [
        {"type": "absorb", "seat": 1, "creature": None},
        {"type": "absorb", "seat": 1, "creature": 27},
    ]
    html = rumble_views.prompt(view, moves, [], ["Аня", "Боря"])
    name = rumble_views.name_of("d_thicket_troll")
    assert "удар: 3 урона" in html and "Принять удар (3)" in html
    assert f"Сбросить тварь «{name}»" in html


def test_the_disease_choice_names_each_disease() -> None:
    from engine.games.rumble.listing import entries

    kinds = [e["id"] for e in entries() if e.get("deck") == "diseases"][:2]
    assert len(kinds) == 2
    for phase, verb in (("cure", "Вылечить"), ("transfer", "Передать")):
        view = {"waiting": {"phase": phase}, "hand": [], "seats": []}
        moves = [{"type": phase, "seat": 0, "disease": k, "token": f"{k}#1"} for k in kinds]
        html = rumble_views.prompt(view, moves, [], ["Аня"])
        for kind in kinds:
            assert f"{verb}: {rumble_views.name_of(kind)}" in html
        assert kinds[0] not in html, "a player sees names, not ids"


def test_sealing_offers_only_the_selected_cards() -> None:
    view = {
        "waiting": {"phase": "assembly"},
        "hand": [{"slot": 4, "card": "src_spark_lord"}, {"slot": 9, "card": "d_spark_thunderbolt"}],
        "seats": [],
    }
    one = {"type": "seal", "seat": 0, "secret": {"items": [{"slot": 4, "as": "source"}]}}
    two = {
        "type": "seal",
        "seat": 0,
        "secret": {"items": [{"slot": 4, "as": "source"}, {"slot": 9, "as": "delivery"}]},
    }
    assert "Запечатать" not in rumble_views.prompt(view, [one, two], [], [])
    html = rumble_views.prompt(view, [one, two], [9, 4], [])
    assert html.count("Запечатать:") == 1 and "приход" in html and 'data-index="1"' in html


def test_a_refused_real_time_play_is_explained_in_the_page_s_language() -> None:
    from web.ui.table_views import refusal_note

    late = "late move: the spell moved on"
    assert "Не успели" in refusal_note(late)
    english = refusal_note(late, "en")
    assert english.startswith("Too late") and not re.search("[а-яё]", english, re.I)
    assert refusal_note("queued move dropped", "en").startswith("Your next card")
    assert refusal_note("odd", "en") == "Move not taken: odd"
