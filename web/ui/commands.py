"""What each ``data-action`` on the page does: the table of clicks here, the tables of forms and
fields in ``web.ui.inputs``, and one dispatch for the three.

The views give buttons, forms and fields a ``data-action``; ``web.ui.app`` listens once on the
page and hands the element here. A name in no table is ignored with a note (returned, and written
to the browser's console by the app), never raised. Handlers reach the page through the app
(``app.element``, ``app.query``), so this module imports no browser code and loads in CPython.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .i18n import tr
from .inputs import FIELDS, FORMS, Handler, action_of

if TYPE_CHECKING:
    from .app import App


def attr(element: Any, name: str) -> str:
    """One attribute of the clicked element, as text."""
    return str(element.getAttribute(name))


# ----- clicks -----------------------------------------------------------------------------------


def _feel(app: App, target: Any) -> None:
    """The sound button and the log toggle (``web.ui.feel``)."""
    from . import feel

    feel.click(action_of(target), app.table)


def _lang(app: App, target: Any) -> None:
    app.set_language(attr(target, "data-lang"))


def _copy_link(app: App, _target: Any) -> None:
    app.spawn(copy_link(app))


async def copy_link(app: App) -> None:
    """The room's link onto the clipboard, else selected for the player to copy."""
    from js import window

    status, field = app.element("share-status"), app.element("room-link")
    try:
        await window.navigator.clipboard.writeText(field.value)
        status.textContent = tr("copied", app.lang)
    except Exception:  # a JavaScript error: the clipboard refused
        field.select()
        status.textContent = tr("copy_failed", app.lang)


def _mute(app: App, target: Any) -> None:
    from . import media

    media.toggle_mute(app.mesh, target, app.lang)


def _camera(app: App, target: Any) -> None:
    app.spawn(_switch_camera(app, target))


async def _switch_camera(app: App, button: Any) -> None:
    from . import media

    if not await media.toggle_camera(app.mesh, button, app.lang):
        app.notice(tr("no_camera", app.lang))


def _leave(app: App, _target: Any) -> None:
    app.leave()


def _save_ice(app: App, _target: Any) -> None:
    saved = app.prefs.save_ice(str(app.element("ice").value))
    app.element("ice-status").textContent = tr("saved" if saved else "bad_ice", app.lang)


def _add_bot(app: App, _target: Any) -> None:
    if app.mesh is not None:
        app.mesh.addBot()


def _pick(app: App, target: Any) -> None:
    if app.table is None:
        return
    app.table.pick(int(attr(target, "data-slot")))
    if target.hasAttribute("data-card"):  # a board may pick without opening the pane
        show_card(app, attr(target, "data-card"))


def _catalog(app: App, _target: Any) -> None:
    app.catalog_filter = {"game": app.game_id(), "deck": "", "school": ""}
    app.open_overlay(_pages().catalog(**app.catalog_filter))


def _catalog_filter(app: App, target: Any) -> None:
    kind, key = attr(target, "data-kind"), attr(target, "data-key")
    if kind == "game":  # another game's decks and schools: start unfiltered
        app.catalog_filter = {"game": key, "deck": "", "school": ""}
    app.catalog_filter[kind] = key
    app.open_overlay(_pages().catalog(**app.catalog_filter))


def _rules(app: App, target: Any) -> None:
    chosen = target.getAttribute("data-game")
    app.open_overlay(_pages().rules(str(chosen) if chosen else app.game_id()))


def _close_overlay(app: App, _target: Any) -> None:
    app.element("overlay").close()


def _close_detail(app: App, _target: Any) -> None:
    app.element("card-detail").hidden = True


def _hero(app: App, target: Any) -> None:
    if app.table is not None:
        app.table.set_hero(attr(target, "data-hero"))


def _ready(app: App, _target: Any) -> None:
    if app.table is not None:
        app.table.toggle_ready()


def _card_info(app: App, target: Any) -> None:
    show_card(app, attr(target, "data-card"))


def _move(app: App, target: Any) -> None:
    if app.table is not None:
        app.spawn(app.table.move(int(attr(target, "data-index"))))


def _host(app: App, target: Any) -> None:
    if app.table is not None:
        app.spawn(host_command(app, attr(target, "data-command")))


async def host_command(app: App, command: str) -> None:
    """Pause, resume, or hurry every seat the table waits for."""
    assert app.table is not None
    session = app.table.session
    if command != "hurry-all":
        await app.table.host_command(command)
    elif session is not None and session.peer is not None:
        for seat, owed in session.peer.table.obligations().items():
            if owed == "action":
                await app.table.host_command("hurry", seat)


def show_card(app: App, card_id: str) -> None:
    """A card's name, picture and full text in the detail pane (tap on a phone, click)."""
    pane = app.element("card-detail")
    if not pane or not card_id:
        return
    from .boards import board_for

    detail = board_for(app.game_id()).detail
    if detail is not None:
        pane.innerHTML = detail(card_id)
        pane.hidden = False


def _pages() -> Any:
    """The catalog and rules pages (imported on first use)."""
    from . import pages

    return pages


CLICKS: dict[str, Handler] = {
    "sound": _feel,
    "toggle-log": _feel,
    "lang": _lang,
    "copy-link": _copy_link,
    "mute": _mute,
    "camera": _camera,
    "leave": _leave,
    "save-ice": _save_ice,
    "add-bot": _add_bot,
    "pick": _pick,
    "catalog": _catalog,
    "catalog-filter": _catalog_filter,
    "rules": _rules,
    "close-overlay": _close_overlay,
    "close-detail": _close_detail,
    "hero": _hero,
    "ready": _ready,
    "card-info": _card_info,
    "move": _move,
    "host": _host,
}

# ----- dispatch ---------------------------------------------------------------------------------


def _run(table: dict[str, Handler], what: str, app: App, element: Any) -> str | None:
    action = action_of(element)
    handler = table.get(action)
    if handler is not None:
        handler(app, element)
        return None
    if action in CLICKS or action in FORMS or action in FIELDS:
        return None  # another event's (a click on a field, typing in a form): not this one's
    return f"no {what} handler for data-action {action!r}: ignored"


def click(app: App, target: Any) -> str | None:
    """Run a clicked element's command; a note (nothing run) for an unknown one."""
    return _run(CLICKS, "click", app, target)


def submit(app: App, form: Any) -> str | None:
    """Run a submitted form's command; a note (nothing run) for an unknown one."""
    return _run(FORMS, "form", app, form)


def field(app: App, target: Any) -> str | None:
    """Run a changed field's command (fields without a ``data-action`` are plain text boxes)."""
    if not action_of(target):
        return None
    return _run(FIELDS, "field", app, target)
