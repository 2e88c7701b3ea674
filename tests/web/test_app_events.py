"""The page's mesh-event table: every event ``mesh.js`` reports has a handler and none is dead,
an unknown one is a note, and chat, bad messages and server refusals come out as before."""

from __future__ import annotations

import json

from tests.web.app_double import RecordingApp
from tests.web.page_source import mesh_events
from web.ui import mesh_events as events
from web.ui.i18n import tr
from web.ui.room import Room


def joined_frame(you: str) -> dict[str, object]:
    roster = [
        {"id": "a", "name": "Аня", "role": "player", "order": 0},
        {"id": "b", "name": "Борис", "role": "player", "order": 1},
    ]
    return {"type": "joined", "room": "ABCD", "you": you, "host": "a", "roster": roster}


def in_room(you: str = "b") -> RecordingApp:
    app = RecordingApp("en")
    app.name = "Борис" if you == "b" else "Аня"
    app.room = Room.from_joined(joined_frame(you), app.name)
    return app


def test_every_event_mesh_js_reports_has_a_handler_and_none_is_dead() -> None:
    reported = mesh_events()
    assert {"joined", "message", "media", "bot-added"} <= reported  # named, and passed on as is
    assert sorted(reported - events.EVENTS.keys()) == []
    assert sorted(events.EVENTS.keys() - reported) == []


def test_an_unknown_event_is_ignored_with_a_note() -> None:
    app = in_room()
    note = events.dispatch(app, "weather", {"rain": True})
    assert note is not None and "'weather'" in note and "ignored" in note
    assert app.notices == [] and app.lines == []


def test_a_chat_message_from_a_peer_is_shown_once_with_its_latency() -> None:
    sender = Room.from_joined(joined_frame("a"), "Аня")
    wire, _ = sender.make_chat("  привет  ", 5, at=999_990.0)
    app = in_room()
    for _ in range(2):  # the second copy is a duplicate
        assert events.dispatch(app, "message", {"peer": "a", "text": wire}) is None
    assert [(line.name, line.text) for line in app.lines] == [("Аня", "привет")]
    assert app.latencies == [10.0]


def test_a_malformed_message_is_a_notice_naming_its_sender_and_changes_nothing() -> None:
    app = in_room()
    assert app.room is not None
    before = list(app.room.chat)
    bad = json.dumps({"t": "chat", "id": 7, "text": "x", "ts": 1})
    events.dispatch(app, "message", {"peer": "a", "text": bad})
    events.dispatch(app, "message", {"peer": "a", "text": "{not json"})
    assert len(app.notices) == 2 and all("Аня" in notice for notice in app.notices)
    assert app.lines == [] and app.room.chat == before


def test_a_game_message_goes_to_the_game_handlers_and_a_hello_does_not() -> None:
    app = in_room()
    seen: list[tuple[str, str]] = []
    app.game_handlers.append(lambda peer, message: seen.append((peer, message["t"])))
    events.dispatch(app, "message", {"peer": "a", "text": json.dumps({"t": "hello"})})
    events.dispatch(app, "message", {"peer": "a", "text": json.dumps({"t": "bid", "n": 2})})
    assert seen == [("a", "bid")]


def test_a_refusal_before_the_room_forgets_a_session_that_cannot_be_rejoined() -> None:
    app = RecordingApp("en")
    app.prefs.save_session("ABCD", "Аня", "player", "token")
    events.dispatch(app, "error", {"code": "name-taken"})
    assert app.prefs.stored_session() is None
    app.prefs.save_session("ABCD", "Аня", "player", "token")
    events.dispatch(app, "error", {"code": "join-rate-limit"})
    assert app.prefs.stored_session() is not None  # a later try may get in
    events.dispatch(app, "error", {"code": "odd", "message": "the server's words"})
    assert app.home_errors == [
        tr("err_name-taken", "en"),
        tr("err_join-rate-limit", "en"),
        tr("err_other", "en", message="the server's words"),
    ]


def test_in_the_room_a_refusal_and_a_new_bot_are_notices() -> None:
    app = in_room()
    events.dispatch(app, "error", {"code": "not-host"})
    events.dispatch(app, "bot-added", {"name": "Бот 1"})
    assert app.notices == [tr("err_not-host", "en"), tr("bot_added", "en", name="Бот 1")]
    assert app.home_errors == []


def test_a_peer_joining_and_dropping_is_noted_and_the_room_follows() -> None:
    app = in_room()
    assert app.room is not None
    peer = {"id": "c", "name": "Вера", "role": "player", "order": 2}
    events.dispatch(app, "peer-joined", {"peer": peer})
    assert "c" in app.room.peers
    events.dispatch(app, "peer-state", {"peer": "c", "state": "connected", "channel": False})
    events.dispatch(app, "peer-state", {"peer": "c", "state": "failed", "channel": False})
    assert app.notices == [
        tr("joined_notice", "en", name="Вера"),
        tr("dropped_notice", "en", name="Вера"),
    ]
