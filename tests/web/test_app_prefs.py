"""What the page keeps in the browser: each preference and the session round-trip, and a missing
or damaged value reads as the default, never as an error."""

from __future__ import annotations

import json

from engine.protocol.storage import MemoryStorage
from web.ui import prefs
from web.ui.prefs import Prefs


def fresh() -> tuple[Prefs, MemoryStorage, MemoryStorage]:
    local, session = MemoryStorage(), MemoryStorage()
    return Prefs(local, session), local, session


def test_language_round_trips_and_an_unknown_one_reads_as_russian() -> None:
    page, local, _ = fresh()
    assert page.language() == "ru"
    page.set_language("en")
    assert page.language() == "en" and Prefs(local, MemoryStorage()).language() == "en"
    local.setItem(prefs.LANG_KEY, "xx")
    assert page.language() == "ru"


def test_name_and_voice_round_trip() -> None:
    page, local, _ = fresh()
    assert (page.name(), page.voice()) == ("", True)
    page.set_name("Аня")
    local.setItem(prefs.VOICE_KEY, "off")
    assert (page.name(), page.voice()) == ("Аня", False)


def test_ice_servers_round_trip_and_a_bad_entry_keeps_the_last_good_one() -> None:
    page, local, _ = fresh()
    assert page.ice_servers([{"urls": "stun:site"}]) == [{"urls": "stun:site"}]
    servers = [{"urls": "turn:x", "username": "u", "credential": "c"}]
    assert page.save_ice(json.dumps(servers))
    assert page.ice_servers([]) == servers
    for bad in ("{", '{"urls": "x"}', "42"):
        assert not page.save_ice(bad)
    assert page.ice_servers([]) == servers
    assert page.save_ice("") and page.ice_servers(["site"]) == []  # nothing typed: no servers
    local.setItem(prefs.ICE_KEY, "[not json")
    assert page.ice_servers(["site"]) == ["site"]


def test_the_session_round_trips_is_forgotten_and_a_damaged_one_reads_as_none() -> None:
    page, _, session = fresh()
    assert page.stored_session() is None
    page.save_session("ABCD", "Аня", "spectator", "tok")
    expected = {"room": "ABCD", "name": "Аня", "role": "spectator", "resume": "tok"}
    assert page.stored_session() == expected
    page.forget_session()
    assert page.stored_session() is None
    for damaged in ("{", '["ABCD"]', '{"room": "ABCD"}'):
        session.setItem(prefs.SESSION_KEY, damaged)
        assert page.stored_session() is None


def test_the_chat_is_kept_per_room() -> None:
    page, _, _ = fresh()
    assert page.chat("ABCD") is None
    page.save_chat("ABCD", '[{"id": "1"}]')
    assert page.chat("ABCD") == '[{"id": "1"}]' and page.chat("WXYZ") is None
