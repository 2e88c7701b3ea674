"""The log's small pictures: every event kind of each game has a category,
every category a glyph of the icon font the build writes (drawn from its game-icons picture) and
a rule in style.css, and a log line carries its category beside its escaped sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont

from web.assets import log_art
from web.ui import log_icons, log_view, rumble_views
from web.ui.phrases import circle, nevermore, rumble

ROOT = Path(__file__).resolve().parents[2]
PHRASES = {"rumble": rumble.RU, "circle": circle.RU, "nevermore": nevermore.RU}


@pytest.mark.parametrize("game", sorted(PHRASES))
def test_every_event_kind_has_a_picture_and_only_real_kinds_are_named(game: str) -> None:
    kinds = set(PHRASES[game])  # the phrase tests check every logged kind has a phrase
    named = set(log_icons.KINDS[game])
    assert kinds - named == set(), "kinds with no picture"
    assert named - kinds == set(), "pictures for kinds the game does not log"
    assert set(log_icons.KINDS[game].values()) <= set(log_icons.ICONS)


def test_the_build_writes_one_glyph_per_category_at_its_code_point(tmp_path: Path) -> None:
    path = log_art.write_log_font(tmp_path)
    font = TTFont(str(path))
    assert font.flavor == "woff2"
    assert font["name"].getDebugName(1) == log_art.FAMILY
    cmap = font.getBestCmap()
    assert {chr(point): glyph for point, glyph in cmap.items()} == {
        log_icons.GLYPHS[name]: name for name in log_icons.ICONS
    }
    glyphs = font.getGlyphSet()
    drawings = set()
    for name in log_icons.ICONS:
        pen = RecordingPen()
        glyphs[name].draw(pen)
        assert len(pen.value) > 4, f"{name} has no picture"
        assert glyphs[name].width == log_art.EM
        drawings.add(repr(pen.value))
    assert len(drawings) == len(log_icons.ICONS), "two categories share a picture"


def test_every_glyph_stands_in_the_em_box_from_below_the_baseline(tmp_path: Path) -> None:
    font = TTFont(str(log_art.write_log_font(tmp_path)))
    cff = font["CFF "].cff.topDictIndex[0].CharStrings
    for name in log_icons.ICONS:
        left, bottom, right, top = cff[name].calcBounds(cff)
        assert 0 <= left < right <= log_art.EM, name
        assert -log_art.BELOW <= bottom < top <= log_art.EM - log_art.BELOW, name


def test_the_font_is_the_same_bytes_from_the_same_sources(tmp_path: Path) -> None:
    first = log_art.write_log_font(tmp_path / "a").read_bytes()
    assert log_art.write_log_font(tmp_path / "b").read_bytes() == first


def test_an_icon_body_with_more_than_paths_is_refused() -> None:
    with pytest.raises(ValueError, match="more than paths"):
        log_art.outlines('<path d="M0 0h1v1z"/><circle r="3"/>')
    assert log_art.outlines('<path fill="currentColor" d="M0 0h1v1z"/>') == ["M0 0h1v1z"]


def test_style_draws_every_category_and_no_other() -> None:
    css = (ROOT / "web" / "static" / "style.css").read_text(encoding="utf-8")
    drawn = dict(re.findall(r'li\[data-k="(\w+)"\] \{ --log-glyph: "\\([0-9a-f]+)";', css))
    assert drawn == {name: f"{ord(glyph):x}" for name, glyph in log_icons.GLYPHS.items()}
    assert 'font-family: "Log icons"' in css and f"/fonts/{log_art.FILE}" in css


def test_a_line_carries_its_category_and_an_escaped_sentence() -> None:
    hurt = {"e": "hurt", "seat": 1, "amount": 3, "by": 0, "life": 17}
    assert log_icons.line("rumble", hurt, "<b>") == '<li data-k="hurt">&lt;b&gt;</li>'
    assert log_icons.category("rumble", "an old sentence") == "info"
    assert log_icons.category("rumble", {"e": "no-such-kind"}) == "info"
    assert log_icons.category("circle", {"e": "gust"}) == "wind"


def test_the_lines_of_a_rumble_log_carry_their_pictures() -> None:
    seats = [
        {"seat": s, "name": n, "kills": 0, "survivals": 0, "life": 20} for s, n in enumerate("AB")
    ]
    log = [{"e": "round", "round": 1}, {"e": "dies", "seat": 1}, "a sentence"]
    names = [str(s["name"]) for s in seats]
    items = log_view.items("rumble", log, "ru", names, rumble_views.LOG_LINES)
    assert re.findall(r'data-k="(\w+)"', items) == ["round", "death", "info"]
