"""The «Невермор» board's pure view functions: draft selection, prompts, summary, escaping."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core import view_schema
from engine.core.local_table import LocalTable
from engine.core.model import Kind
from engine.games.nevermore import NevermoreRules
from engine.games.nevermore.agenda import CHOICES
from engine.games.nevermore.rules import choice_picks
from web.ui import boards, i18n
from web.ui import nevermore_views as nv

CARDS = ["radiance", "radiance", "healing", "attack", "raven"]
ROUND_1 = {"e": "round", "round": 1, "dealer": 0, "dir": 1}


def view(**changes: Any) -> dict[str, Any]:
    """A four-player round-one view for seat 0 in the first pass of the draft."""
    out: dict[str, Any] = {
        "game": "nevermore",
        "names": ["Аня", "Боря", "Вера", "Гоша"],
        "round": 1,
        "dealer": 0,
        "direction": "left",
        "health": [5, 5, 4, 5],
        "max_health": 5,
        "vp": [0, 1, 0, 2],
        "raven": [False, False, False, True],
        "hand_size": [5, 5, 5, 5],
        "magic_size": [1, 1, 1, 1],
        "magic_decks": [["shadow"]] * 4,
        "added": [[], [], [], []],
        "placed": [[], [], [], []],
        "shown": [[], [], [], []],
        "killed": [0, 0, 0, 0],
        "tokens_revealed": [],
        "tokens_planned": ["attack", "healing", "radiance", "victory"],
        "effects": {},
        "winner": None,
        "over": False,
        "result": "",
        "need": {"kind": "simultaneous", "phase": "pass_commit", "seats": [0, 1, 2, 3]},
        "log": [ROUND_1],
        "me": {
            "seat": 0,
            "hand": {
                "4": "radiance",
                "8": "radiance",
                "12": "healing",
                "16": "attack",
                "20": "raven",
            },
            "magic": {"1360": "extinguish"},
            "look": {},
            "sealed": [],
        },
    }
    out.update(changes)
    return out


def pass_moves(hand: list[int], k: int) -> list[dict[str, Any]]:
    from itertools import combinations

    return [
        {"type": "pass", "seat": 0, "secret": {"items": [{"slot": s} for s in combo]}}
        for combo in combinations(hand, k)
    ]


HAND = [4, 8, 12, 16, 20]


def test_draft_selection_confirms_only_a_full_matching_set() -> None:
    moves = pass_moves(HAND, 3)
    html = nv.board(view(), 0, moves, [4])
    assert 'id="pass-confirm"' in html and "disabled>Выберите ещё 2" in html
    # The hand is selectable in the draft; a pick does not open the card pane (no data-card).
    assert 'data-action="pick" data-slot="4" data-suit="radiance"' in html
    assert re.search(r'class="hand-card nm-card selected"[^>]*data-slot="4"', html)
    html = nv.board(view(), 0, moves, [4, 12, 20])
    button = re.search(r'<button[^>]*id="pass-confirm"[^>]*>.*?</button>', html)
    assert button and "disabled" not in button.group(0)
    index = int(re.search(r'data-index="(\d+)"', button.group(0)).group(1))  # type: ignore[union-attr]
    passed = sorted(item["slot"] for item in moves[index]["secret"]["items"])
    assert passed == [4, 12, 20]
    assert "Передать: Сияние, Лечение, Ворон" in button.group(0)  # in hand order
    assert "игроку Боря" in html  # passing left from seat 0
    assert "Передайте 3 карты игроку Боря" in html  # the number agrees with its noun


@pytest.mark.parametrize(("k", "ru", "en"), [(1, "1 карту", "1 card"), (2, "2 карты", "2 cards")])
def test_the_pass_prompt_agrees_with_its_number(k: int, ru: str, en: str) -> None:
    moves = pass_moves(HAND, k)
    assert f"Передайте {ru} игроку" in nv.board(view(), 0, moves, [])
    i18n.use("en")
    try:
        assert f"Pass {en} to" in nv.board(view(), 0, moves, [])
    finally:
        i18n.use("ru")


def test_identical_cards_match_whichever_move_passes_them() -> None:
    # The engine offers one move per distinct set of cards: slot 8 is a Сияние like slot 4.
    moves = [m for m in pass_moves(HAND, 2) if 8 not in [i["slot"] for i in m["secret"]["items"]]]
    html = nv.board(view(), 0, moves, [8, 12])
    assert "Передать: Сияние, Лечение" in html


def test_selection_limit_is_the_pass_size() -> None:
    assert nv.max_selected(view(), pass_moves(HAND, 2)) == 2
    assert nv.max_selected(view(), [{"type": "pass", "seat": 0}]) == 0
    assert boards.board_for("nevermore").max_selected(view(), pass_moves(HAND, 3)) == 3
    assert boards.board_for("rumble").max_selected({}, []) == 3


def test_received_cards_are_marked_until_the_seal() -> None:
    log = [ROUND_1, {"e": "passed", "count": 3}]
    html = nv.board(view(log=log), 0, [], [])
    marked = re.findall(r'class="hand-card nm-card received"[^>]*data-slot="(\d+)"', html)
    assert marked == ["12", "16", "20"]
    assert '<li data-k="deal">Передача по 3 карты.</li>' in html
    assert nv.received_slots(view(log=[*log, {"e": "sealed"}])) == []
    round_2 = {"e": "round", "round": 2, "dealer": 1, "dir": -1}
    assert nv.received_slots(view(log=[*log, round_2])) == []


def test_window_prompt_names_the_window_and_shows_the_card_text() -> None:
    need = {"kind": "move", "phase": "window", "seats": [0], "w": "before_resolution"}
    moves = [{"type": "pass", "seat": 0}, {"type": "play", "seat": 0, "slot": 1360}]
    html = nv.prompt(view(need=need), moves, [])
    assert 'data-phase="window"' in html and 'data-window="before_resolution"' in html
    assert "До начала фазы Раскрытия: сыграть карту магии?" in html
    assert "Сыграть «Потускнение»" in html and "Потускнение. Разыгрывается" in html
    assert 'class="move pass" data-action="move" data-index="0"' in html


def test_raven_form_uses_the_raven_text() -> None:
    need = {"kind": "move", "phase": "window", "seats": [0], "w": "before_draft"}
    me = {**view()["me"], "magic": {"1300": "aid"}}
    moves = [{"type": "pass", "seat": 0}, {"type": "play", "seat": 0, "slot": 1300}]
    human = nv.prompt(view(need=need, me=me), moves, [])
    raven = nv.prompt(view(need=need, me=me, raven=[True, False, False, True]), moves, [])
    assert nv.text_of("aid") in human
    assert nv.text_of("aid", raven=True) in raven and nv.text_of("aid") not in raven


def test_choices_name_players_suits_and_answers() -> None:
    def labels(what: str, picks: list[Any]) -> list[str]:
        need: dict[str, Any] = {"kind": "move", "phase": "choose", "seats": [0], "what": what}
        moves = [{"type": "choose", "seat": 0, "pick": p} for p in picks]
        shared: dict[str, Any] = {
            "seats": [],
            "turn": None,
            "prompt": view_schema.prompt(need, 0, choice_picks(need)),
            "piles": [],
            "over": False,
            "winners": [],
        }
        html = nv.prompt(view(need=need, table=shared), moves, [])
        assert f'data-what="{what}"' in html
        return re.findall(r'data-action="move" data-index="\d+"><span>(.*?)</span>', html)

    assert labels("attack", [1, 2, "all"]) == ["Боря", "Вера", "Всех (по 1 урона, +2 ПО)"]
    for what in ("blooding", "spite", "steal", "betrayed_attack", "nightmare", "acquire"):
        assert labels(what, [1, 3]) == ["Боря", "Гоша"], what
    assert labels("tax", [1360]) == [nv.name_of("extinguish")]
    assert labels("peck", [True, False]) == ["Клюнуть", "Не клевать"]
    assert labels("foretell", ["attack", "healing"]) == ["Атака", "Лечение"]
    assert labels("brilliance", [None, 20]) == ["Ничего", "Ворон"]
    assert labels("scrye", ["none", "hp", "vp"]) == [
        "Не платить",
        "Заплатить 1 здоровьем",
        "Заплатить 1 ПО",
    ]


def test_seal_options_say_what_the_ravens_destroy() -> None:
    need = {"kind": "simultaneous", "phase": "seal", "seats": [0]}
    items = [{"slot": s, "doom": False} for s in HAND]
    doomed = [{"slot": s, "doom": s == 16} for s in HAND]
    moves = [
        {"type": "seal", "seat": 0, "secret": {"items": items}},
        {"type": "seal", "seat": 0, "secret": {"items": doomed}},
    ]
    html = nv.prompt(view(need=need), moves, [])
    assert "Ничего не уничтожать" in html and "Уничтожить: Атака" in html


def test_tokens_and_the_called_suit() -> None:
    shown = [["attack", "attack"], [], ["attack"], []]
    v = view(tokens_revealed=["attack"], tokens_planned=[], shown=shown, killed=[0, 1, 0, 0])
    html = nv.board(v, 0, [], [])
    assert html.count('class="nm-token shown"') == 1 and html.count('class="nm-token hidden"') == 3
    assert 'id="nm-called"' in html and "Названа масть: Атака — Аня ×2, Вера ×1" in html
    assert "уничтожено: 1" in html
    first = nv.tokens(view())  # round one: the fixed order is public
    assert first.count('class="nm-token planned"') == 4


def test_players_show_dealer_raven_health_vp_and_direction() -> None:
    html = nv.board(view(), 0, [], [])
    gosha = re.search(r'<article class="nm-player raven waiting" data-seat="3".*?</article>', html)
    assert gosha and "ворон" in gosha.group(0) and "★ 2 ПО" in gosha.group(0)
    anya = re.search(
        r'<article class="nm-player dealer waiting me" data-seat="0".*?</article>', html
    )
    assert anya and "раздаёт" in anya.group(0) and "передаёт → Боря" in anya.group(0)
    assert "♥ 4/5" in html
    right = nv.board(view(direction="right"), 0, [], [])
    assert "передаёт → Гоша" in right and "передача направо" in right


def test_summary_names_the_winner_and_how() -> None:
    won = {"e": "win_vp", "seat": 2, "vp": 6}
    v = view(over=True, winner=2, result=won, vp=[1, 2, 6, 3])
    v["need"] = {"kind": "terminal", "phase": "over", "seats": []}
    html = nv.board(v, 0, [], [])
    assert 'id="summary"' in html and 'data-winner="2"' in html
    assert "Победа — Вера" in html and "Вера набирает 6 ПО и побеждает!" in html
    assert '<tr class="winner"><td>Вера</td><td>6</td>' in html
    v = view(over=True, winner=None, result={"e": "round_limit", "rounds": 8})
    assert "Победителя нет" in nv.summary(v)
    assert "Предел раундов (8) исчерпан: победителя нет." in nv.summary(v)


def test_names_and_log_lines_are_escaped() -> None:
    names = ["<b>Аня</b>", "Боря & Ко", 'Вера"', "Гоша"]
    v = view(names=names, log=[{"e": "first_dealer", "seat": 0}, "<script>alert(1)</script>"])
    html = nv.board(v, 0, pass_moves(HAND, 3), [])
    assert "<b>Аня</b>" not in html and "&lt;b&gt;Аня&lt;/b&gt; — первый раздающий." in html
    assert "<script>" not in html and "Боря &amp; Ко" in html
    assert 'Вера"' not in html


def test_spectator_sees_no_hand() -> None:
    v = view()
    del v["me"]
    html = nv.board(v, None, [], [])
    assert 'id="hand"' not in html and 'id="prompt"' not in html


def test_registry_lists_the_games_and_their_lobby_options() -> None:
    assert {"rumble", "nevermore", "toy"} <= set(boards.BOARDS)
    assert 'id="table-mode"' in boards.board_for("rumble").settings("ru")
    assert 'id="table-mode"' not in boards.board_for("nevermore").settings("ru")
    fields = {"table-mode": "two_wins", "table-fights": "1", "table-assembly": "20"}
    config = boards.board_for("rumble").config(lambda key: fields.get(key, ""))
    assert config == {"mode": "two_wins", "timers": {"assembly": 20}, "fights": 1}
    assert boards.board_for("nevermore").config(lambda key: "") == {}
    assert boards.board_for("nobody").render is None


def test_every_live_position_renders() -> None:
    """A whole bot game: every seat's board at every decision renders, with a prompt if it moves."""
    rules = NevermoreRules()
    table = LocalTable(rules, {"seats": 4, "names": ["Аня", "Боря", "Вера", "Гоша"]}, seed=3)
    phases: set[str] = set()
    for _ in range(3000):
        decision = table.decision()
        if decision.kind == Kind.TERMINAL:
            break
        if decision.kind not in (Kind.MOVE, Kind.SIMULTANEOUS):
            table.step({})
            continue
        seat = decision.seats[0]
        knowledge = table.knowledge[seat]
        moves = rules.legal_actions(table.state, seat, knowledge)
        html = nv.board(rules.view(table.state, knowledge), seat, moves, [])
        assert ('id="prompt"' in html and 'data-action="move"' in html) or decision.phase in (
            "pass_commit"
        )
        phases.add(decision.phase)
        table.apply(table.public(seat, moves[0], decision.phase))
    final = rules.view(table.state, table.knowledge[0])
    assert final["over"] and 'id="summary"' in nv.board(final, 0, [], [])
    assert {"pass_commit", "seal", "window"} <= phases


def test_lobby_shows_the_chosen_games_own_options() -> None:
    from types import SimpleNamespace

    from web.ui import table_views

    session: Any = SimpleNamespace(hellos={}, hero="", ready=False, players_ready=lambda: True)
    html = table_views.lobby("ru", session, True, "nevermore")
    assert '<option value="nevermore" selected>«Невермор»</option>' in html
    assert 'id="game-settings" class="game-settings" data-game="nevermore"' in html
    assert 'id="table-mode"' not in html and 'id="table-timer"' in html
    assert 'id="heroes"' in html and "Герой для «Схватки»" in html  # everyone may pick one
    rumble = table_views.lobby("ru", session, True, "rumble")
    assert 'id="table-mode"' in rumble and 'data-game="rumble"' in rumble
    assert 'data-game="rumble"' in table_views.lobby("ru", session, True, "no-such-game")
    guest = table_views.lobby("ru", session, False, "nevermore")
    assert 'id="table-form"' not in guest and 'id="table-game"' not in guest


def test_every_window_the_engine_opens_has_a_name() -> None:
    from pathlib import Path

    source = "".join(p.read_text() for p in Path("engine/games/nevermore").glob("*.py"))
    opened = set(re.findall(r'"w": "(\w+)"', source))
    assert {"damaged", "rescue", "attacked"} <= opened
    names = nv.windows()
    assert opened <= set(names), sorted(opened - set(names))
    assert all(names[w] != w for w in opened)


def test_every_choice_the_engine_asks_is_declared_and_has_a_title() -> None:
    """Each ``ask`` of the engine names a choice ``agenda.CHOICES`` declares (so the page knows
    what its options pick), and the page has a question for each, in both languages."""
    from pathlib import Path

    source = "".join(p.read_text() for p in Path("engine/games/nevermore").glob("*.py"))
    asked = set(re.findall(r'\.ask\(\s*g,\s*[\w.]+,\s*"(\w+)"', source))
    assert {"attack", "blooding", "peck", "scrye", "tax"} <= asked
    assert asked == set(CHOICES), sorted(asked ^ set(CHOICES))
    answers = {"flag": ("nm_yes_{}", "nm_no_{}"), "price": ("nm_pay_none",)}
    for what, picks in CHOICES.items():
        keys = [f"nm_choose_{what}", *(key.format(what) for key in answers.get(picks, ()))]
        for key in keys:  # the question, and the words of a yes/no or a price
            for lang in ("ru", "en"):
                assert i18n.tr(key, lang) != key, (key, lang)
