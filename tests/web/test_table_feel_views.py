"""The table's feel in pure Python: moments read from two views, the hand's texts, the spell
composing while sealed, English cards and pages, the audit verdict and errors in words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.catalog import entries_for
from web.ui import catalog_en, i18n, pages, rumble_en, rumble_views, table_views, views
from web.ui.moments import Moment, moments

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@pytest.fixture
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("ru")


def seat(n: int, **fields: Any) -> dict[str, Any]:
    base = {"seat": n, "name": f"P{n}", "life": 20, "alive": True, "creatures": [], "spell": []}
    return {**base, "spell_name": None, **fields}


def rumble_view(*seats: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"game": "rumble", "fight": 1, "palace": None, "seats": list(seats), **fields}


def test_the_first_view_and_an_unchanged_view_show_nothing() -> None:
    view = rumble_view(seat(0), seat(1))
    assert moments("rumble", None, view) == []
    assert moments("rumble", view, view) == []


def test_rumble_moments_reveal_hit_heal_absorb_death_and_palace() -> None:
    before = rumble_view(seat(0, creatures=["d_thicket_troll"]), seat(1), seat(2, life=3))
    after = rumble_view(
        seat(0, spell_name="Колючий Лесной Тролль", spell=["q_thicket_thorny", "d_thicket_troll"]),
        seat(1, life=17),
        seat(2, life=0, alive=False),
        palace=0,
    )
    after["seats"][0]["life"] = 22
    found = moments("rumble", before, after)
    assert (
        Moment(
            "reveal",
            0,
            words="Колючий Лесной Тролль",
            cards=("q_thicket_thorny", "d_thicket_troll"),
        )
        in found
    )
    assert Moment("heal", 0, 2) in found and Moment("hit", 1, 3) in found
    assert Moment("death", 2) in found and Moment("hit", 2, 3) in found
    assert Moment("palace", 0, origin=None) in found
    absorbed = rumble_view(seat(0), seat(1))
    assert Moment("absorb", 0) in moments("rumble", before, absorbed)


def test_a_new_fight_is_not_a_heal() -> None:
    before = rumble_view(seat(0, life=2))
    after = rumble_view(seat(0, life=25), fight=2)
    assert moments("rumble", before, after) == []


def test_circle_moments_fly_power_hit_and_dispel() -> None:
    seats = [{"seat": s, "life": 5, "alive": True} for s in range(3)]
    spell = {"card": "snowball", "target": 1, "previous": 0, "power": 1, "step": 0, "name": "КОМ"}
    before = {"seats": seats, "spell": spell}
    moved = {"seats": seats, "spell": {**spell, "target": 2, "previous": 1, "power": 2, "step": 1}}
    found = moments("circle", before, moved)
    assert Moment("fly", 2, 2, "КОМ", ("snowball",), 1) in found
    assert Moment("power", 2, 1) in found
    gone = {"seats": seats, "spell": None}
    assert moments("circle", before, gone) == [Moment("dispel", 1)]
    hit = {"seats": [seats[0], {**seats[1], "life": 4}, seats[2]], "spell": None}
    assert moments("circle", before, hit) == [Moment("hit", 1, 1)]


def test_nevermore_moments_pass_called_damage_vp_and_raven() -> None:
    base = {"round": 1, "names": ["A", "B"], "health": [5, 5], "vp": [0, 0], "raven": [0, 0]}
    before = {**base, "tokens_revealed": [], "me": {"seat": 0, "hand": {"1": "attack"}}}
    after = {
        **base,
        "tokens_revealed": ["attack"],
        "health": [5, 0],
        "vp": [2, 0],
        "raven": [0, 1],
        "me": {"seat": 0, "hand": {"1": "attack", "7": "raven"}},
    }
    found = moments("nevermore", before, after)
    assert Moment("pass", 0, origin=1) in found and Moment("called", words="attack") in found
    assert Moment("hit", 1, 5) in found and Moment("vp", 0, 2) in found
    assert Moment("raven", 1) in found


def test_the_hand_shows_each_cards_text_and_the_spell_composes() -> None:
    view = {
        "hand": [
            {"slot": 1, "card": "q_spark_sparkling"},
            {"slot": 2, "card": "d_spark_thunderbolt"},
            {"slot": 3, "card": "src_spark_lord"},
            {"slot": 4, "card": "wild"},
        ]
    }
    hand = rumble_views.hand(view, [1], True)
    assert rumble_views.text_of("q_spark_sparkling") in hand and 'class="card-text"' in hand
    assert "empty" in rumble_views.building(view, [])
    assert "«Искрящееся Заклинание»" in rumble_views.building(view, [1])
    full = rumble_views.building(view, [3, 1, 2])
    assert "«Искрящийся Громовой Разряд от Лорда Искр»" in full
    assert "шальная магия" in rumble_views.building(view, [2, 4])


def test_in_english_the_spell_reads_in_english_word_order(english: None) -> None:
    view = {
        "hand": [
            {"slot": 1, "card": "q_spark_sparkling"},
            {"slot": 2, "card": "d_spark_thunderbolt"},
            {"slot": 3, "card": "src_storm_aunt"},
        ]
    }
    assert "«Sparkling Thunderbolt of Auntie Thunder»" in rumble_views.building(view, [1, 2, 3])
    assert rumble_en.spell_name(["src_spark_lord"]) == "Spell of the Spark Lord"
    prompt_view = {"waiting": {"phase": "assembly"}, "hand": view["hand"], "seats": []}
    seal = {"type": "seal", "seat": 0, "secret": {"items": [{"slot": 2, "as": "delivery"}]}}
    html = rumble_views.prompt(prompt_view, [seal], [2], [])
    assert "Seal: delivery: Thunderbolt" in html and not CYRILLIC.search(html)


def test_every_rumble_card_has_an_english_name_and_text() -> None:
    for entry in entries_for("rumble"):
        for words in (rumble_en.name(entry["id"]), rumble_en.text(entry["id"])):
            assert words and not CYRILLIC.search(words.replace("«", "").replace("»", "")), entry[
                "id"
            ]


@pytest.mark.parametrize("game", ["rumble", "circle", "nevermore"])
def test_the_english_catalog_has_no_russian_names(game: str, english: None) -> None:
    for entry in entries_for(game):
        translated = catalog_en.english(game, entry)
        assert not CYRILLIC.search(str(translated["name"])), entry["id"]
        assert not CYRILLIC.search(str(translated["text"])), entry["id"]
    html = pages.catalog(game)
    assert "game-icons.net" in html and "CC BY 3.0" in html and "Catalog of" in html


def test_the_catalog_credits_the_icons_in_russian_too() -> None:
    html = pages.catalog("nevermore")
    assert "game-icons.net" in html and "лицензия" in html


@pytest.mark.parametrize("game", ["rumble", "circle", "nevermore"])
def test_the_rules_pages_are_english_in_english(game: str, english: None) -> None:
    html = pages.rules(game)
    assert "Rules of" in html and not CYRILLIC.search(html)


@dataclass
class FakeHello:
    name: str


@dataclass
class FakeMember:
    peer: str
    seat: int | None


@dataclass
class FakeTable:
    roster: list[FakeMember]


@dataclass
class FakePeer:
    table: FakeTable


@dataclass
class FakeSession:
    hellos: dict[str, FakeHello]
    tids: dict[str, str] = field(default_factory=dict)
    peer: FakePeer | None = None


def fake_session() -> Any:
    tid = "a3f9c2d1e4b5a6f7"
    roster = [FakeMember(tid, 0), FakeMember("b" * 16, 1)]
    hellos = {tid: FakeHello("Аня"), "b" * 16: FakeHello("Боря")}
    return FakeSession(hellos, {"link-1": tid}, FakePeer(FakeTable(roster)))


def test_the_audit_verdict_is_words_never_json() -> None:
    session = fake_session()
    ok = table_views.verdict("ru", session, {"ok": True, "blame": {}})
    assert ok == "Проверка пройдена: все играли честно." and "{" not in ok
    bad = table_views.verdict(
        "ru", session, {"ok": False, "blame": {1: "bad opening 0123456789abcdef"}}
    )
    assert "Боря" in bad and "0123456789abcdef" not in bad and "{" not in bad
    assert "Audit failed" in table_views.verdict("en", session, {"ok": False, "blame": {0: ""}})


def test_errors_name_players_instead_of_ids() -> None:
    text = table_views.friendly_error(
        "ru", fake_session(), "a3f9c2d1e4b5a6f7: malformed table-hello"
    )
    assert "Аня" in text and "a3f9c2d1e4b5a6f7" not in text and text.startswith("Не принято")


def test_a_game_without_a_board_shows_words_not_json() -> None:
    html = table_views.plain({"round": 2, "hand": [1, None], "done": False, "seats": [{"life": 3}]})
    assert "{" not in html and '"' not in html.replace('class="plain"', "")
    assert "нет" in html and "—" in html
    label = views.describe({"type": "keep", "seat": 0, "card": "c3", "open": [{"index": 0}]})
    assert label == "keep: card c3, open index 0" and "{" not in label


def test_the_sound_control_shows_the_volume() -> None:
    html = views.sound_control("ru", 0.4)
    assert 'value="0.40"' in html and 'aria-pressed="false"' in html and "Громкость" in html
    assert 'aria-pressed="true"' in views.sound_control("en", 0.0)


def test_the_lobby_names_games_and_modes_in_english() -> None:
    from web.ui import boards

    assert boards.game_name("circle", "en") == "«Magic Circle»"
    assert boards.game_name("circle", "ru") == "«Волшебный круг»"
    assert "Best of two wins" in boards.rumble_settings("en")
    assert "До двух побед" in boards.rumble_settings("ru")


def test_card_pictures_are_bitmaps_in_the_page_language(english: None) -> None:
    assert rumble_views.art("d_thicket_troll") == "/art/rumble/d_thicket_troll.en.webp"
    i18n.use("ru")
    assert rumble_views.art("d_thicket_troll") == "/art/rumble/d_thicket_troll.webp"
