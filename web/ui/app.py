"""The page in the browser: renders the views and turns clicks and mesh events into room changes.

Runs only under Pyodide. WebRTC itself lives in ``mesh.js`` (the browser demands JavaScript for
it); this module owns every decision: what to show, what to send, what to accept.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from js import Object, document, localStorage, performance, sessionStorage, window
from pyodide.ffi import JsProxy, create_proxy, to_js

from . import feel, qr, views
from .i18n import LANGUAGES, tr
from .room import BadMessage, ChatLine, Room, parse_message

if TYPE_CHECKING:
    from .table import TableUI

SESSION_KEY = "mt.session"
CHAT_KEY = "mt.chat."
ROOM_PATH = "/r/"


def now_ms() -> int:
    """Wall-clock milliseconds, as chat timestamps carry them."""
    return int(performance.timeOrigin + performance.now())


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
        self.lang = localStorage.getItem("mt.lang") or "ru"
        if self.lang not in LANGUAGES:
            self.lang = "ru"
        self.root = document.getElementById("app")
        self.room: Room | None = None
        self.mesh: JsProxy | None = None
        self.table: TableUI | None = None
        self.catalog_filter: dict[str, str] = {"game": "rumble", "deck": "", "school": ""}
        self.name = ""
        self.role = "player"
        self.latencies: list[float] = []
        self.game_handlers: list[Any] = []
        self._proxies = [
            self._listen(self.root, "click", self.on_click),
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

    # ----- start-up and navigation -------------------------------------------------------------

    def boot(self) -> None:
        """Show the right view for the address: a stored session rejoins, a room link prefills."""
        document.documentElement.lang = self.lang
        self.render_nav()
        code = self.code_from_path()
        stored = self.stored_session()
        if stored and (not code or stored.get("room") == code):
            self.name, self.role = stored["name"], stored["role"]
            self.render_home(stored["room"])
            self.set_home_error(tr("rejoining", self.lang, code=stored["room"]))
            self.spawn(self.enter(stored["room"], stored.get("resume")))
        else:
            self.name = localStorage.getItem("mt.name") or ""
            self.render_home(code)

    @staticmethod
    def code_from_path() -> str:
        path = str(window.location.pathname)
        return path[len(ROOM_PATH) :].strip("/").upper() if path.startswith(ROOM_PATH) else ""

    @staticmethod
    def stored_session() -> dict[str, Any] | None:
        try:
            value = json.loads(sessionStorage.getItem(SESSION_KEY) or "null")
        except ValueError:
            return None
        if isinstance(value, dict) and {"room", "name", "role"} <= value.keys():
            return value
        return None

    def ice_servers(self) -> list[Any]:
        stored = localStorage.getItem("mt.ice")
        if stored:
            try:
                servers = json.loads(stored)
                if isinstance(servers, list):
                    return servers
            except ValueError:
                pass
        return list(self.config.get("iceServers", []))

    def signaling_url(self) -> str:
        url = self.config.get("signaling") or ""
        if url:
            return str(url)
        scheme = "wss" if str(window.location.protocol) == "https:" else "ws"
        return f"{scheme}://{window.location.host}/ws"

    def room_link(self, code: str) -> str:
        return f"{window.location.origin}{ROOM_PATH}{code}"

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
        log.scrollTop = log.scrollHeight
        for peer in self.room.peers.values():
            self.ensure_tile(peer.id, peer.name)
        if self.table is not None:
            self.table.lang = self.lang
            self.table.render()

    def render_roster(self) -> None:
        if self.room is not None:
            document.getElementById("roster").innerHTML = views.roster(self.lang, self.room)

    def show_line(self, line: ChatLine) -> None:
        log = document.getElementById("chat-log")
        if not log:
            return
        log.insertAdjacentHTML("beforeend", views.chat_line(line))
        log.scrollTop = log.scrollHeight
        if self.room is not None:
            sessionStorage.setItem(CHAT_KEY + self.room.code, self.room.chat_json())

    def notice(self, text: str) -> None:
        if self.room is not None:
            self.show_line(self.room.notice(text, now_ms()))

    def ensure_tile(self, peer_id: str, name: str) -> JsProxy:
        tile = document.getElementById(f"tile-{peer_id}")
        media = document.getElementById("media")
        if not tile and media:
            media.insertAdjacentHTML("beforeend", views.media_tile(self.lang, peer_id, name))
            tile = document.getElementById(f"tile-{peer_id}")
        return tile

    # ----- user input ---------------------------------------------------------------------------

    def on_click(self, event: JsProxy) -> None:
        target = event.target.closest("[data-action]")
        if not target or str(target.tagName) == "FORM":
            return
        action = str(target.getAttribute("data-action"))
        if feel.click(action, self.table):  # the sound button, the log toggle
            return
        if action == "lang":
            self.lang = str(target.getAttribute("data-lang"))
            localStorage.setItem("mt.lang", self.lang)
            document.documentElement.lang = self.lang
            self.render_nav()
            if self.room is None:
                self.render_home(self.code_from_path())
            else:
                self.render_room()
        elif action == "copy-link":
            self.spawn(self.copy_link())
        elif action == "mute":
            self.toggle_mute(target)
        elif action == "camera":
            self.spawn(self.toggle_camera(target))
        elif action == "leave":
            self.leave()
        elif action == "save-ice":
            self.save_ice()
        elif action == "add-bot" and self.mesh is not None:
            self.mesh.addBot()
        elif action == "pick" and self.table is not None:
            self.table.pick(int(target.getAttribute("data-slot")))
            if target.hasAttribute("data-card"):  # a board may pick without opening the pane
                self.show_card(str(target.getAttribute("data-card")))
        elif action == "catalog":
            game = self.table.game_id() if self.table is not None else "rumble"
            self.catalog_filter = {"game": game, "deck": "", "school": ""}
            self.open_overlay(lazy_pages().catalog(**self.catalog_filter))
        elif action == "catalog-filter":
            kind, key = str(target.getAttribute("data-kind")), str(target.getAttribute("data-key"))
            if kind == "game":  # another game's decks and schools: start unfiltered
                self.catalog_filter = {"game": key, "deck": "", "school": ""}
            self.catalog_filter[kind] = key
            self.open_overlay(lazy_pages().catalog(**self.catalog_filter))
        elif action == "rules":
            chosen = target.getAttribute("data-game")
            game = self.table.game_id() if self.table is not None else "rumble"
            self.open_overlay(lazy_pages().rules(str(chosen) if chosen else game))
        elif action == "close-overlay":
            document.getElementById("overlay").close()
        elif action == "close-detail":
            document.getElementById("card-detail").hidden = True
        elif action == "hero" and self.table is not None:
            self.table.set_hero(str(target.getAttribute("data-hero")))
        elif action == "ready" and self.table is not None:
            self.table.toggle_ready()
        elif action == "card-info":
            self.show_card(str(target.getAttribute("data-card")))
        elif action == "move" and self.table is not None:
            self.spawn(self.table.move(int(target.getAttribute("data-index"))))
        elif action == "host" and self.table is not None:
            self.spawn(self.host_command(str(target.getAttribute("data-command"))))

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

    def on_submit(self, event: JsProxy) -> None:
        event.preventDefault()
        action = str(event.target.getAttribute("data-action"))
        if action in ("create", "join"):
            name = str(document.getElementById("name").value).strip()
            if not name:
                self.set_home_error(tr("name_needed", self.lang))
                return
            checked = document.querySelector("input[name=role]:checked")
            self.name, self.role = name, str(checked.value) if checked else "player"
            localStorage.setItem("mt.name", name)
            code = str(document.getElementById("code").value).strip().upper()
            if action == "join" and not code:
                self.set_home_error(tr("code_needed", self.lang))
                return
            self.spawn(self.enter(code if action == "join" else None, None))
        elif action == "open-table" and self.table is not None:
            from .boards import board_for
            from .table import element_value

            timer = max(5, int(element_value("table-timer") or "30"))
            game = element_value("table-game")
            config = board_for(game).config(element_value)
            self.spawn(self.table.open_table(game, config, timer))
        elif action == "chat":
            field = document.getElementById("chat-input")
            self.send_chat(str(field.value))
            field.value = ""

    def on_input(self, event: JsProxy) -> None:
        target = event.target
        if feel.changed(target):  # the effects' volume
            return
        if target.getAttribute("data-action") == "choose-game" and self.table is not None:
            self.table.choose_game(str(target.value))
        elif target.getAttribute("data-action") == "volume" and self.mesh is not None:
            entry = self.mesh.peers.get(str(target.getAttribute("data-peer")))
            if entry and entry.audio:
                entry.audio.volume = float(target.value)

    def save_ice(self) -> None:
        status = document.getElementById("ice-status")
        try:
            servers = json.loads(str(document.getElementById("ice").value) or "[]")
            if not isinstance(servers, list):
                raise ValueError
        except ValueError:
            status.textContent = tr("bad_ice", self.lang)
            return
        localStorage.setItem("mt.ice", json.dumps(servers))
        status.textContent = tr("saved", self.lang)

    async def copy_link(self) -> None:
        status = document.getElementById("share-status")
        try:
            await window.navigator.clipboard.writeText(document.getElementById("room-link").value)
            status.textContent = tr("copied", self.lang)
        except Exception:
            document.getElementById("room-link").select()
            status.textContent = tr("copy_failed", self.lang)

    def toggle_mute(self, button: JsProxy) -> None:
        if self.mesh is None:
            return
        muted = not bool(self.mesh.muted)
        self.mesh.setMuted(muted)
        button.textContent = tr("unmute" if muted else "mute", self.lang)
        button.setAttribute("aria-pressed", str(muted).lower())

    async def toggle_camera(self, button: JsProxy) -> None:
        if self.mesh is None:
            return
        turn_on = not self.mesh.camTrack
        try:
            await self.mesh.setCamera(turn_on)
        except Exception:
            self.notice(tr("no_camera", self.lang))
            return
        button.textContent = tr("camera_off" if turn_on else "camera_on", self.lang)

    # ----- the room -----------------------------------------------------------------------------

    async def enter(self, code: str | None, resume: str | None) -> None:
        """Create a room (``code`` None) or join one, through a fresh mesh."""
        if self.mesh is not None:
            self.mesh.leave()
        voice = localStorage.getItem("mt.voice") != "off"
        options = {"url": self.signaling_url(), "iceServers": self.ice_servers(), "voice": voice}
        self.mesh = self.mesh_class.new(js_object(options))
        self.mesh.onEvent = self._on_event
        try:
            if code is None:
                await self.mesh.create(self.name, self.role)
            else:
                await self.mesh.join(code, self.name, self.role, resume)
        except Exception:
            self.mesh = None
            self.set_home_error(tr("err_unreachable", self.lang))

    def open_overlay(self, html: str) -> None:
        """Show the catalog or the rules in a modal dialog (Escape closes it)."""
        document.getElementById("overlay-body").innerHTML = html
        dialog = document.getElementById("overlay")
        if not dialog.open:
            dialog.showModal()

    def show_card(self, card_id: str) -> None:
        """A card's name, picture and full text in the detail pane (tap on a phone, click)."""
        pane = document.getElementById("card-detail")
        if not pane or not card_id:
            return
        from .boards import DEFAULT, board_for

        game = self.table.game_id() if self.table is not None else DEFAULT
        detail = board_for(game).detail
        if detail is not None:
            pane.innerHTML = detail(card_id)
            pane.hidden = False

    async def host_command(self, command: str) -> None:
        """Pause, resume, or hurry every seat the table waits for."""
        assert self.table is not None
        session = self.table.session
        if command != "hurry-all":
            await self.table.host_command(command)
        elif session is not None and session.peer is not None:
            for seat, owed in session.peer.table.obligations().items():
                if owed == "action":
                    await self.table.host_command("hurry", seat)

    def leave(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        if self.mesh is not None:
            self.mesh.leave()
        self.mesh, self.room = None, None
        sessionStorage.removeItem(SESSION_KEY)
        window.history.pushState(None, "", "/")
        self.render_home()

    def send_chat(self, text: str) -> None:
        if self.room is None or self.mesh is None:
            return
        try:
            at = float(performance.timeOrigin + performance.now())
            wire, line = self.room.make_chat(text, now_ms(), at)
        except BadMessage:
            return
        self.mesh.broadcast(wire)
        self.show_line(line)

    def on_event(self, kind: str, detail: JsProxy) -> None:
        """Every event from the mesh: signalling frames, connection states, messages, media."""
        if kind == "media":
            self.on_media(str(detail.peer), str(detail.kind), detail.element)
            return
        data = detail.to_py() if isinstance(detail, JsProxy) else {}
        handler = getattr(self, "on_" + kind.replace("-", "_"), None)
        if handler is not None:
            handler(data)

    def on_joined(self, frame: dict[str, Any]) -> None:
        self.room = Room.from_joined(frame, self.name)
        self.room.restore_chat(sessionStorage.getItem(CHAT_KEY + self.room.code))
        session = {"room": self.room.code, "name": self.name, "role": self.role}
        session["resume"] = str(frame.get("resume") or "")
        sessionStorage.setItem(SESSION_KEY, json.dumps(session))
        window.history.replaceState(None, "", ROOM_PATH + self.room.code)
        if self.table is not None:
            self.table.stop()
        from .table import TableUI

        self.table = TableUI(self.room, self.name, self.role, self.send_to)
        self.table.lang = self.lang
        feel.attach(self.table, self.role)  # effects and sounds after each render
        self.render_room()
        self.spawn(self.table.start([]))

    def on_rejoined(self, frame: dict[str, Any]) -> None:
        """Back on the signalling server after losing it (``mesh.js``): the links were kept; keep
        the new resume token, and follow the room code if the room had to be made anew."""
        if self.room is None:
            return
        session = {"room": str(frame["room"]), "name": self.name, "role": self.role}
        session["resume"] = str(frame.get("resume") or "")
        sessionStorage.setItem(SESSION_KEY, json.dumps(session))
        if frame.get("host"):
            self.room.host = str(frame["host"])
        if frame["room"] != self.room.code:
            self.room.code = str(frame["room"])
            window.history.replaceState(None, "", ROOM_PATH + self.room.code)
            self.render_room()
        section = document.querySelector("section.room")
        if section:
            section.classList.toggle("is-host", self.room.host == self.room.you)
        self.render_roster()

    def send_to(self, link: str, text: str) -> None:
        """Send one data-channel message to one peer (the table's transport)."""
        if self.mesh is not None:
            self.mesh.send(link, text)

    def on_error(self, frame: dict[str, Any]) -> None:
        code = str(frame.get("code", ""))
        key = f"err_{code}"
        message = tr(key, self.lang) if key in _ERROR_KEYS else ""
        message = message or tr("err_other", self.lang, message=str(frame.get("message", code)))
        if self.room is None:
            if code in ("no-room", "name-taken", "room-full"):
                sessionStorage.removeItem(SESSION_KEY)
            self.set_home_error(message)
        else:
            self.notice(message)

    def on_bot_added(self, frame: dict[str, Any]) -> None:
        self.notice(tr("bot_added", self.lang, name=str(frame.get("name", ""))))

    def on_peer_joined(self, frame: dict[str, Any]) -> None:
        if self.room is None:
            return
        peer = self.room.add_peer(frame["peer"])
        self.notice(tr("joined_notice", self.lang, name=peer.name))
        self.ensure_tile(peer.id, peer.name)
        self.render_roster()

    def on_peer_left(self, frame: dict[str, Any]) -> None:
        if self.room is None:
            return
        old_host = self.room.host
        peer = self.room.remove_peer(str(frame["peer"]), frame.get("host"))
        if peer is not None:
            self.notice(tr("left_notice", self.lang, name=peer.name))
        if self.table is not None:
            self.table.link_closed(str(frame["peer"]))
        tile = document.getElementById(f"tile-{frame['peer']}")
        if tile:
            tile.remove()
        if self.room.host != old_host:
            host_name = self.name if self.room.host == self.room.you else ""
            host_peer = self.room.peers.get(self.room.host)
            host_name = host_peer.name if host_peer else host_name
            self.notice(tr("host_notice", self.lang, name=host_name))
            section = document.querySelector("section.room")
            if section:
                section.classList.toggle("is-host", self.room.host == self.room.you)
        self.render_roster()

    def on_peer_state(self, data: dict[str, Any]) -> None:
        if self.room is None:
            return
        was_open = self.room.peers.get(data["peer"])
        opened = bool(data["channel"]) and not (was_open and was_open.channel)
        peer, dropped = self.room.set_state(data["peer"], data["state"], bool(data["channel"]))
        if peer is not None and dropped:
            self.notice(tr("dropped_notice", self.lang, name=peer.name))
        if peer is not None and opened and self.mesh is not None:
            hello = {"t": "hello", "name": self.name, "id": self.room.you}
            self.mesh.send(peer.id, json.dumps(hello, ensure_ascii=False))
            if self.table is not None:
                self.table.channel_open(peer.id)
        self.render_roster()

    def on_message(self, data: dict[str, Any]) -> None:
        if self.room is None:
            return
        peer_id, text = str(data["peer"]), str(data["text"])
        try:
            message = parse_message(text)
            if self.table is not None and self.table.deliver(peer_id, message):
                return
            if message["t"] == "chat":
                line = self.room.receive_chat(peer_id, message)
                if line is not None:
                    self.record_latency(message)
                    self.show_line(line)
            elif message["t"] != "hello":
                for handler in self.game_handlers:
                    handler(peer_id, message)
        except BadMessage as error:
            peer = self.room.peers.get(peer_id)
            name = peer.name if peer else peer_id
            self.notice(tr("bad_peer_message", self.lang, name=name, why=str(error)))

    def record_latency(self, message: dict[str, Any]) -> None:
        sent = message.get("at")
        if isinstance(sent, int | float):
            self.latencies.append(float(performance.timeOrigin + performance.now()) - sent)

    def on_peer_error(self, data: dict[str, Any]) -> None:
        self.notice(tr("err_other", self.lang, message=str(data.get("message", ""))))

    def on_media_error(self, data: dict[str, Any]) -> None:
        self.notice(tr("no_mic" if data.get("kind") == "audio" else "no_camera", self.lang))

    def on_server_closed(self, _data: dict[str, Any]) -> None:
        self.notice(tr("server_closed", self.lang))

    def on_media(self, peer_id: str, kind: str, element: JsProxy) -> None:
        if self.room is None:
            return
        peer = self.room.peers.get(peer_id)
        tile = self.ensure_tile(peer_id, peer.name if peer else peer_id)
        if tile:
            tile.appendChild(element)
            if kind == "audio":
                element.className = "voice"


_ERROR_KEYS = {key for key in ("err_no-room", "err_room-full", "err_name-taken", "err_bad-name")}
_ERROR_KEYS |= {"err_join-rate-limit", "err_not-host", "err_bots-disabled", "err_too-many-bots"}

APP: App | None = None


async def start(opts: JsProxy) -> None:
    """Entry point called by ``boot.js`` once Python is up."""
    global APP
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


def lazy_pages() -> Any:
    """The catalog and rules pages (imported on first use)."""
    from . import pages

    return pages
