"""One card face as SVG: the card's icon in a medallion on its colours, its corner symbols, its
name and a bottom line of facts. Pure string building; the same input gives the same bytes."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from .icons import body, size

W, H = 200, 280
FONT = "Georgia, 'Times New Roman', serif"


@dataclass(frozen=True)
class Face:
    """What one card shows."""

    name: str
    icon: str
    colour: str  # the card's main colour, #rrggbb
    corner: str | None = None  # the top-left symbol: an icon name (the slot, the deck...)
    number: str | None = None  # the top-right number (initiative, power)
    number_title: str = ""
    signs: tuple[str, ...] = ()  # small icons on the bottom line (school signs, marks)
    label: str = ""  # the bottom line's words
    marks: tuple[str, ...] = field(default=())  # small icons at the medallion's right edge
    name_en: str = ""  # shown instead of the name and label when the URL ends in ``#en``
    label_en: str = ""


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def shade(colour: str, factor: float) -> str:
    """Lighter (factor > 1, towards white) or darker (factor < 1) of ``colour``."""

    def mix(c: int) -> int:
        value = c * factor if factor < 1 else c + (255 - c) * (factor - 1)
        return max(0, min(255, round(value)))

    r, g, b = rgb(colour)
    return f"#{mix(r):02x}{mix(g):02x}{mix(b):02x}"


def is_light(colour: str) -> bool:
    r, g, b = rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b > 160


def icon(name: str, x: float, y: float, side: float, colour: str) -> str:
    """An icon scaled into the square at (x, y) with ``side``, painted ``colour``."""
    scale = side / size()
    return (
        f'<g transform="translate({x:g} {y:g}) scale({scale:.4f})" color="{colour}"'
        f' fill="{colour}">{body(name)}</g>'
    )


def name_lines(name: str) -> list[str]:
    """The name on one line, or two when long (split at the space nearest the middle)."""
    if len(name) <= 14 or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1 :]]


def text(x: float, y: float, words: str, px: float, colour: str, width: float) -> str:
    """A centred line that is squeezed (never overflows) when longer than ``width``."""
    fit = (
        f' textLength="{width:g}" lengthAdjust="spacingAndGlyphs"'
        if len(words) * px * 0.55 > width
        else ""
    )
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="middle" font-family="{FONT}"'
        f' font-size="{px:g}" font-weight="700" fill="{colour}"{fit}>{escape(words)}</text>'
    )


BOTTOM = 258
# ``card.svg#en`` shows the English words: the fragment makes the ``en`` group the target.
EN_STYLE = "<style>#en{display:none}#en:target{display:inline}#en:target~.ru{display:none}</style>"


def x_after(face: Face) -> float:
    """Where the bottom line's words start (after the sign icons)."""
    return 22.0 + 24 * len(face.signs)


def _words(name: str, label: str, ink: str, left: float) -> str:
    """The name band and the bottom line's words in one language."""
    parts = []
    lines = name_lines(name)
    top = 196 if len(lines) == 1 else 188
    band = 36 if len(lines) == 1 else 48
    parts.append(
        f'<rect x="14" y="{top}" width="172" height="{band}" rx="8" fill="#120d1a"'
        ' fill-opacity="0.62"/>'
    )
    px = 19 if len(lines) == 1 else 16
    for i, line in enumerate(lines):
        y = top + 25 + i * 19 - (2 if len(lines) > 1 else 0)
        parts.append(text(100, y, line, px, "#fff8ec", 162))
    if label:
        left += 2
        parts.append(text((left + 182) / 2, BOTTOM, label, 12, ink, 182 - left))
    return "".join(parts)


def svg(face: Face) -> str:
    """The whole card."""
    light, dark = shade(face.colour, 1.45), shade(face.colour, 0.55)
    ink = "#1d1526" if is_light(face.colour) else "#fff8ec"
    title = escape(face.name)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}"'
        f' role="img" aria-label="{title}"><title>{title}</title>'
        '<defs><linearGradient id="bg" x1="0" y1="0" x2="0.3" y2="1">'
        f'<stop offset="0" stop-color="{light}"/><stop offset="0.55" stop-color="{face.colour}"/>'
        f'<stop offset="1" stop-color="{dark}"/></linearGradient>'
        '<radialGradient id="glow" cx="0.5" cy="0.45" r="0.6">'
        f'<stop offset="0" stop-color="{shade(face.colour, 1.75)}" stop-opacity="0.95"/>'
        f'<stop offset="1" stop-color="{face.colour}" stop-opacity="0"/></radialGradient></defs>',
        f'<rect x="3" y="3" width="194" height="274" rx="14" fill="url(#bg)" stroke="{dark}"'
        ' stroke-width="6"/>',
        f'<rect x="11" y="11" width="178" height="258" rx="9" fill="none" stroke="{light}"'
        ' stroke-opacity="0.55" stroke-width="1.5"/>',
        '<circle cx="100" cy="112" r="78" fill="url(#glow)"/>',
        f'<circle cx="100" cy="112" r="62" fill="{dark}" fill-opacity="0.28" stroke="{light}"'
        ' stroke-opacity="0.6" stroke-width="2"/>',
        icon(face.icon, 46, 58, 108, ink),
    ]
    if face.corner:
        parts.append(
            f'<circle cx="31" cy="31" r="17" fill="{dark}" stroke="{light}" stroke-width="2"/>'
        )
        parts.append(icon(face.corner, 19, 19, 24, "#fff8ec"))
    if face.number is not None:
        parts.append(
            f'<g><title>{escape(face.number_title)}</title><circle cx="169" cy="31" r="18"'
            f' fill="#fff8ec" stroke="{dark}" stroke-width="3"/>'
            + text(169, 38, face.number, 20, "#1d1526", 30)
            + "</g>"
        )
    for i, mark in enumerate(face.marks):
        cy = 70 + 30 * i
        parts.append(
            f'<circle cx="170" cy="{cy}" r="13" fill="#fff8ec" stroke="{dark}" stroke-width="2"/>'
        )
        parts.append(icon(mark, 161, cy - 9, 18, "#1d1526"))
    parts.append(EN_STYLE)
    left = x_after(face)
    english = _words(face.name_en or face.name, face.label_en or face.label, ink, left)
    russian = _words(face.name, face.label, ink, left)
    parts.append(f'<g id="en">{english}</g><g class="ru">{russian}</g>')
    x = 22.0
    for sign in face.signs:
        parts.append(f'<circle cx="{x + 9:g}" cy="{BOTTOM - 6}" r="11" fill="{dark}"/>')
        parts.append(icon(sign, x, BOTTOM - 15, 18, "#fff8ec"))
        x += 24
    parts.append("</svg>")
    return "".join(parts)
