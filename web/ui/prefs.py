"""What the page keeps in the browser's storage: the language, the name, the ICE servers and the
voice switch (``localStorage``), and the room to rejoin with its chat (``sessionStorage``).

Pure Python: the two stores are passed in (the browser's ``localStorage`` and ``sessionStorage``
under Pyodide, anything with the same three methods elsewhere), so it is tested in CPython.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from .i18n import LANGUAGES

LANG_KEY = "mt.lang"
NAME_KEY = "mt.name"
ICE_KEY = "mt.ice"
VOICE_KEY = "mt.voice"
SESSION_KEY = "mt.session"
CHAT_KEY = "mt.chat."
DEFAULT_LANG = "ru"


class Storage(Protocol):
    """The part of the Web Storage interface the page uses."""

    def getItem(self, key: str) -> Any: ...

    def setItem(self, key: str, value: str) -> None: ...

    def removeItem(self, key: str) -> None: ...


def _text(value: Any) -> str:
    """A stored string, or "" for a missing key (JavaScript ``null`` arrives as a falsy proxy)."""
    return str(value) if value else ""


class Prefs:
    """The page's saved preferences (``local``) and the session to rejoin (``session``)."""

    def __init__(self, local: Storage, session: Storage) -> None:
        self.local = local
        self.session = session

    # ----- preferences --------------------------------------------------------------------------

    def language(self) -> str:
        """The chosen language, the default for a missing or unknown one."""
        lang = _text(self.local.getItem(LANG_KEY))
        return lang if lang in LANGUAGES else DEFAULT_LANG

    def set_language(self, lang: str) -> None:
        self.local.setItem(LANG_KEY, lang)

    def name(self) -> str:
        """The name typed last time ("" before the first room)."""
        return _text(self.local.getItem(NAME_KEY))

    def set_name(self, name: str) -> None:
        self.local.setItem(NAME_KEY, name)

    def ice_servers(self, default: list[Any]) -> list[Any]:
        """The saved ICE servers; ``default`` (the site's) when none or not a JSON list."""
        try:
            servers = json.loads(_text(self.local.getItem(ICE_KEY)) or "null")
        except ValueError:
            servers = None
        return servers if isinstance(servers, list) else list(default)

    def save_ice(self, text: str) -> bool:
        """Keep the ICE servers typed as JSON ("" is none); False, keeping nothing, unless it is
        a JSON list."""
        try:
            servers = json.loads(text or "[]")
        except ValueError:
            return False
        if not isinstance(servers, list):
            return False
        self.local.setItem(ICE_KEY, json.dumps(servers))
        return True

    def voice(self) -> bool:
        """Whether to join with the microphone (on unless switched off)."""
        return _text(self.local.getItem(VOICE_KEY)) != "off"

    # ----- the session to rejoin ----------------------------------------------------------------

    def stored_session(self) -> dict[str, Any] | None:
        """The room, name, role (and resume token) this tab was in, if any."""
        try:
            value = json.loads(_text(self.session.getItem(SESSION_KEY)) or "null")
        except ValueError:
            return None
        if isinstance(value, dict) and {"room", "name", "role"} <= value.keys():
            return value
        return None

    def save_session(self, room: str, name: str, role: str, resume: str) -> None:
        entry = {"room": room, "name": name, "role": role, "resume": resume}
        self.session.setItem(SESSION_KEY, json.dumps(entry))

    def forget_session(self) -> None:
        self.session.removeItem(SESSION_KEY)

    def chat(self, code: str) -> str | None:
        """The chat kept for room ``code`` (JSON, as ``Room.chat_json`` wrote it)."""
        return _text(self.session.getItem(CHAT_KEY + code)) or None

    def save_chat(self, code: str, text: str) -> None:
        self.session.setItem(CHAT_KEY + code, text)
