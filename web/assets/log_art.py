"""The log's small pictures as one icon font: a glyph per category of web/ui/log_icons.py, drawn
from its game-icons.net picture (fontTools).

A log line's picture is text in this font, coloured by the page (style.css), not an SVG image
through a mask: the page paints a glyph from its glyph cache, while each masked SVG picture was
drawn anew, a layer of its own, whenever its line was painted (``benchmarks.bench_log_paint``).
"""

from __future__ import annotations

import re
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.basePen import AbstractPen
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.transformPen import TransformPen
from fontTools.svgLib.path import parse_path

from web.ui.log_icons import GLYPHS, ICONS

from .icons import body, size

FAMILY = "Log icons"
FILE = "log-icons.woff2"
# The picture's box in font units: a square em, its bottom this far below the baseline (the
# line's text sits on the baseline, the picture a little lower, as the old box picture did).
EM = 512
BELOW = 98
# A fixed date (seconds since 1904, as the font's ``head`` counts): the same sources make the
# same bytes.
FIXED_DATE = 3_786_825_600  # 2024-01-01
PATH = re.compile(r'<path\b[^>]*\bd="([^"]+)"')


def outlines(svg_body: str) -> list[str]:
    """The ``d`` of every path of an icon body (game-icons bodies are paths only)."""
    found = PATH.findall(svg_body)
    if not found or svg_body.count("<") != len(found):
        raise ValueError(f"an icon body holds more than paths: {svg_body[:80]!r}")
    return found


def _draw(pen: AbstractPen, paths: list[str], box: int) -> None:
    """The paths onto ``pen``, the picture's ``box`` scaled to the em and turned upright."""
    scale = EM / box
    upright = TransformPen(pen, (scale, 0, 0, -scale, 0, EM - BELOW))
    for d in paths:
        parse_path(d, upright)


def write_log_font(folder: Path) -> Path:
    """``<folder>/log-icons.woff2``: a glyph for every category, at its ``GLYPHS`` code point."""
    folder.mkdir(parents=True, exist_ok=True)
    box = size()
    names = sorted(ICONS)
    builder = FontBuilder(EM, isTTF=False)
    builder.setupGlyphOrder([".notdef", *names])
    builder.setupCharacterMap({ord(GLYPHS[name]): name for name in names})
    charstrings, metrics = {}, {}
    empty = T2CharStringPen(EM, None)
    charstrings[".notdef"], metrics[".notdef"] = empty.getCharString(), (EM, 0)
    for name in names:
        paths = outlines(body(ICONS[name]))
        pen, bounds = T2CharStringPen(EM, None), BoundsPen(None)
        _draw(pen, paths, box)
        _draw(bounds, paths, box)
        left = int(bounds.bounds[0]) if bounds.bounds else 0
        charstrings[name], metrics[name] = pen.getCharString(), (EM, left)
    builder.setupCFF("LogIcons-Regular", {"FullName": f"{FAMILY} Regular"}, charstrings, {})
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=EM - BELOW, descent=-BELOW)
    builder.setupNameTable({"familyName": FAMILY, "styleName": "Regular"})
    builder.setupOS2(
        sTypoAscender=EM - BELOW,
        sTypoDescender=-BELOW,
        usWinAscent=EM - BELOW,
        usWinDescent=BELOW,
    )
    builder.setupPost()
    builder.updateHead(created=FIXED_DATE, modified=FIXED_DATE)
    builder.font.flavor = "woff2"
    target = folder / FILE
    builder.save(str(target))
    return target
