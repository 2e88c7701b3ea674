"""Generate the «Волшебный круг» illustrations: one deterministic SVG per card.

Run from the repository root: ``python seeds/circle/make_art.py``. A spell's picture is its
keyword's emblem in the keyword's colour with power pips and a ring of sparks seeded by a hash of
its id; an action's picture is drawn from its effect (the left and right winds blow opposite ways,
the all-directions wind blows every way) with the direction written under the art. Re-running the
script gives byte-identical files.
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
CX, CY = 100, 120
KEYWORD_COLOURS = {
    "fan": "#e8590c",
    "grow": "#5c7cfa",
    "melt": "#74c0fc",
    "chain": "#fab005",
    "burn": "#c92a2a",
    "drain": "#862e9c",
    "frost": "#a5d8ff",
    "relentless": "#343a40",
    None: "#868e96",
}
CAPTIONS = {
    "dispel": "в сброс, без вреда",
    "shield": "поглощает попадание",
    "mirror": "к прежней цели",
    "gust": "сила +1",
}
ACTION_COLOURS = {
    "wind_left": "#2b8a3e",
    "wind_right": "#1864ab",
    "wind_any": "#0b7285",
    "dispel": "#9c36b5",
    "shield": "#e67700",
    "mirror": "#495057",
    "gust": "#5f3dc4",
}


def unit(key: str, n: int) -> float:
    """A deterministic number in [0, 1) from a card id and an index."""
    digest = hashlib.sha256(f"{key}:{n}".encode()).digest()
    return int.from_bytes(digest[:6], "big") / float(1 << 48)


def frame(colour: str, inner: str, title: str, caption: str) -> str:
    """The card: border, background, picture, title and a caption line under the art."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}">\n'
        f'<rect x="3" y="3" width="{W - 6}" height="{H - 6}" rx="14" fill="#fdf8ef" '
        f'stroke="{colour}" stroke-width="6"/>\n'
        f'<rect x="16" y="22" width="{W - 32}" height="196" rx="10" fill="{colour}" '
        'fill-opacity="0.15"/>\n'
        f"{inner}\n"
        f'<text x="{CX}" y="244" text-anchor="middle" font-family="sans-serif" '
        f'font-size="{17 if len(title) <= 14 else 14}" '
        f'font-weight="bold" fill="#212529">{escape(title)}</text>\n'
        f'<text x="{CX}" y="266" text-anchor="middle" font-family="sans-serif" font-size="13" '
        f'fill="#495057">{escape(caption)}</text>\n'
        "</svg>\n"
    )


def sparks(key: str, colour: str) -> str:
    """A ring of small circles placed by the id's hash (every card differs)."""
    out = []
    for k in range(10):
        a = unit(key, k) * 2 * math.pi
        r = 62 + unit(key, k + 50) * 24
        size = 2 + unit(key, k + 100) * 4
        x, y = CX + r * math.cos(a), CY + r * math.sin(a)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="{colour}"/>')
    return "".join(out)


def keyword_emblem(keyword: str | None, colour: str) -> str:
    """The big emblem of a keyword in the middle of the picture."""
    stroke = 'stroke="#212529" stroke-width="3"'
    if keyword in ("fan", "burn"):
        return (
            f'<path d="M{CX},{CY - 55} C{CX + 45},{CY - 10} {CX + 30},{CY + 40} {CX},{CY + 45} '
            f'C{CX - 30},{CY + 40} {CX - 45},{CY - 10} {CX},{CY - 55}Z" fill="{colour}" {stroke}/>'
            + (
                f'<circle cx="{CX}" cy="{CY + 15}" r="14" fill="#ffd43b"/>'
                if keyword == "fan"
                else f'<path d="M{CX - 30},{CY + 50} L{CX + 30},{CY + 50}" {stroke}/>'
            )
        )
    if keyword in ("grow", "melt", "frost"):
        arms = []
        for k in range(6):
            a = k * math.pi / 3
            x, y = CX + 48 * math.cos(a), CY + 48 * math.sin(a)
            arms.append(f'<line x1="{CX}" y1="{CY}" x2="{x:.1f}" y2="{y:.1f}" {stroke}/>')
        body = {"grow": 30, "melt": 22, "frost": 12}[keyword]
        return "".join(arms) + f'<circle cx="{CX}" cy="{CY}" r="{body}" fill="{colour}" {stroke}/>'
    if keyword == "chain":
        return (
            f'<polygon points="{CX + 10},{CY - 55} {CX - 25},{CY + 5} {CX},{CY + 5} '
            f'{CX - 12},{CY + 55} {CX + 28},{CY - 10} {CX + 2},{CY - 10}" '
            f'fill="{colour}" {stroke}/>'
        )
    if keyword == "drain":
        return (
            f'<path d="M{CX},{CY - 50} Q{CX + 40},{CY + 10} {CX},{CY + 45} '
            f'Q{CX - 40},{CY + 10} {CX},{CY - 50}Z" fill="{colour}" {stroke}/>'
        )
    if keyword == "relentless":
        return (
            f'<circle cx="{CX}" cy="{CY}" r="44" fill="{colour}" {stroke}/>'
            f'<circle cx="{CX}" cy="{CY}" r="18" fill="#e03131"/>'
        )
    return f'<circle cx="{CX}" cy="{CY}" r="38" fill="{colour}" {stroke}/>'


def plain_emblem(card_id: str, colour: str) -> str:
    """Spells without a keyword: an arrow, a rock, or a stone with a fiery tail."""
    stroke = 'stroke="#212529" stroke-width="3"'
    if card_id == "magic_arrow":
        return (
            f'<line x1="{CX - 45}" y1="{CY + 45}" x2="{CX + 30}" y2="{CY - 30}" {stroke}/>'
            f'<polygon points="{CX + 45},{CY - 45} {CX + 14},{CY - 34} {CX + 34},{CY - 14}" '
            f'fill="{colour}" {stroke}/>'
            f'<path d="M{CX - 45},{CY + 45} l-8,-18 M{CX - 45},{CY + 45} l18,8" {stroke}/>'
        )
    tail = ""
    if card_id == "meteor":
        tail = "".join(
            f'<line x1="{CX - 20 - 12 * k}" y1="{CY - 20 + 12 * k}" x2="{CX - 45 - 12 * k}" '
            f'y2="{CY - 45 + 12 * k}" stroke="#f76707" stroke-width="6" stroke-linecap="round"/>'
            for k in range(3)
        )
    return (
        tail + f'<polygon points="{CX - 34},{CY - 10} {CX - 14},{CY - 34} {CX + 22},{CY - 30} '
        f'{CX + 38},{CY + 2} {CX + 22},{CY + 32} {CX - 20},{CY + 34}" fill="{colour}" {stroke}/>'
    )


def spell_svg(card: dict[str, Any], keywords: dict[str, Any]) -> str:
    kw = card["keyword"]
    colour = KEYWORD_COLOURS[kw]
    pips = "".join(
        f'<circle cx="{34 + 18 * k}" cy="38" r="7" fill="#f03e3e" stroke="#212529"/>'
        for k in range(card["power"])
    )
    emblem = keyword_emblem(kw, colour) if kw else plain_emblem(card["id"], colour)
    scale = 0.7 + 0.15 * card["power"]
    grown = (
        f'<g transform="translate({CX} {CY}) scale({scale:.2f}) translate({-CX} {-CY})">'
        f"{emblem}</g>"
    )
    inner = sparks(card["id"], colour) + grown + pips
    caption = f"сила {card['power']}" + (f" · {keywords[kw]['name']}" if kw else "")
    return frame(colour, inner, card["name"], caption)


def wind_lines(direction: int, colour: str) -> str:
    """Three curved gust lines ending in an arrow head pointing left (−1) or right (+1)."""
    out = []
    for k, dy in enumerate((-30, 0, 30)):
        x0, x1 = CX - 55 * direction, CX + (40 - 10 * k) * direction
        out.append(
            f'<path d="M{x0},{CY + dy} Q{CX},{CY + dy - 18} {x1},{CY + dy}" fill="none" '
            f'stroke="{colour}" stroke-width="7" stroke-linecap="round"/>'
        )
    tip = CX + 62 * direction
    out.append(
        f'<polygon points="{tip},{CY} {tip - 22 * direction},{CY - 16} '
        f'{tip - 22 * direction},{CY + 16}" fill="{colour}"/>'
    )
    return "".join(out)


def action_svg(card: dict[str, Any]) -> str:
    effect = card["effect"]
    colour = ACTION_COLOURS[effect]
    if effect == "wind_left":
        inner = wind_lines(-1, colour)
    elif effect == "wind_right":
        inner = wind_lines(1, colour)
    elif effect == "wind_any":
        rays = []
        for k in range(8):
            a = k * math.pi / 4
            x, y = CX + 60 * math.cos(a), CY + 60 * math.sin(a)
            rays.append(
                f'<line x1="{CX}" y1="{CY}" x2="{x:.1f}" y2="{y:.1f}" stroke="{colour}" '
                'stroke-width="6" stroke-linecap="round"/>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{colour}"/>'
            )
        inner = "".join(rays) + f'<circle cx="{CX}" cy="{CY}" r="14" fill="#fdf8ef"/>'
    elif effect == "dispel":
        dots = []
        for k in range(18):
            a = unit(card["id"], k) * 2 * math.pi
            r = 10 + unit(card["id"], k + 40) * 55
            dots.append(
                f'<circle cx="{CX + r * math.cos(a):.1f}" cy="{CY + r * math.sin(a):.1f}" '
                f'r="{2 + 6 * (1 - r / 65):.1f}" fill="{colour}"/>'
            )
        inner = "".join(dots)
    elif effect == "shield":
        inner = (
            f'<path d="M{CX},{CY - 55} L{CX + 45},{CY - 35} Q{CX + 40},{CY + 30} {CX},{CY + 55} '
            f'Q{CX - 40},{CY + 30} {CX - 45},{CY - 35}Z" fill="{colour}" stroke="#212529" '
            'stroke-width="3"/>'
        )
    elif effect == "mirror":
        inner = (
            f'<ellipse cx="{CX}" cy="{CY}" rx="38" ry="52" fill="#dee2e6" stroke="{colour}" '
            'stroke-width="6"/>'
            f'<path d="M{CX + 20},{CY - 20} A24,24 0 1,0 {CX + 20},{CY + 20}" fill="none" '
            f'stroke="{colour}" stroke-width="5"/>'
            f'<polygon points="{CX + 30},{CY + 20} {CX + 12},{CY + 10} {CX + 14},{CY + 30}" '
            f'fill="{colour}"/>'
        )
    else:
        inner = wind_lines(1, colour) + (
            f'<text x="{CX}" y="{CY - 42}" text-anchor="middle" font-family="sans-serif" '
            f'font-size="28" font-weight="bold" fill="{colour}">+1</text>'
        )
    caption = card["direction"] or CAPTIONS[effect]
    return frame(colour, inner, card["name"], caption)


def main() -> None:
    catalog = json.loads((HERE / "catalog.json").read_text("utf-8"))
    ART.mkdir(exist_ok=True)
    for card in catalog["spells"]:
        (ART / f"{card['id']}.svg").write_text(spell_svg(card, catalog["keywords"]), "utf-8")
    for card in catalog["actions"]:
        (ART / f"{card['id']}.svg").write_text(action_svg(card), "utf-8")


if __name__ == "__main__":
    main()
