"""The page's hooks for the table's feel: the sound control, the log toggle and the effects.

Runs only under Pyodide; ``web.ui.app`` calls these in one line each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from js import document
from pyodide.ffi import create_proxy

from . import views
from .sound import Sound

if TYPE_CHECKING:  # the table's modules load after start-up, not with the page
    from .fx import Effects
    from .table import TableUI

STATE: dict[str, Any] = {"sound": None, "effects": None, "listener": None}


def sound(spectator: bool = False) -> Sound:
    """The page's one sound player (made on first use, quiet for a spectator)."""
    if STATE["sound"] is None:
        STATE["sound"] = Sound(spectator)
    player: Sound = STATE["sound"]
    return player


def sound_html(lang: str, role: str) -> str:
    """The sound control for the page's top bar (its slider is heard wherever it sits)."""
    if STATE.get("listener") is None:
        STATE["listener"] = create_proxy(_on_input)
        document.addEventListener("input", STATE["listener"])
    return views.sound_control(lang, sound(role == "spectator").volume)


def _on_input(event: Any) -> None:
    target = event.target
    if target and target.id == "sound-volume" and not target.closest("#app"):
        changed(target)


def attach(table: TableUI, role: str) -> Effects:
    """Effects and sounds for a new table; a spectator with no saved volume hears nothing."""
    from .fx import attach as attach_effects

    player = sound(role == "spectator")
    if role == "spectator":
        player.volume = Sound(True).volume
    _show_volume(player.volume)
    player.prepare()  # the sounds made ahead of the first effects, while the page is idle
    effects = attach_effects(table, player)
    STATE["effects"] = effects
    return effects


def click(action: str, table: TableUI | None) -> bool:
    """Handle the sound button and the log toggle; False for any other action."""
    if action == "sound":
        player = sound()
        player.toggle()
        _show_volume(player.volume)
        if player.volume:
            player.play("cast")
        return True
    if action == "toggle-log":
        from . import table_views

        table_views.toggle_log()
        if table is not None:
            table.render()
        return True
    return False


def changed(target: Any) -> bool:
    """Handle the volume slider; False for any other field."""
    if target.getAttribute("data-action") != "sound-volume":
        return False
    player = sound()
    player.set_volume(float(target.value))
    _show_volume(player.volume, slider=False)
    return True


def _show_volume(volume: float, slider: bool = True) -> None:
    button = document.getElementById("sound")
    if button:
        button.setAttribute("aria-pressed", str(volume <= 0).lower())
        button.firstChild.src = "/art/ui/sound.svg" if volume > 0 else "/art/ui/mute.svg"
    field = document.getElementById("sound-volume")
    if field and slider:
        field.value = f"{volume:.2f}"
