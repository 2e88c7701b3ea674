"""The page in the browser: renders the views and turns clicks and mesh events into room changes.

Runs only under Pyodide. WebRTC itself lives in ``mesh.js`` (the browser demands JavaScript for
it); the page's decisions live in Python: what each ``data-action`` does (``commands``), what
each mesh event does (``mesh_events``), voice and video (``media``) and what the browser keeps
(``prefs``). This module wires them to the page and renders.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from js import (
    MessageChannel,
    Object,
    console,
    document,
    localStorage,
    performance,
    sessionStorage,
    window,
)
from pyodide.ffi import JsProxy, create_proxy, to_js

from engine.core.step_batch import StepBatch
from engine.protocol.pace import BATCH_BUDGET_MS

from . import commands, feel, media, mesh_events, qr, views
from .i18n import tr, use_screen
from .prefs import Prefs
from .room import BadMessage, ChatLine, Room

if TYPE_CHECKING:
    from .table import TableUI

ROOM_PATH = "/r/"
DEFAULT_GAME = "rumble"  # the catalog's and the rules' game outside a table


def js_object(value: dict[str, Any]) -> JsProxy:
    """A plain JavaScript object from a dict (nested dicts included)."""
    return to_js(value, dict_converter=Object.fromEntries)


# JavaScript ``null`` arrives as the falsy ``pyodide.ffi.jsnull``, not ``None``: DOM look-ups
# below are tested for truth, never compared with ``None``.


class App:
    """The whole page: home view, room view, and the mesh while in a room."""

    def __init__(self, opts: JsProxy) -> None:
        self.config: dict[str, Any] = opts.config.to_py()
        self.mesh_class = opts.Mesh
        self.prefs = Prefs(localStorage, sessionStorage)
        self.lang = self.prefs.language()
        self.root = document.getElementById("app")
        self.room: Room | None = None
        self.mesh: JsProxy | None = None
        self.table: TableUI | None = None
        self.catalog_filter: dict[str, str] = {"game": DEFAULT_GAME, "deck": "", "school": ""}
        self.name = ""
        self.role = "player"
        self.latencies: list[float] = []
        self.game_handlers: list[Any] = []
        self._proxies = [
            self._listen(self.root, "click", self.on_click),
            self._listen(self.root, "mousedown", self.on_press),
            self._listen(self.root, "submit", self.on_submit),
            self._listen(self.root, "input", self.on_input),
            self._listen(document.getElementById("nav"), "click", self.on_click),
            self._listen(document.getElementById("card-detail"), "click", self.on_click),
            self._listen(document, "keydown", self.on_key),
            self._listen(document.getElementById("overlay"), "click", self.on_click),
        ]
        self._tasks: set[asyncio.Task[None]] = set()
        self._on_event = create_proxy(self.on_event)

    @staticmethod
    def _listen(target: JsProxy, event: str, handler: Any) -> JsProxy:
        proxy = create_proxy(handler)
        target.addEventListener(event, proxy)
        return proxy

    def spawn(self, coroutine: Any) -> None:
        """Run a coroutine in the background, keeping a reference until it ends."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def clock() -> float:
        """Wall-clock milliseconds (as chat messages carry their sending time)."""
        return float(performance.timeOrigin + performance.now())

    @staticmethod
    def element(element_id: str) -> JsProxy:
        """The page's element with this id (falsy when there is none)."""
        return document.getElementById(element_id)

    @staticmethod
    def query(selector: str) -> JsProxy:
        """The page's first element matching a CSS selector (falsy when there is none)."""
        return document.querySelector(selector)

    def game_id(self) -> str:
        """The table's game, else the default one (for the catalog, the rules, the card pane)."""
        return self.table.game_id() if self.table is not None else DEFAULT_GAME

    # ----- start-up and navigation -------------------------------------------------------------

    def boot(self) -> None:
        """Show the right view for the address: a stored session rejoins, a room link prefills."""
        document.documentElement.lang = self.lang
        use_screen(float(window.devicePixelRatio or 1))  # card pictures at the screen's size
        self.render_nav()
        code = self.code_from_path()
        stored = self.prefs.stored_session()
        if stored and (not code or stored.get("room") == code):
            self.name, self.role = stored["name"], stored["role"]
            self.render_home(stored["room"])
            self.set_home_error(tr("rejoining", self.lang, code=stored["room"]))
            self.spawn(self.enter(stored["room"], stored.get("resume")))
        else:
            self.name = self.prefs.name()
            self.render_home(code)

    @staticmethod
    def code_from_path() -> str:
        path = str(window.location.pathname)
        return path[len(ROOM_PATH) :].strip("/").upper() if path.startswith(ROOM_PATH) else ""

    def set_address(self, code: str) -> None:
        """Show the room's own address (a reload or a shared link comes back to it)."""
        window.history.replaceState(None, "", ROOM_PATH + code)

    def ice_servers(self) -> list[Any]:
        return self.prefs.ice_servers(list(self.config.get("iceServers", [])))

    def signaling_url(self) -> str:
        url = self.config.get("signaling") or ""
        if url:
            return str(url)
        scheme = "wss" if str(window.location.protocol) == "https:" else "ws"
        return f"{scheme}://{window.location.host}/ws"

    def room_link(self, code: str) -> str:
        return f"{window.location.origin}{ROOM_PATH}{code}"

    def set_language(self, lang: str) -> None:
        """Switch the page's language, keep the choice, and draw the page anew in it."""
        self.lang = lang
        self.prefs.set_language(lang)
        document.documentElement.lang = lang
        self.render_nav()
        if self.room is None:
            self.render_home(self.code_from_path())
        else:
            self.render_room()

    # ----- rendering ----------------------------------------------------------------------------

    def render_nav(self) -> None:
        nav = views.language_switch(self.lang) + feel.sound_html(self.lang, self.role)
        document.getElementById("nav").innerHTML = nav

    def render_home(self, code: str = "") -> None:
        ice = json.dumps(self.ice_servers(), ensure_ascii=False)
        self.root.innerHTML = views.home(self.lang, self.name, code, ice)

    def set_home_error(self, text: str) -> None:
        element = document.getElementById("home-error")
        if element:
            element.textContent = text

    def render_room(self) -> None:
        assert self.room is not None
        link = self.room_link(self.room.code)
        self.root.innerHTML = views.room_shell(self.lang, self.room, link, qr.svg_data_uri(link))
        self.render_roster()
        log = document.getElementById("chat-log")
        log.innerHTML = "".join(views.chat_line(line) for line in self.room.chat)
        stick_to_end(log)
        for peer in self.room.peers.values():
            self.ensure_tile(peer.id, peer.name)
        if self.table is not None:
            self.table.lang = self.lang
            self.table.render()

    def render_roster(self) -> None:
        if self.room is not None:
            document.getElementById("roster").innerHTML = views.roster(self.lang, self.room)

    def mark_host(self) -> None:
        """Show or hide the host's controls as this page is or is not the host."""
        section = document.querySelector("section.room")
        if section and self.room is not None:
            section.classList.toggle("is-host", self.room.host == self.room.you)

    def show_line(self, line: ChatLine) -> None:
        log = document.getElementById("chat-log")
        if not log:
            return
        log.insertAdjacentHTML("beforeend", views.chat_line(line))
        stick_to_end(log)
        if self.room is not None:
            self.prefs.save_chat(self.room.code, self.room.chat_json())

    def notice(self, text: str) -> None:
        if self.room is not None:
            self.show_line(self.room.notice(text, int(self.clock())))

    def ensure_tile(self, peer_id: str, name: str) -> JsProxy:
        return media.ensure_tile(self.lang, peer_id, name)

    def remove_tile(self, peer_id: str) -> None:
        media.remove_tile(peer_id)

    def show_track(self, peer_id: str, name: str, kind: str, element: JsProxy) -> None:
        media.show_track(self.lang, peer_id, name, kind, element)

    def open_overlay(self, html: str) -> None:
        """Show the catalog or the rules in a modal dialog (Escape closes it)."""
        document.getElementById("overlay-body").innerHTML = html
        dialog = document.getElementById("overlay")
        if not dialog.open:
            dialog.showModal()

    # ----- user input ---------------------------------------------------------------------------

    def on_click(self, event: JsProxy) -> None:
        target = event.target.closest("[data-action]")
        if target and str(target.tagName) != "FORM":
            self._note(commands.click(self, target))

    @staticmethod
    def on_press(event: JsProxy) -> None:
        """A mouse press on a table button does not move the keyboard focus to it (the click
        still comes), but takes it from where it was, as a press does. A focused control that a
        redraw then replaces (a button, or the start form's field the host had just typed in)
        made the browser send ``blur`` and lay out the whole page inside the redraw's task (33 ms
        of a 61 ms task as a tournament started); the keyboard's focus is kept by
        ``fx.refocus``."""
        if event.button == 0 and event.target.closest("#table button"):
            event.preventDefault()
            focused = document.activeElement
            if focused and not focused.isSameNode(document.body):
                focused.blur()  # now, while the page's style is clean: no layout

    def on_submit(self, event: JsProxy) -> None:
        event.preventDefault()
        self._note(commands.submit(self, event.target))

    def on_input(self, event: JsProxy) -> None:
        self._note(commands.field(self, event.target))

    def on_key(self, event: JsProxy) -> None:
        """Keys 1–9 make the offered moves; Escape closes the card pane (not while typing)."""
        tag = str(event.target.tagName)
        if tag in ("INPUT", "TEXTAREA", "SELECT") or event.ctrlKey or event.metaKey:
            return
        key = str(event.key)
        if key == "Escape":
            document.getElementById("card-detail").hidden = True
        elif key.isdigit() and key != "0":
            buttons = document.querySelectorAll("#moves button")
            index = int(key) - 1
            if index < buttons.length:
                buttons.item(index).click()

    @staticmethod
    def _note(note: str | None) -> None:
        if note:
            console.warn(note)

    # ----- the room -----------------------------------------------------------------------------

    async def enter(self, code: str | None, resume: str | None) -> None:
        """Create a room (``code`` None) or join one, through a fresh mesh."""
        if self.mesh is not None:
            self.mesh.leave()
        options = {
            "url": self.signaling_url(),
            "iceServers": self.ice_servers(),
            "voice": self.prefs.voice(),
        }
        self.mesh = self.mesh_class.new(js_object(options))
        self.mesh.onEvent = self._on_event
        try:
            if code is None:
                await self.mesh.create(self.name, self.role)
            else:
                await self.mesh.join(code, self.name, self.role, resume)
        except Exception:  # a JavaScript error: the server cannot be reached
            self.mesh = None
            self.set_home_error(tr("err_unreachable", self.lang))

    def leave(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        if self.mesh is not None:
            self.mesh.leave()
        self.mesh, self.room = None, None
        self.prefs.forget_session()
        window.history.pushState(None, "", "/")
        self.render_home()

    def send_chat(self, text: str) -> None:
        if self.room is None or self.mesh is None:
            return
        try:
            at = self.clock()
            wire, line = self.room.make_chat(text, int(at), at)
        except BadMessage:
            return
        self.mesh.broadcast(wire)
        self.show_line(line)

    def send_to(self, link: str, text: str) -> None:
        """Send one data-channel message to one peer (the table's transport)."""
        if self.mesh is not None:
            self.mesh.send(link, text)

    def on_event(self, kind: str, detail: JsProxy) -> None:
        """Every event from the mesh (``mesh_events``)."""
        self._note(mesh_events.dispatch(self, str(kind), detail))


APP: App | None = None


def stick_to_end(element: JsProxy) -> None:
    """Scroll ``element`` (the chat) to its newest line in the next frame, with the layout that
    frame makes anyway (``magicStickToEnd``, ``web/static/morph.js``, set by ``boot.js`` before the
    app starts): reading its height here would lay the page out inside this task, on every line."""
    window.magicStickToEnd(element)


def batch_steps() -> StepBatch:
    """Run the page's ready asyncio steps a browser task's worth at a time (``StepBatch``): one
    message on a channel of our own asks for each such task."""
    loop = asyncio.get_event_loop()
    channel = MessageChannel.new()
    # Looked up once: each attribute of a JavaScript object read from Python is a proxy made and
    # dropped, and the batch posts a task for nearly every message the page takes.
    post = channel.port2.postMessage
    batch = StepBatch(loop, lambda: post(0), BATCH_BUDGET_MS)
    claim = getattr(loop, "_install_running_loop", None)  # as the loop does for each of its own
    hooks = getattr(loop, "_install_asyncgen_hooks", None)

    def run(_event: Any) -> None:
        if claim is not None and hooks is not None:
            claim()
            hooks()
        batch.run()

    channel.port1.onmessage = create_proxy(run)
    loop.call_soon = batch.call_soon  # type: ignore[method-assign,assignment]
    return batch


async def start(opts: JsProxy) -> None:
    """Entry point called by ``boot.js`` once Python is up."""
    global APP
    window.magicTableSteps = batch_steps()
    APP = App(opts)
    window.magicTableApp = APP
    APP.boot()
    # Import what the room and the table need once the page is usable, not on the start-up path.
    asyncio.get_event_loop().call_later(0.3, warm_up)


def warm_up() -> None:
    """Import the QR library, the table (engine, fair play) and the card views ahead of use, one
    module per task (``warm.preload``)."""
    from . import warm

    warm.start()
