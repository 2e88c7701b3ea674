"""Card pictures as bitmaps: drawn from the SVG faces at two sizes and in both languages, the
words fitted to the card in the display face, the same bytes from the same sources, and the
pages asking for the bitmap of their language and screen."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from web.assets import bitmaps
from web.assets.compose import Face, svg
from web.ui import i18n

LONG = "Очень длинное имя карты"
FACE = Face(name="Огонь", icon="fire", colour="#b8901c", label="сокровище", name_en="Fire")


@pytest.fixture(scope="module")
def fonts(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return [str(p) for p in bitmaps.font_files(tmp_path_factory.mktemp("fonts"))]


def site(root: Path) -> Path:
    """A built site's two card pictures (one with words in both languages) and its card back."""
    (root / "art" / "rumble").mkdir(parents=True)
    (root / "art" / "rumble" / "fire.svg").write_text(svg(FACE))
    (root / "art" / "rumble" / "plain.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 280">'
        '<rect width="200" height="280" fill="#345"/></svg>'
    )
    back = Path(__file__).parents[2] / "web" / "static" / "art" / "card-back.svg"
    shutil.copy(back, root / "art")
    (root / "art" / "ui").mkdir()
    for name in bitmaps.TABLE_ICONS:
        (root / "art" / "ui" / f"{name}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="64" height="64">'
            '<circle cx="256" cy="256" r="200" fill="#fff"/></svg>'
        )
    return root


def pixels(path: Path) -> Image.Image:
    return Image.open(io.BytesIO(path.read_bytes())).convert("RGBA")


def test_every_picture_gets_both_languages_at_both_sizes(tmp_path: Path) -> None:
    dist = site(tmp_path / "dist")
    written = bitmaps.write_bitmaps(dist, tmp_path / "cache")
    names = sorted(p.relative_to(dist).as_posix() for p in written)
    assert names == sorted(
        [
            f"art/rumble/{n}{lang}{size}.webp"
            for n in ("fire", "plain")
            for lang in ("", ".en")
            for size in ("", "@2x")
        ]
        + ["art/card-back.webp", "art/card-back@2x.webp"]
        + [f"art/ui/{name}{size}.webp" for name in bitmaps.TABLE_ICONS for size in ("", "@2x")]
    )
    for path in written:
        assert path.is_file()
        image = Image.open(path)
        assert image.format == "WEBP"
        side = 2 if "@2x" in path.name else 1
        card = "/ui/" not in path.as_posix()
        assert image.size == ((200 * side, 280 * side) if card else (64 * side, 64 * side)), path
    # The words differ between the languages; a picture without words is the same in both.
    rumble = dist / "art" / "rumble"
    assert pixels(rumble / "fire.webp").tobytes() != pixels(rumble / "fire.en.webp").tobytes()
    assert pixels(rumble / "plain.webp").tobytes() == pixels(rumble / "plain.en.webp").tobytes()
    # The corners stay see-through (the cards are rounded).
    assert pixels(rumble / "fire.webp").getpixel((0, 0))[3] == 0


def test_the_same_sources_give_the_same_bytes_with_or_without_the_cache(tmp_path: Path) -> None:
    one = site(tmp_path / "one")
    two = site(tmp_path / "two")
    first = bitmaps.write_bitmaps(one, tmp_path / "cache-one")
    bitmaps.write_bitmaps(two, tmp_path / "cache-two")
    again = bitmaps.write_bitmaps(one, tmp_path / "cache-one")  # from the cache
    for path, other in zip(first, again, strict=True):
        assert path == other
        assert path.read_bytes() == (two / path.relative_to(one)).read_bytes(), path.name


def test_a_changed_picture_is_drawn_anew(tmp_path: Path) -> None:
    dist = site(tmp_path / "dist")
    bitmaps.write_bitmaps(dist, tmp_path / "cache")
    before = (dist / "art" / "rumble" / "plain.webp").read_bytes()
    source = dist / "art" / "rumble" / "plain.svg"
    source.write_text(source.read_text().replace("#345", "#a22"))
    bitmaps.write_bitmaps(dist, tmp_path / "cache")
    assert (dist / "art" / "rumble" / "plain.webp").read_bytes() != before


def test_english_shows_the_english_band_only() -> None:
    face = svg(FACE)
    english = bitmaps.english(face)
    assert "#en:target" in face and "#en:target" not in english
    assert ".ru{display:none}" in english
    plain = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="2" height="2"/></svg>'
    assert bitmaps.english(plain) == plain
    # An English band switched some other way would be drawn in Russian: a clear error instead.
    other = face.replace(bitmaps.EN_STYLE, "<style>#en{display:none}</style>")
    with pytest.raises(bitmaps.BitmapError, match="English band"):
        bitmaps.english(other)


def test_words_wider_than_the_card_are_squeezed_to_it(fonts: list[str]) -> None:
    advances = bitmaps.Advances(fonts)
    short = '<text x="100" y="221" text-anchor="middle" font-size="19">Огонь</text>'
    long = f'<text x="100" y="221" text-anchor="middle" font-size="19">{LONG}</text>'
    assert advances.width("Огонь", 19) < 160 < advances.width(LONG, 19)
    assert bitmaps.fitted(short, advances) == short
    squeezed = bitmaps.fitted(long, advances)
    assert 'textLength="160" lengthAdjust="spacingAndGlyphs"' in squeezed
    assert squeezed.endswith(f">{LONG}</text>")
    # A line that has its length already, or is not centred, is left as it is.
    fixed = long.replace('font-size="19"', 'font-size="19" textLength="134"')
    assert bitmaps.fitted(fixed, advances) == fixed
    left = long.replace(' text-anchor="middle"', "")
    assert bitmaps.fitted(left, advances) == left


@pytest.mark.parametrize("gone", ["art/ui/raven.svg", "art/card-back.svg"])
def test_a_missing_table_picture_is_a_clear_error(tmp_path: Path, gone: str) -> None:
    dist = site(tmp_path / "dist")
    (dist / gone).unlink()
    with pytest.raises(bitmaps.BitmapError, match=re.escape(gone)):
        bitmaps.write_bitmaps(dist, tmp_path / "cache")


def test_a_bad_picture_is_a_clear_error(fonts: list[str]) -> None:
    with pytest.raises(bitmaps.BitmapError, match="resvg could not draw"):
        bitmaps.draw("<svg", 20, 28, fonts)
    with pytest.raises(bitmaps.BitmapError, match="no width, height or viewBox"):
        bitmaps.size_of('<svg xmlns="http://www.w3.org/2000/svg"></svg>', 1)


def test_the_page_asks_for_its_language_and_screen() -> None:
    try:
        i18n.use("ru")
        i18n.use_screen(1.0)
        assert i18n.picture("/art/rumble/fire.svg") == "/art/rumble/fire.webp"
        assert i18n.card_back() == "/art/card-back.webp"
        assert i18n.icon("hit") == "/art/ui/hit.webp"
        i18n.use("en")
        assert i18n.picture("/art/rumble/fire.svg") == "/art/rumble/fire.en.webp"
        i18n.use_screen(2.625)  # a phone
        assert i18n.picture("/art/rumble/fire.svg") == "/art/rumble/fire.en@2x.webp"
        assert i18n.card_back() == "/art/card-back@2x.webp"
        assert i18n.icon("hit") == "/art/ui/hit@2x.webp"
        i18n.use("ru")
        assert i18n.picture("/art/rumble/fire.svg") == "/art/rumble/fire@2x.webp"
    finally:
        i18n.use("ru")
        i18n.use_screen(1.0)
