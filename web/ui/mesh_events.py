"""What the page does with each event ``mesh.js`` reports: the signalling server's frames, the
peers' connection states, their data-channel messages and their media.

One table from the event's name to its handler. An unknown event is ignored with a note
(returned, and written to the browser's console by the app). Handlers reach the page through the
app, so this module imports no browser code and loads in CPython.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .i18n import tr
from .room import BadMessage, Room, parse_message

if TYPE_CHECKING:
    from .app import App

Handler = Callable[["App", Any], None]

# The server's refusals the page words itself (``err_<code>``); others show the server's message.
ERROR_CODES = frozenset(
    ("no-room", "room-full", "name-taken", "bad-name", "join-rate-limit", "not-host")
) | frozenset(("bots-disabled", "too-many-bots"))
FORGET_ON = ("no-room", "name-taken", "room-full")  # the stored session cannot be rejoined


def joined(app: App, frame: dict[str, Any]) -> None:
    """In a room: keep the session for a reload, show the room, start the table."""
    app.room = Room.from_joined(frame, app.name)
    app.room.restore_chat(app.prefs.chat(app.room.code))
    app.prefs.save_session(app.room.code, app.name, app.role, str(frame.get("resume") or ""))
    app.set_address(app.room.code)
    if app.table is not None:
        app.table.stop()
    from . import feel
    from .table import TableUI

    app.table = TableUI(app.room, app.name, app.role, app.send_to)
    app.table.lang = app.lang
    feel.attach(app.table, app.role)  # effects and sounds after each render
    app.render_room()
    app.spawn(app.table.start([]))


def rejoined(app: App, frame: dict[str, Any]) -> None:
    """Back on the signalling server after losing it (``mesh.js``): the links were kept; keep
    the new resume token, and follow the room code if the room had to be made anew."""
    if app.room is None:
        return
    code = str(frame["room"])
    app.prefs.save_session(code, app.name, app.role, str(frame.get("resume") or ""))
    if frame.get("host"):
        app.room.host = str(frame["host"])
    if code != app.room.code:
        app.room.code = code
        app.set_address(code)
        app.render_room()
    app.mark_host()
    app.render_roster()


def error(app: App, frame: dict[str, Any]) -> None:
    """The server refused something: say why, on the home view or in the room's chat."""
    code = str(frame.get("code", ""))
    message = tr(f"err_{code}", app.lang) if code in ERROR_CODES else ""
    message = message or tr("err_other", app.lang, message=str(frame.get("message", code)))
    if app.room is None:
        if code in FORGET_ON:
            app.prefs.forget_session()
        app.set_home_error(message)
    else:
        app.notice(message)


def bot_added(app: App, frame: dict[str, Any]) -> None:
    app.notice(tr("bot_added", app.lang, name=str(frame.get("name", ""))))


def peer_joined(app: App, frame: dict[str, Any]) -> None:
    if app.room is None:
        return
    peer = app.room.add_peer(frame["peer"])
    app.notice(tr("joined_notice", app.lang, name=peer.name))
    app.ensure_tile(peer.id, peer.name)
    app.render_roster()


def peer_left(app: App, frame: dict[str, Any]) -> None:
    """A peer left (or was dropped by the server); the host may have moved."""
    if app.room is None:
        return
    old_host = app.room.host
    peer_id = str(frame["peer"])
    peer = app.room.remove_peer(peer_id, frame.get("host"))
    if peer is not None:
        app.notice(tr("left_notice", app.lang, name=peer.name))
    if app.table is not None:
        app.table.link_closed(peer_id)
    app.remove_tile(peer_id)
    if app.room.host != old_host:
        host_peer = app.room.peers.get(app.room.host)
        host_name = app.name if app.room.host == app.room.you else ""
        app.notice(tr("host_notice", app.lang, name=host_peer.name if host_peer else host_name))
        app.mark_host()
    app.render_roster()


def peer_state(app: App, data: dict[str, Any]) -> None:
    """A link's state changed; a newly open data channel is greeted and given to the table."""
    if app.room is None:
        return
    was_open = app.room.peers.get(data["peer"])
    opened = bool(data["channel"]) and not (was_open and was_open.channel)
    peer, dropped = app.room.set_state(data["peer"], data["state"], bool(data["channel"]))
    if peer is not None and dropped:
        app.notice(tr("dropped_notice", app.lang, name=peer.name))
    if peer is not None and opened and app.mesh is not None:
        hello = {"t": "hello", "name": app.name, "id": app.room.you}
        app.mesh.send(peer.id, json.dumps(hello, ensure_ascii=False))
        if app.table is not None:
            app.table.channel_open(peer.id)
    app.render_roster()


def message(app: App, data: dict[str, Any]) -> None:
    """A data-channel message: the table's, a chat line, or a game's; a malformed one is noted
    in the chat with its sender's name and changes nothing."""
    if app.room is None:
        return
    peer_id, text = str(data["peer"]), str(data["text"])
    try:
        parsed = parse_message(text)
        if app.table is not None and app.table.deliver(peer_id, parsed):
            return
        if parsed["t"] == "chat":
            line = app.room.receive_chat(peer_id, parsed)
            if line is not None:
                sent = parsed.get("at")
                if isinstance(sent, int | float):
                    app.latencies.append(app.clock() - sent)
                app.show_line(line)
        elif parsed["t"] != "hello":
            for handler in app.game_handlers:
                handler(peer_id, parsed)
    except BadMessage as why:
        peer = app.room.peers.get(peer_id)
        name = peer.name if peer else peer_id
        app.notice(tr("bad_peer_message", app.lang, name=name, why=str(why)))


def peer_error(app: App, data: dict[str, Any]) -> None:
    app.notice(tr("err_other", app.lang, message=str(data.get("message", ""))))


def media_error(app: App, data: dict[str, Any]) -> None:
    app.notice(tr("no_mic" if data.get("kind") == "audio" else "no_camera", app.lang))


def server_closed(app: App, _data: Any) -> None:
    app.notice(tr("server_closed", app.lang))


def media(app: App, detail: Any) -> None:
    """A peer's audio or video arrived (``detail`` is the JavaScript object: it holds the
    element)."""
    if app.room is None:
        return
    peer_id = str(detail.peer)
    peer = app.room.peers.get(peer_id)
    app.show_track(peer_id, peer.name if peer else peer_id, str(detail.kind), detail.element)


EVENTS: dict[str, Handler] = {
    "joined": joined,
    "rejoined": rejoined,
    "error": error,
    "bot-added": bot_added,
    "peer-joined": peer_joined,
    "peer-left": peer_left,
    "peer-state": peer_state,
    "message": message,
    "peer-error": peer_error,
    "media-error": media_error,
    "server-closed": server_closed,
    "media": media,
}
RAW = frozenset(("media",))  # handed the JavaScript object itself, not a Python copy


def dispatch(app: App, kind: str, detail: Any) -> str | None:
    """Run the handler for one event; a note (nothing run) for an event with none."""
    handler = EVENTS.get(kind)
    if handler is None:
        return f"no handler for mesh event {kind!r}: ignored"
    if kind in RAW:
        handler(app, detail)
        return None
    to_py = getattr(detail, "to_py", None)
    data = to_py() if callable(to_py) else detail if isinstance(detail, dict) else {}
    handler(app, data)
    return None
