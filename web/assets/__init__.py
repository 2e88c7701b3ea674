"""Build-time assets of the site: card faces composed from game-icons.net, and the display font.

``write_assets(dist)`` is the build's one call: it writes ``art/<game>/<card>.svg`` (every card's
own face, replacing the seeds' placeholder art), ``art/ui/*.svg`` (table pieces),
``art/ui/log/*.svg`` (the log's pictures) and ``fonts/``.
"""

from __future__ import annotations

from pathlib import Path

from .faces import write_faces
from .fonts import write_fonts
from .log_art import write_log_art


def write_assets(dist: Path) -> None:
    """Card faces, table icons and the self-hosted display font into the built site."""
    write_faces(dist / "art")
    write_log_art(dist / "art" / "ui" / "log")
    write_fonts(dist / "fonts")
