"""What the page's forms and fields do when submitted or changed: one table for each, from the
element's ``data-action`` to its handler (``web.ui.commands`` dispatches them with the clicks).

Handlers reach the page through the app, so this module imports no browser code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .i18n import tr

if TYPE_CHECKING:
    from .app import App

Handler = Callable[["App", Any], None]


def action_of(element: Any) -> str:
    """The element's ``data-action`` ("" without one)."""
    value = element.getAttribute("data-action")
    return str(value) if value else ""


def _enter(app: App, form: Any) -> None:
    """Create a room, or join one by its code, under the name typed."""
    name = str(app.element("name").value).strip()
    if not name:
        app.set_home_error(tr("name_needed", app.lang))
        return
    checked = app.query("input[name=role]:checked")
    app.name, app.role = name, str(checked.value) if checked else "player"
    app.prefs.set_name(name)
    code = str(app.element("code").value).strip().upper()
    joining = action_of(form) == "join"
    if joining and not code:
        app.set_home_error(tr("code_needed", app.lang))
        return
    app.spawn(app.enter(code if joining else None, None))


def _open_table(app: App, _form: Any) -> None:
    if app.table is None:
        return
    from .boards import board_for
    from .table import element_value

    timer = max(5, int(element_value("table-timer") or "30"))
    game = element_value("table-game")
    config = board_for(game).config(element_value)
    app.spawn(app.table.open_table(game, config, timer))


def _chat(app: App, _form: Any) -> None:
    field = app.element("chat-input")
    app.send_chat(str(field.value))
    field.value = ""


FORMS: dict[str, Handler] = {
    "create": _enter,
    "join": _enter,
    "open-table": _open_table,
    "chat": _chat,
}


def _sound_volume(_app: App, field: Any) -> None:
    from . import feel

    feel.changed(field)


def _choose_game(app: App, field: Any) -> None:
    if app.table is not None:
        app.table.choose_game(str(field.value))


def _peer_volume(app: App, field: Any) -> None:
    from . import media

    media.set_volume(app.mesh, field)


FIELDS: dict[str, Handler] = {
    "sound-volume": _sound_volume,
    "choose-game": _choose_game,
    "volume": _peer_volume,
}
