"""Voice and video on the page: a tile per peer, their audio and video, the microphone and camera
buttons and each peer's volume slider.

Runs only under Pyodide. The tracks themselves are ``mesh.js``'s (the browser demands JavaScript
for WebRTC); this module puts them on the page and flips the switches.
"""

from __future__ import annotations

from typing import Any

from js import document
from pyodide.ffi import JsProxy

from . import views
from .i18n import tr


def ensure_tile(lang: str, peer_id: str, name: str) -> JsProxy:
    """The peer's media tile, added to the room's media strip if missing (falsy without one)."""
    tile = document.getElementById(f"tile-{peer_id}")
    strip = document.getElementById("media")
    if not tile and strip:
        strip.insertAdjacentHTML("beforeend", views.media_tile(lang, peer_id, name))
        tile = document.getElementById(f"tile-{peer_id}")
    return tile


def remove_tile(peer_id: str) -> None:
    """Take a peer's tile (and its audio and video) off the page."""
    tile = document.getElementById(f"tile-{peer_id}")
    if tile:
        tile.remove()


def show_track(lang: str, peer_id: str, name: str, kind: str, element: JsProxy) -> None:
    """Put a peer's ``<audio>`` or ``<video>`` element into its tile."""
    tile = ensure_tile(lang, peer_id, name)
    if tile:
        tile.appendChild(element)
        if kind == "audio":
            element.className = "voice"


def toggle_mute(mesh: Any, button: JsProxy, lang: str) -> None:
    """Mute or unmute this page's microphone, and say so on the button."""
    if mesh is None:
        return
    muted = not bool(mesh.muted)
    mesh.setMuted(muted)
    button.textContent = tr("unmute" if muted else "mute", lang)
    button.setAttribute("aria-pressed", str(muted).lower())


async def toggle_camera(mesh: Any, button: JsProxy, lang: str) -> bool:
    """Switch this page's camera; False when the browser gave no camera."""
    if mesh is None:
        return True
    turn_on = not mesh.camTrack
    try:
        await mesh.setCamera(turn_on)
    except Exception:  # a JavaScript error: no camera, or permission refused
        return False
    button.textContent = tr("camera_off" if turn_on else "camera_on", lang)
    return True


def set_volume(mesh: Any, field: JsProxy) -> None:
    """A peer's volume slider moved: play that peer's voice at its value."""
    if mesh is None:
        return
    entry = mesh.peers.get(str(field.getAttribute("data-peer")))
    if entry and entry.audio:
        entry.audio.volume = float(field.value)
