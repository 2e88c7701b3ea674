"""Build-time assets of the site: card faces composed from game-icons.net, and the display font.

``write_assets(dist)`` is the build's one call: it writes ``art/<game>/<card>.svg`` (every card's
own face, replacing the seeds' placeholder art), ``art/ui/*.svg`` (table pieces) and
``fonts/`` (the display face, and the log's pictures as an icon font).
"""

from __future__ import annotations

from pathlib import Path

from .faces import write_faces
from .fonts import write_fonts
from .log_art import write_log_font


def write_assets(dist: Path) -> None:
    """Card faces, table icons, the self-hosted display font and the log's icon font into the
    built site."""
    write_faces(dist / "art")
    write_fonts(dist / "fonts")
    write_log_font(dist / "fonts")
