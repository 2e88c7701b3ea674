"""The game-icons.net set (``@iconify-json/game-icons``, CC BY 3.0): only the icons asked for.

The package is one JSON file of ~4 000 SVG bodies; the build reads it once and inlines the few
bodies a card uses, so the site never ships the whole set.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ICONS_JSON = ROOT / "node_modules" / "@iconify-json" / "game-icons" / "icons.json"
CREDIT = "Icons: game-icons.net (Lorc, Delapouite and contributors), CC BY 3.0"


class IconError(RuntimeError):
    """The icon set is missing or lacks a named icon."""


@cache
def icon_set() -> dict[str, object]:
    """The parsed icon set (``npm ci`` installs it)."""
    if not ICONS_JSON.is_file():
        raise IconError(f"{ICONS_JSON} is missing: run `npm ci` first")
    data: dict[str, object] = json.loads(ICONS_JSON.read_text())
    return data


def body(name: str) -> str:
    """The SVG body (paths on a 512×512 box, ``fill="currentColor"``) of one icon."""
    data = icon_set()
    icons = data["icons"]
    aliases = data.get("aliases", {})
    assert isinstance(icons, dict) and isinstance(aliases, dict)
    seen = name
    while seen not in icons and seen in aliases:
        seen = aliases[seen]["parent"]
    if seen not in icons:
        raise IconError(f"no icon named {name!r} in game-icons")
    return NUMBER.sub(_tenths, str(icons[seen]["body"]))


NUMBER = re.compile(r"-?\d*\.\d+")


def _tenths(match: re.Match[str]) -> str:
    """A path number to one decimal (a tenth of a unit is 1/5 000 of the icon: invisible),
    without its leading zero: a fifth off every picture's bytes. Path numbers are often written
    with no space between them ("l.004-.002", ".5.5"), so a shortened number must still end where
    it did: a number that rounds to nought keeps its minus sign ("-0" still starts a new number),
    a whole number before a following ".5" gets a space (else "1" + ".5" would read "1.5"), and
    so does one that lost its leading "." right after another number."""
    value = round(float(match.group(0)), 1)
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    if text in ("", "-", "-0"):
        text = "-0" if match.group(0).startswith("-") else "0"
    elif text.startswith(("0.", "-0.")):
        text = text.replace("0.", ".", 1)
    if "." not in text and match.string.startswith(".", match.end()):
        text += " "
    start = match.start()
    if start and match.string[start - 1] in "0123456789." and text[0] not in "-.":
        text = " " + text  # ".034" after "-1.755" is "0" now: "-1.8 0", not "-1.80"
    return text


def size() -> int:
    """The icons' square box (512)."""
    return int(icon_set().get("width", 512))  # type: ignore[call-overload]
