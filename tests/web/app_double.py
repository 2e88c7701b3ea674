"""A page without a browser for the app's tables: storage in memory, elements as attribute
dicts, and an app that records what the handlers asked of the page."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from engine.protocol.storage import MemoryStorage
from web.ui.prefs import Prefs
from web.ui.room import ChatLine, Room


class Element:
    """An element: its attributes, a ``value``, text, and the few DOM calls handlers make."""

    def __init__(self, tag: str = "BUTTON", value: str = "", **attrs: str) -> None:
        self.tagName = tag
        self.value = value
        self.attrs = {key.replace("_", "-"): val for key, val in attrs.items()}
        self.textContent = ""
        self.innerHTML = ""
        self.hidden = False
        self.closed = False

    def getAttribute(self, name: str) -> str | None:
        return self.attrs.get(name)

    def hasAttribute(self, name: str) -> bool:
        return name in self.attrs

    def close(self) -> None:
        self.closed = True


class RecordingApp:
    """The app's surface the tables use; records overlays, notices, lines and spawned work."""

    def __init__(self, lang: str = "ru") -> None:
        self.lang = lang
        self.prefs = Prefs(MemoryStorage(), MemoryStorage())
        self.elements: dict[str, Element] = {}
        self.room: Room | None = None
        self.table: Any = None
        self.mesh: Any = None
        self.name, self.role = "", "player"
        self.catalog_filter = {"game": "rumble", "deck": "", "school": ""}
        self.latencies: list[float] = []
        self.game_handlers: list[Any] = []
        self.overlays: list[str] = []
        self.notices: list[str] = []
        self.lines: list[ChatLine] = []
        self.home_errors: list[str] = []
        self.spawned: list[str] = []
        self.languages: list[str] = []
        self.left = 0

    def element(self, element_id: str) -> Element:
        return self.elements.setdefault(element_id, Element("DIV", id=element_id))

    def query(self, _selector: str) -> Element | None:
        return None

    def game_id(self) -> str:
        return "rumble"

    def clock(self) -> float:
        return 1_000_000.0

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        self.spawned.append(coroutine.__qualname__)
        coroutine.close()  # recorded, not run: it would need the browser

    def open_overlay(self, html: str) -> None:
        self.overlays.append(html)

    def notice(self, text: str) -> None:
        self.notices.append(text)

    def show_line(self, line: ChatLine) -> None:
        self.lines.append(line)

    def set_home_error(self, text: str) -> None:
        self.home_errors.append(text)

    def set_language(self, lang: str) -> None:
        self.languages.append(lang)

    def leave(self) -> None:
        self.left += 1

    def render_roster(self) -> None:
        pass

    def ensure_tile(self, peer_id: str, name: str) -> None:
        pass

    async def enter(self, code: str | None, resume: str | None) -> None:
        raise AssertionError("recorded by spawn, never run")
