"""The display face (Yeseva One, SIL OFL, from ``@fontsource/yeseva-one``): only the Cyrillic and
Latin subsets of its one weight, as woff2 (about 29 kB), self-hosted under ``fonts/``."""

from __future__ import annotations

import shutil
from pathlib import Path

from .icons import ROOT

FONT_DIR = ROOT / "node_modules" / "@fontsource" / "yeseva-one" / "files"
FILES = ("yeseva-one-cyrillic-400-normal.woff2", "yeseva-one-latin-400-normal.woff2")


def write_fonts(target: Path) -> None:
    """Copy the two subsets (``style.css`` declares them with their unicode ranges)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        source = FONT_DIR / name
        if not source.is_file():
            raise FileNotFoundError(f"{source} is missing: run `npm ci` first")
        shutil.copy2(source, target / name)
