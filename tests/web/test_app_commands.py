"""The page's command tables: every ``data-action`` the page can emit has a handler of the right
kind, no handler is dead, an unknown one is a note, and the handlers do what the page did."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.app_double import Element, RecordingApp
from tests.web.page_source import page_actions
from web.ui import commands, pages
from web.ui.i18n import tr
from web.ui.inputs import FIELDS, FORMS

FIELD_TAGS = ("input", "select", "textarea")


def emitted(kind: str) -> set[str]:
    """The page's actions on forms, on fields, or on anything else (clicked)."""
    found = page_actions()
    if kind == "form":
        return {action for tag, action in found if tag == "form"}
    if kind == "field":
        return {action for tag, action in found if tag in FIELD_TAGS}
    return {action for tag, action in found if tag != "form" and tag not in FIELD_TAGS}


def test_the_source_reading_finds_the_page_s_actions_and_resolves_the_variable_ones() -> None:
    found = page_actions()
    # rumble's and nevermore's hands fill data-action from a variable: "pick" while choosing
    assert ("button", "pick") in found and ("button", "card-info") in found
    assert ("form", "create") in found and ("select", "choose-game") in found
    assert ("button", "close-overlay") in found  # the page's static HTML


@pytest.mark.parametrize(
    ("kind", "table"), [("click", commands.CLICKS), ("form", FORMS), ("field", FIELDS)]
)
def test_every_action_the_page_emits_has_a_handler_and_none_is_dead(
    kind: str, table: dict[str, Any]
) -> None:
    actions = emitted(kind)
    assert actions, f"no {kind} action found in the page's source"
    assert sorted(actions - table.keys()) == [], f"{kind} actions without a handler"
    assert sorted(table.keys() - actions) == [], f"{kind} handlers nothing emits"


def test_an_unknown_action_is_ignored_with_a_note() -> None:
    app = RecordingApp()
    for run, element in (
        (commands.click, Element(data_action="fly")),
        (commands.submit, Element("FORM", data_action="fly")),
        (commands.field, Element("INPUT", data_action="fly")),
    ):
        note = run(app, element)
        assert note is not None and "'fly'" in note and "ignored" in note
    assert (app.overlays, app.notices, app.spawned, app.languages) == ([], [], [], [])


def test_another_event_s_action_and_a_plain_text_box_are_quietly_not_this_event_s() -> None:
    app = RecordingApp()
    assert commands.click(app, Element("INPUT", data_action="volume")) is None
    assert commands.click(app, Element("SELECT", data_action="choose-game")) is None
    assert commands.field(app, Element("INPUT", value="typed")) is None
    assert commands.submit(app, Element("FORM", data_action="move")) is None


def test_language_leave_and_bot_go_to_the_app() -> None:
    app = RecordingApp()
    assert commands.click(app, Element(data_action="lang", data_lang="en")) is None
    commands.click(app, Element(data_action="leave"))
    commands.click(app, Element(data_action="add-bot"))  # no mesh yet: nothing to ask
    assert (app.languages, app.left) == (["en"], 1)


def test_table_commands_wait_for_a_table() -> None:
    app = RecordingApp()
    for action, extra in (("move", {"data_index": "0"}), ("pick", {"data_slot": "1"})):
        assert commands.click(app, Element(data_action=action, **extra)) is None
    for action in ("ready", "hero", "host"):
        assert commands.click(app, Element(data_action=action)) is None
    assert app.spawned == []


def test_catalog_filters_by_game_and_starts_another_game_unfiltered() -> None:
    app = RecordingApp()
    commands.click(app, Element(data_action="catalog"))
    assert app.overlays == [pages.catalog("rumble")]
    commands.click(app, Element(data_action="catalog-filter", data_kind="deck", data_key="x"))
    assert app.catalog_filter == {"game": "rumble", "deck": "x", "school": ""}
    commands.click(app, Element(data_action="catalog-filter", data_kind="game", data_key="circle"))
    assert app.catalog_filter == {"game": "circle", "deck": "", "school": ""}
    assert app.overlays[-1] == pages.catalog("circle")


def test_rules_show_the_chosen_game_else_the_table_s() -> None:
    app = RecordingApp()
    commands.click(app, Element(data_action="rules", data_game="nevermore"))
    commands.click(app, Element(data_action="rules"))
    assert app.overlays == [pages.rules("nevermore"), pages.rules("rumble")]


def test_close_buttons_close_the_overlay_and_the_card_pane() -> None:
    app = RecordingApp()
    commands.click(app, Element(data_action="close-overlay"))
    commands.click(app, Element(data_action="close-detail"))
    assert app.element("overlay").closed and app.element("card-detail").hidden


def test_ice_servers_are_kept_only_as_a_json_list() -> None:
    app = RecordingApp("en")
    app.element("ice").value = '{"urls": "stun:x"}'
    commands.click(app, Element(data_action="save-ice"))
    assert app.element("ice-status").textContent == tr("bad_ice", "en")
    assert app.prefs.ice_servers(["site"]) == ["site"]
    app.element("ice").value = '[{"urls": "stun:x"}]'
    commands.click(app, Element(data_action="save-ice"))
    assert app.element("ice-status").textContent == tr("saved", "en")
    assert app.prefs.ice_servers(["site"]) == [{"urls": "stun:x"}]


def test_entering_needs_a_name_and_joining_a_code() -> None:
    app = RecordingApp("en")
    app.element("name").value = "  "
    commands.submit(app, Element("FORM", data_action="create"))
    app.element("name").value = "Аня"
    app.element("code").value = ""
    commands.submit(app, Element("FORM", data_action="join"))
    assert app.home_errors == [tr("name_needed", "en"), tr("code_needed", "en")]
    assert app.spawned == [] and app.prefs.name() == "Аня"
    commands.submit(app, Element("FORM", data_action="create"))
    assert app.spawned == ["RecordingApp.enter"] and app.name == "Аня"


def test_a_chat_form_sends_its_text_and_clears_the_field() -> None:
    sent: list[str] = []
    app = RecordingApp()
    app.send_chat = sent.append
    app.element("chat-input").value = "привет"
    commands.submit(app, Element("FORM", data_action="chat"))
    assert sent == ["привет"] and app.element("chat-input").value == ""
