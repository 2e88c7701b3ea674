"""Every card has its own face: one game-icons.net icon per card, never shared within a game."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from engine.catalog import entries_for
from web.assets import choices, faces, icons
from web.assets.compose import Face, svg

GAMES = ("rumble", "nevermore", "circle")
needs_icons = pytest.mark.skipif(not icons.ICONS_JSON.is_file(), reason="npm ci not run")


def shared(pictures: dict[str, str]) -> list[list[str]]:
    """Groups of different cards with the same picture (icon name or SVG text)."""
    by_picture: dict[str, list[str]] = defaultdict(list)
    for card, picture in pictures.items():
        by_picture[picture].append(card)
    return sorted(sorted(cards) for cards in by_picture.values() if len(cards) > 1)


def test_the_check_finds_two_cards_with_one_picture() -> None:
    assert shared({"a": "troll", "b": "troll", "c": "raven"}) == [["a", "b"]]
    assert shared({"a": "troll", "b": "raven"}) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_card_has_an_icon_of_its_own(game: str) -> None:
    ids = {e["id"] for e in entries_for(game)}
    chosen = choices.CARDS[game]
    assert ids == set(chosen), "every catalog card (and nothing else) has an icon"
    assert shared(chosen) == []


@needs_icons
@pytest.mark.parametrize("game", GAMES)
def test_no_two_cards_of_a_game_share_a_picture(game: str) -> None:
    pictures = {cid: svg(face) for cid, face in faces.faces(game).items()}
    assert len(pictures) == len(entries_for(game))
    assert shared(pictures) == []
    for cid, picture in pictures.items():
        root = ET.fromstring(picture)  # well-formed
        assert root.get("viewBox") == "0 0 200 280"
        assert choices.CARDS[game][cid] and icons.body(choices.CARDS[game][cid]) in picture


@needs_icons
def test_a_rumble_face_shows_name_school_slot_and_initiative() -> None:
    face = faces.faces("rumble")["d_thicket_troll"]
    assert face.name == "Лесной Тролль" and face.icon == "troll" and face.number == "2"
    assert face.corner == choices.SLOT_SIGNS["delivery"]
    assert face.signs == (choices.SCHOOL_SIGNS["thicket"],)
    assert choices.MARKS["creature"] in face.marks
    picture = svg(face)
    assert "Лесной" in picture and "Тролль" in picture and ">2</text>" in picture
    assert "#3d8b3d" in picture  # the school's colour
    assert ">Forest Troll</text>" in picture and ">delivery · Thicket</text>" in picture
    assert '<g id="en">' in picture and "#en:target" in picture  # card.svg#en shows English


@needs_icons
@pytest.mark.parametrize("game", GAMES)
def test_every_face_carries_an_english_name(game: str) -> None:
    for cid, face in faces.faces(game).items():
        assert face.name_en and not re.search("[А-Яа-яЁё]", face.name_en + face.label_en), cid


@needs_icons
def test_only_the_icons_used_are_inlined() -> None:
    face = Face(name="Проба", icon="troll", colour="#336699")
    picture = svg(face)
    assert icons.body("troll") in picture
    assert len(picture) < 12_000  # one icon, not the set


def test_an_unknown_icon_is_a_clear_error() -> None:
    if not icons.ICONS_JSON.is_file():
        pytest.skip("npm ci not run")
    with pytest.raises(icons.IconError, match="no-such-icon"):
        icons.body("no-such-icon")


@needs_icons
def test_the_build_writes_every_face_and_piece(tmp_path: Path) -> None:
    written = faces.write_faces(tmp_path)
    for game in GAMES:
        for entry in entries_for(game):
            assert (tmp_path / game / f"{entry['id']}.svg").is_file()
    assert (tmp_path / "ui" / "ghost.svg").is_file()
    assert (tmp_path / "nevermore" / "token_attack.svg").is_file()
    assert written == sum(1 for p in tmp_path.rglob("*.svg"))


PATH_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def path_numbers(svg_body: str) -> list[float]:
    """Every number of every path of an SVG body, read as an SVG parser reads them."""
    paths = re.findall(r' d="([^"]*)"', svg_body)
    return [float(n) for d in paths for n in PATH_NUMBER.findall(d)]


@needs_icons
@pytest.mark.parametrize("icon", ["rolling-dices", "wolf-head", "raven", "castle", "virus"])
def test_shortened_icon_paths_keep_every_number(icon: str) -> None:
    """The build shortens path numbers to tenths; each number must stay its own number
    (e.g. "l.004-.002" must not become "l00", nor "1.04.5" become "1.5")."""
    raw = str(icons.icon_set()["icons"][icon]["body"])  # type: ignore[index]
    short = icons.body(icon)
    before, after = path_numbers(raw), path_numbers(short)
    assert len(after) == len(before)
    assert max(abs(a - b) for a, b in zip(before, after, strict=True)) <= 0.05 + 1e-9


@needs_icons
def test_every_icon_of_the_set_keeps_every_number() -> None:
    bodies = icons.icon_set()["icons"]
    assert isinstance(bodies, dict)
    for name, icon in bodies.items():
        before, after = path_numbers(icon["body"]), path_numbers(icons.body(name))
        assert len(after) == len(before), name
        assert all(abs(a - b) <= 0.05 + 1e-9 for a, b in zip(before, after, strict=True)), name
