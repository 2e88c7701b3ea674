"""The log's small pictures: every event kind of each game has a category,
every category a game-icons picture the build writes and a rule in style.css, and a log line
carries its category beside its escaped sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from web.assets.log_art import write_log_art
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


def test_the_build_writes_one_picture_per_category(tmp_path: Path) -> None:
    written = write_log_art(tmp_path)
    assert sorted(p.stem for p in written) == sorted(log_icons.ICONS)
    bodies = set()
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("<svg") and "<path" in text, path
        bodies.add(text)
    assert len(bodies) == len(written), "two categories share a picture"


def test_style_draws_every_category_and_no_other() -> None:
    css = (ROOT / "web" / "static" / "style.css").read_text(encoding="utf-8")
    drawn = dict(
        re.findall(r'li\[data-k="(\w+)"\] \{ --log-icon: url\(/art/ui/log/(\w+)\.svg\)', css)
    )
    assert drawn == {name: name for name in log_icons.ICONS}


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
