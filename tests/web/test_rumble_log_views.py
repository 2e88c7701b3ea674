"""«Схватка»'s log on the page: events said in the page's language, the dice read from the power
roll's event, the end-of-fight banner from the survivor's event."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web.ui import i18n, rumble_views


@pytest.fixture
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("ru")


def view(log: list[Any]) -> dict[str, Any]:
    seats = [
        {"seat": s, "name": name, "kills": s, "survivals": 1 - s}
        for s, name in enumerate(("Ann", "Bob"))
    ]
    return {"seats": seats, "log": log}


POWER = {"e": "power", "seat": 0, "n": 3, "dice": [5, 1, 6], "bonus": 2, "total": 14}
LOG = [
    {"e": "round", "round": 1},
    {"e": "seal", "seat": 1, "count": 2},
    POWER,
    {"e": "hurt", "seat": 1, "amount": 3, "by": 0, "life": 17},
    {"e": "survivor", "seat": 0},
]


def test_the_log_is_said_in_russian_or_english(english: None) -> None:
    assert rumble_views.log_lines(view(LOG)) == [
        "Round 1.",
        "Bob seals 2 cards.",
        "Ann: power roll 3d6: 5+1+6 +2 = 14.",
        "Bob takes 3 damage from Ann: 17 lives left.",
        "The fight is over: the survivor's medal goes to Ann.",
    ]
    i18n.use("ru")
    assert rumble_views.log_lines(view(LOG))[1:3] == [
        "Bob запечатывает 2 карты.",
        "Ann: могучий бросок 3d6: 5+1+6 +2 = 14.",
    ]
    assert len(rumble_views.log_lines(view(LOG * 40))) == rumble_views.LOG_LINES


def test_the_dice_show_the_latest_power_roll_and_its_place() -> None:
    html = rumble_views.dice(LOG)
    faces = "".join(f'<span class="die">{f}</span>' for f in "⚄⚀⚅")
    assert html.count('class="die"') == 3 and faces in html
    assert 'data-roll="2"' in html
    again = rumble_views.dice([*LOG, {**POWER, "dice": [2]}])
    assert 'data-roll="5"' in again and again.count('class="die"') == 1
    assert 'class="die"' not in rumble_views.dice(LOG[:2])


def test_the_fight_banner_follows_the_survivor_event(english: None) -> None:
    banner = rumble_views.fight_banner(view(LOG))
    assert "the survivor&#x27;s medal goes to Ann" in banner and "Bob: ⚔ 1 ★ 0" in banner
    assert rumble_views.fight_banner(view(LOG[:-1])) == ""
    later = [*LOG, {"e": "fight", "fight": 2}, {"e": "round", "round": 1}]
    assert rumble_views.fight_banner(view(later))
    assert rumble_views.fight_banner(view([*later, {"e": "round", "round": 2}])) == ""
