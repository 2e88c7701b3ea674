"""Every card picture also as bitmaps (WebP), drawn at build time from its SVG with resvg.

A page shows the bitmaps at the table: a new SVG picture is a document of its own that the page
styles, lays out and paints on its main thread the first time each picture element shows, where
a bitmap is decoded off that thread, and a small one cheaply (``benchmarks/bench_card_pictures``
measures both). Each ``<name>.svg`` under the built site's card art gets four: ``<name>.webp`` (the
Russian words, at the SVG's own size), ``<name>.en.webp`` (the English words, which the SVG shows
under ``#en``), and each at twice the size, ``<name>@2x.webp`` and ``<name>.en@2x.webp``, for
screens of more than one pixel per point (``web/ui/i18n.picture`` picks one). The card back
becomes ``art/card-back.webp`` (and ``@2x``), and the table's icons that effects show
``art/ui/<icon>.webp`` (and ``@2x``). The words are set in the site's display face (Yeseva
One, from ``fonts``), a font the build has on every machine, so the same sources give the same
bytes. Drawn pictures are kept in a cache by their inputs (``build/bitmaps``).
"""

from __future__ import annotations

import hashlib
import html
import io
import re
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path

from web.precompress import store

from .compose import EN_STYLE
from .fonts import FILES, FONT_DIR

SCALES = {1: "", 2: "@2x"}  # a picture's sizes (times its SVG's) and their names' endings
QUALITY = 80  # WebP's lossy quality: a card is about 5 kB, 11 kB at twice the size
METHOD = 4  # WebP's effort: 6 saves 3 % for 70 times the time
FAMILY = "Yeseva One"
EN_ONLY = "<style>.ru{display:none}</style>"  # the English band shown, the Russian one hidden
GAMES = ("circle", "nevermore", "rumble")
# The table's icons that its effects fly or float over the board, a new picture element each time
# (``web/ui/fx.py``), and the Palace's mark on a wizard's panel.
TABLE_ICONS = ("absorb", "ghost", "heal", "hit", "human", "palace", "raven")


class BitmapError(RuntimeError):
    """A picture that cannot be drawn (bad SVG, a missing font)."""


def english(svg: str) -> str:
    """``svg`` with its English words showing (those its ``#en`` fragment selects); a picture
    without words is itself. An English band switched some other way would be drawn in Russian
    without a word: it is an error."""
    if EN_STYLE in svg:
        return svg.replace(EN_STYLE, EN_ONLY)
    if 'id="en"' in svg:
        raise BitmapError("a picture's English band is not switched by compose.EN_STYLE")
    return svg


def pictures(dist: Path) -> list[tuple[Path, Path, str, int]]:
    """``(svg, bitmap, language, scale)`` for each bitmap to draw, in a stable order: every card
    picture in both languages and both sizes, the card back (no words) and the table's icons
    (``TABLE_ICONS``), each beside its SVG."""
    found = []
    sources = [svg for game in GAMES for svg in sorted((dist / "art" / game).glob("*.svg"))]
    for svg in sources:
        for scale, ending in SCALES.items():
            found.append((svg, svg.with_name(f"{svg.stem}{ending}.webp"), "ru", scale))
            found.append((svg, svg.with_name(f"{svg.stem}.en{ending}.webp"), "en", scale))
    needed = [dist / "art" / "card-back.svg"]
    needed += [dist / "art" / "ui" / f"{name}.svg" for name in TABLE_ICONS]
    missing = [path.relative_to(dist).as_posix() for path in needed if not path.is_file()]
    if missing:
        raise BitmapError(f"pictures the pages show are not in {dist}: {', '.join(missing)}")
    for source in needed:
        for scale, ending in SCALES.items():
            found.append((source, source.with_name(f"{source.stem}{ending}.webp"), "ru", scale))
    return found


def font_files(folder: Path) -> list[Path]:
    """The display face's subsets as TrueType/CFF files resvg reads (it does not read WOFF2)."""
    from fontTools.ttLib import TTFont

    out = []
    for name in FILES:
        source = FONT_DIR / name
        if not source.is_file():
            raise BitmapError(f"{source} is missing: run `npm ci` first")
        target = folder / name.replace(".woff2", ".otf")
        if not target.is_file():
            font = TTFont(source)
            font.flavor = None
            data = io.BytesIO()
            font.save(data)
            store(target, data.getvalue())
        out.append(target)
    return out


class Advances:
    """Each character's advance in the display face, in ems (its subsets together)."""

    def __init__(self, fonts: list[str]) -> None:
        from fontTools.ttLib import TTFont

        self.ems: dict[str, float] = {}
        for path in fonts:
            font = TTFont(path)
            per_em = font["head"].unitsPerEm
            metrics = font["hmtx"].metrics
            for code, glyph in font.getBestCmap().items():
                self.ems.setdefault(chr(code), metrics[glyph][0] / per_em)

    def width(self, text: str, size: float) -> float:
        """``text``'s width at ``size`` (an unknown character counted as an em)."""
        return size * sum(self.ems.get(c, 1.0) for c in html.unescape(text))


TEXT = re.compile(r'<text x="([\d.]+)"([^>]*?) font-size="([\d.]+)"([^>]*)>([^<]*)</text>')
MARGIN = 20  # room left at each side of a line of words (the name band is 14 units in)


def fitted(svg: str, advances: Advances, card_width: float = 200) -> str:
    """``svg`` with every centred line of words that the display face would set wider than the
    card's room squeezed to that room (``textLength``): the face is wider than the serif the SVG
    names, which a browser would use."""

    def fit(match: re.Match[str]) -> str:
        x, before, size, after, words = match.groups()
        if "textLength" in before + after or 'text-anchor="middle"' not in before + after:
            return match[0]
        room = 2 * min(float(x) - MARGIN, card_width - MARGIN - float(x))
        if advances.width(words, float(size)) <= room:
            return match[0]
        squeeze = f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"'
        return f'<text x="{x}"{before} font-size="{size}"{after}{squeeze}>{words}</text>'

    return TEXT.sub(fit, svg)


def draw(svg: str, width: int, height: int, fonts: list[str]) -> bytes:
    """``svg`` drawn at ``width``×``height`` as lossy WebP (alpha kept: the cards' corners)."""
    import resvg_py
    from PIL import Image

    try:
        png = resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            height=height,
            skip_system_fonts=True,
            font_files=fonts,
            serif_family=FAMILY,
            sans_serif_family=FAMILY,
        )
    except ValueError as error:
        raise BitmapError(f"resvg could not draw a picture: {error}") from error
    out = io.BytesIO()
    Image.open(io.BytesIO(bytes(png))).save(out, "WEBP", quality=QUALITY, method=METHOD)
    return out.getvalue()


def size_of(svg: str, scale: int) -> tuple[int, int]:
    """The picture's pixel size: ``scale`` times its ``width`` and ``height`` (or its view
    box)."""
    head = svg[: svg.find(">")]
    width = re.search(r'\swidth="([\d.]+)"', head)
    height = re.search(r'\sheight="([\d.]+)"', head)
    if width and height:
        return round(scale * float(width[1])), round(scale * float(height[1]))
    box = re.search(r'viewBox="[\d.\s-]*?([\d.]+)\s+([\d.]+)"', head)
    if not box:
        raise BitmapError("a picture with no width, height or viewBox")
    return round(scale * float(box[1])), round(scale * float(box[2]))


Job = tuple[str, int, int, list[str]]  # draw's arguments


def write_bitmaps(dist: Path, cache: Path) -> list[Path]:
    """Write each picture's bitmaps (``pictures``); the written paths."""
    fonts = [str(path) for path in font_files(cache / "fonts")]
    font_hash = hashlib.sha256(b"".join(Path(f).read_bytes() for f in fonts)).hexdigest()
    salt = f"resvg {version('resvg-py')}|pillow {version('pillow')}|{QUALITY}|{METHOD}"
    salt += f"|{font_hash}"
    wanted: list[tuple[Path, str, int, int]] = []
    advances = Advances(fonts)
    for source, target, lang, scale in pictures(dist):
        svg = source.read_text()
        svg = english(svg) if lang == "en" else svg
        width, height = size_of(svg, scale)
        wanted.append((target, fitted(svg, advances), width, height))
    keys = [_key(salt, svg, width, height) for _, svg, width, height in wanted]
    missing = [i for i, key in enumerate(keys) if not (cache / key).is_file()]
    jobs = [(wanted[i][1], wanted[i][2], wanted[i][3], fonts) for i in missing]
    for i, data in zip(missing, _run(jobs), strict=True):
        store(cache / keys[i], data)
    for (target, *_), key in zip(wanted, keys, strict=True):
        target.write_bytes((cache / key).read_bytes())
    return [target for target, *_ in wanted]


def _key(salt: str, svg: str, width: int, height: int) -> str:
    return hashlib.sha256(f"{salt}|{width}x{height}|{svg}".encode()).hexdigest() + ".webp"


def _run(jobs: list[Job]) -> Iterable[bytes]:
    """Draw on two processes (a fresh build draws 764 pictures)."""
    if len(jobs) < 8:
        return [draw(*job) for job in jobs]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return list(pool.map(draw, *zip(*jobs, strict=True), chunksize=8))
