"""The log's small pictures: one game-icons.net icon per category of web/ui/log_icons.py."""

from __future__ import annotations

from pathlib import Path

from web.ui.log_icons import ICONS

from .icons import body, size


def write_log_art(folder: Path) -> list[Path]:
    """``<folder>/<category>.svg`` for every category (a mask: the page colours it)."""
    folder.mkdir(parents=True, exist_ok=True)
    box = size()
    written = []
    for name, icon in sorted(ICONS.items()):
        path = folder / f"{name}.svg"
        path.write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {box} {box}">{body(icon)}</svg>',
            encoding="utf-8",
        )
        written.append(path)
    return written
