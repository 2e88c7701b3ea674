"""Generate the «Схватка» illustrations: one deterministic SVG per card and hero.

Run from the repository root: ``python seeds/rumble/make_art.py``. Each picture is built from the
card's data (school colour, slot emblem, initiative, creature and «Нежданчик» marks) plus a
pattern seeded by a hash of its id, so every card looks different and re-running the script
gives byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ART = HERE / "art"
W, H = 200, 280
DECK_COLOURS = {
    "treasures": "#c9a227",
    "ghosts": "#8fa3b8",
    "diseases": "#7fae3a",
    "specials": "#b0413e",
    "heroes": "#5a4a8a",
    "wild": "#444444",
}
SLOT_LABEL = {
    "source": "заводила",
    "quality": "наворот",
    "delivery": "приход",
    "wild": "шальная",
}


class Rand:
    """A tiny deterministic generator fed by SHA-256 of a card id."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.n = 0

    def next(self) -> float:
        self.n += 1
        digest = hashlib.sha256(f"{self.key}:{self.n}".encode()).digest()
        return int.from_bytes(digest[:6], "big") / float(1 << 48)

    def between(self, low: float, high: float) -> float:
        return low + (high - low) * self.next()


def shade(colour: str, factor: float) -> str:
    """The colour lightened (factor > 1) or darkened (factor < 1)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))

    def mix(c: int) -> int:
        return max(0, min(255, int(c * factor if factor < 1 else c + (255 - c) * (factor - 1))))

    return f"#{mix(r):02x}{mix(g):02x}{mix(b):02x}"


def hue_colour(rand: Rand) -> str:
    """A saturated colour from the generator (HSV with full value)."""
    h = rand.next() * 6
    i = int(h)
    f = h - i
    q, t = int(255 * (1 - f * 0.7)), int(255 * (0.3 + f * 0.7))
    low = 77
    rgb = [(255, t, low), (q, 255, low), (low, 255, t), (low, q, 255), (t, low, 255), (255, low, q)]
    r, g, b = rgb[i % 6]
    return f"#{r:02x}{g:02x}{b:02x}"


def wrap(name: str, width: int = 15) -> list[str]:
    words, lines, line = name.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return lines[:3]


def emblem(slot: str, colour: str) -> str:
    """A big slot emblem in the middle of the picture."""
    cx, cy = W / 2, 118
    if slot == "source":
        return (
            f'<path d="M{cx},{cy - 46} C{cx + 38},{cy - 6} {cx + 26},{cy + 36} {cx},{cy + 40} '
            f'C{cx - 26},{cy + 36} {cx - 38},{cy - 6} {cx},{cy - 46}Z" fill="{colour}" '
            'stroke="#1b1b1b" stroke-width="3"/>'
        )
    if slot == "quality":
        points = []
        for k in range(10):
            r = 44 if k % 2 == 0 else 19
            a = math.pi / 2 + k * math.pi / 5
            points.append(f"{cx + r * math.cos(a):.1f},{cy - r * math.sin(a):.1f}")
        return (
            f'<polygon points="{" ".join(points)}" fill="{colour}" stroke="#1b1b1b" '
            'stroke-width="3"/>'
        )
    if slot == "delivery":
        return (
            f'<path d="M{cx - 44},{cy - 14} L{cx + 8},{cy - 14} L{cx + 8},{cy - 34} '
            f'L{cx + 46},{cy} L{cx + 8},{cy + 34} L{cx + 8},{cy + 14} L{cx - 44},{cy + 14}Z" '
            f'fill="{colour}" stroke="#1b1b1b" stroke-width="3"/>'
        )
    if slot == "wild":
        return (
            f'<text x="{cx}" y="{cy + 30}" text-anchor="middle" font-size="96" '
            f'font-family="sans-serif" font-weight="bold" fill="{colour}" stroke="#1b1b1b" '
            'stroke-width="3">?</text>'
        )
    if slot == "treasures":
        return (
            f'<polygon points="{cx - 40},{cy - 10} {cx - 20},{cy - 36} {cx + 20},{cy - 36} '
            f'{cx + 40},{cy - 10} {cx},{cy + 40}" fill="{colour}" stroke="#1b1b1b" '
            f'stroke-width="3"/><path d="M{cx - 40},{cy - 10} L{cx + 40},{cy - 10} '
            f'M{cx - 20},{cy - 36} L{cx},{cy + 40} L{cx + 20},{cy - 36}" stroke="#1b1b1b" '
            'stroke-width="2" fill="none"/>'
        )
    if slot == "ghosts":
        return (
            f'<path d="M{cx - 34},{cy + 40} L{cx - 34},{cy - 6} C{cx - 34},{cy - 52} '
            f"{cx + 34},{cy - 52} {cx + 34},{cy - 6} L{cx + 34},{cy + 40} L{cx + 17},{cy + 28} "
            f'L{cx},{cy + 40} L{cx - 17},{cy + 28}Z" fill="{colour}" stroke="#1b1b1b" '
            f'stroke-width="3"/><circle cx="{cx - 12}" cy="{cy - 8}" r="6" fill="#1b1b1b"/>'
            f'<circle cx="{cx + 12}" cy="{cy - 8}" r="6" fill="#1b1b1b"/>'
        )
    if slot == "diseases":
        spikes = "".join(
            f'<line x1="{cx + 30 * math.cos(k * math.pi / 4):.1f}" '
            f'y1="{cy + 30 * math.sin(k * math.pi / 4):.1f}" '
            f'x2="{cx + 46 * math.cos(k * math.pi / 4):.1f}" '
            f'y2="{cy + 46 * math.sin(k * math.pi / 4):.1f}" stroke="#1b1b1b" stroke-width="5" '
            'stroke-linecap="round"/>'
            for k in range(8)
        )
        return (
            f'{spikes}<circle cx="{cx}" cy="{cy}" r="32" fill="{colour}" stroke="#1b1b1b" '
            'stroke-width="3"/>'
        )
    if slot == "specials":
        return (
            f'<path d="M{cx - 46},{cy + 40} L{cx - 46},{cy - 30} L{cx - 30},{cy - 30} '
            f"L{cx - 30},{cy - 14} L{cx - 14},{cy - 14} L{cx - 14},{cy - 44} L{cx + 14},{cy - 44} "
            f"L{cx + 14},{cy - 14} L{cx + 30},{cy - 14} L{cx + 30},{cy - 30} L{cx + 46},{cy - 30} "
            f'L{cx + 46},{cy + 40}Z" fill="{colour}" stroke="#1b1b1b" stroke-width="3"/>'
            f'<path d="M{cx - 12},{cy + 40} L{cx - 12},{cy + 14} Q{cx},{cy} {cx + 12},{cy + 14} '
            f'L{cx + 12},{cy + 40}Z" fill="#1b1b1b"/>'
        )
    return f'<circle cx="{cx}" cy="{cy}" r="40" fill="{colour}" stroke="#1b1b1b" stroke-width="3"/>'


def pattern(rand: Rand) -> str:
    """Background shapes that make each picture its own."""
    out = []
    for _ in range(7):
        colour = hue_colour(rand)
        x, y = rand.between(20, W - 20), rand.between(40, 200)
        size = rand.between(10, 34)
        kind = int(rand.next() * 3)
        if kind == 0:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="{colour}" opacity="0.45"/>'
            )
        elif kind == 1:
            out.append(
                f'<rect x="{x - size:.1f}" y="{y - size / 2:.1f}" width="{2 * size:.1f}" '
                f'height="{size:.1f}" fill="{colour}" opacity="0.4" '
                f'transform="rotate({rand.between(0, 90):.0f} {x:.1f} {y:.1f})"/>'
            )
        else:
            out.append(
                f'<polygon points="{x:.1f},{y - size:.1f} {x + size:.1f},{y + size:.1f} '
                f'{x - size:.1f},{y + size:.1f}" fill="{colour}" opacity="0.4"/>'
            )
    return "".join(out)


def face(rand: Rand, colour: str) -> str:
    """A hero: hat, face, eyes and beard or hair from the generator."""
    cx, cy = W / 2, 128
    skin = ["#f1c9a5", "#d9a27a", "#a8714f", "#ecd2b8"][int(rand.next() * 4)]
    hat = hue_colour(rand)
    hat_h = rand.between(50, 80)
    beard = rand.next() > 0.5
    parts = [
        f'<polygon points="{cx - 42},{cy - 30} {cx + 42},{cy - 30} '
        f'{cx + rand.between(-20, 20):.1f},{cy - 30 - hat_h:.1f}" fill="{hat}" '
        'stroke="#1b1b1b" stroke-width="3"/>',
        f'<ellipse cx="{cx}" cy="{cy + 4}" rx="34" ry="38" fill="{skin}" stroke="#1b1b1b" '
        'stroke-width="3"/>',
        f'<rect x="{cx - 56}" y="{cy - 36}" width="112" height="10" rx="5" '
        f'fill="{shade(hat, 0.6)}"/>',
        f'<circle cx="{cx - 12}" cy="{cy - 2}" r="5" fill="#1b1b1b"/>',
        f'<circle cx="{cx + 12}" cy="{cy - 2}" r="5" fill="#1b1b1b"/>',
    ]
    if beard:
        parts.append(
            f'<path d="M{cx - 30},{cy + 14} Q{cx},{cy + rand.between(70, 95):.1f} '
            f'{cx + 30},{cy + 14}Z" fill="{colour}" stroke="#1b1b1b" stroke-width="2"/>'
        )
    else:
        parts.append(
            f'<path d="M{cx - 14},{cy + 22} Q{cx},{cy + 32} {cx + 14},{cy + 22}" fill="none" '
            'stroke="#1b1b1b" stroke-width="3"/>'
        )
    return "".join(parts)


def card_svg(card: dict[str, Any], deck: str, schools: dict[str, Any]) -> str:
    """The SVG text of one card."""
    rand = Rand(card["id"])
    school = card.get("school")
    if card["id"] == "wild":
        colour, slot = DECK_COLOURS["wild"], "wild"
    elif school:
        colour, slot = schools[school]["color"], card["slot"]
    else:
        colour, slot = DECK_COLOURS[deck], deck
    light, dark = shade(colour, 1.6), shade(colour, 0.55)
    label = SLOT_LABEL.get(
        slot,
        {
            "treasures": "сокровище",
            "ghosts": "призрак",
            "diseases": "ЗПМП",
            "specials": "особая",
            "heroes": "герой",
        }.get(slot, ""),
    )
    if school:
        label = f"{label} · {schools[school]['name']}"
    if deck == "heroes":
        body = face(rand, colour)
    elif card["id"] == "surprise":
        body = emblem("wild", "#b0413e").replace(">?<", ">!<")
    else:
        body = emblem(slot, hue_colour(rand))
    marks = []
    if card.get("initiative") is not None:
        marks.append(
            f'<circle cx="170" cy="30" r="18" fill="#fff8e0" stroke="#1b1b1b" stroke-width="2"/>'
            f'<text x="170" y="36" text-anchor="middle" font-size="17" font-weight="bold" '
            f'font-family="sans-serif">{card["initiative"]}</text>'
        )
    if card.get("creature"):
        marks.append(
            '<g fill="#1b1b1b"><circle cx="30" cy="36" r="7"/><circle cx="20" cy="24" r="4"/>'
            '<circle cx="30" cy="20" r="4"/><circle cx="40" cy="24" r="4"/></g>'
        )
    if card.get("surprise"):
        marks.append(
            '<text x="30" y="215" text-anchor="middle" font-size="30" font-weight="bold" '
            'font-family="sans-serif" fill="#b0413e">!</text>'
        )
    if card.get("boost"):
        marks.append(
            '<text x="170" y="215" text-anchor="middle" font-size="30" font-weight="bold" '
            'font-family="sans-serif" fill="#1b1b1b">+1</text>'
        )
    if card.get("eternal"):
        marks.append(
            '<text x="170" y="215" text-anchor="middle" font-size="28" '
            'font-family="sans-serif" fill="#1b1b1b">∞</text>'
        )
    lines = wrap(card["name"])
    label_y = 266
    text_y = label_y - 16 - 18 * (len(lines) - 1)
    name = "".join(
        f'<text x="{W / 2}" y="{text_y + 18 * i}" text-anchor="middle" font-size="17" '
        f'font-weight="bold" font-family="sans-serif" fill="#1b1b1b">{escape(line)}</text>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img" aria-label="{escape(card["name"])}">'
        f"<title>{escape(card['name'])}</title>"
        f'<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{light}"/><stop offset="1" stop-color="{colour}"/>'
        "</linearGradient></defs>"
        f'<rect x="3" y="3" width="{W - 6}" height="{H - 6}" rx="14" fill="url(#bg)" '
        f'stroke="{dark}" stroke-width="6"/>'
        f"{pattern(rand)}{body}{''.join(marks)}"
        f'<rect x="12" y="{text_y - 19}" width="{W - 24}" height="{label_y + 7 - text_y + 19}" '
        'rx="8" fill="#fffdf5" opacity="0.9"/>'
        f"{name}"
        f'<text x="{W / 2}" y="{label_y}" text-anchor="middle" '
        f'font-size="11" font-family="sans-serif" fill="{dark}">{escape(label)}</text>'
        "</svg>\n"
    )


def main() -> None:
    catalog = json.loads((HERE / "catalog.json").read_text("utf-8"))
    ART.mkdir(exist_ok=True)
    written = 0
    for deck in ("spells", "treasures", "ghosts", "diseases", "specials", "heroes"):
        for card in catalog[deck]:
            (ART / f"{card['id']}.svg").write_text(
                card_svg(card, deck, catalog["schools"]), "utf-8"
            )
            written += 1
    print(f"{written} illustrations in {ART}")


if __name__ == "__main__":
    main()
