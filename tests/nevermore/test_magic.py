"""Every Light and Shadow magic card, in its timing window (seed «Карты магии Света/Тени»)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.games.nevermore.cards import load_catalog
from engine.games.nevermore.flow import Flow
from engine.games.nevermore.state import new_state

from .helpers import data, lines, logged, play, player

A, H, R, V, X = "attack", "healing", "radiance", "victory", "raven"
N1 = [R, R, V, H, H]
N2 = [R, V, V, H, R]


def three(
    hand0: list[str],
    magic0: list[str],
    *,
    h1: list[str] = N1,
    h2: list[str] = N2,
    m1: list[str] | None = None,
    m2: list[str] | None = None,
    **p0: Any,
) -> list[Any]:
    return [
        player("А", hand0, magic=magic0, **p0),
        player("Б", h1, magic=m1 or []),
        player("В", h2, magic=m2 or []),
    ]


def go(players: list[Any], *moves: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return play(players, list(moves), **kw)


@pytest.mark.parametrize(
    ("cid", "suit", "line"),
    [
        ("add_healing", H, "Лечение: А 3"),
        ("add_radiance", R, "Сияние: А 3"),
        ("add_victory", V, "Победа: А 3"),
        ("add_attack", A, "Атака: А 1"),
    ],
)
def test_suit_cards_add_one_card_of_their_suit(cid: str, suit: str, line: str) -> None:
    hands = {H: [H, H, V, V, R], R: [R, R, V, V, H], V: [V, V, H, H, R], A: [H, H, V, R, R]}
    moves = [{"seat": 0, "play": cid}]
    if suit == A:
        moves.append({"seat": 0, "phase": "choose", "pick": 1})
    out = go(three(hands[suit], [cid]), *moves)
    assert logged(out, line)


def test_add_raven_to_another_players_hand() -> None:
    out = go(
        three([R, R, V, V, H], ["add_raven"], h1=[H, H, V, R, R]),
        {"seat": 0, "play": "add_raven"},
        {"seat": 0, "phase": "choose", "pick": 1},
        {"seat": 1, "doom": [H]},
    )
    assert logged(out, "добавляет Ворона к картам Б")
    assert logged(out, "Лечение: А 1, Б 1, В 1")


def test_aid_gains_health_and_reveals_the_tokens() -> None:
    out = go(three(N1, ["aid"], health=3), {"seat": 0, "play": "aid"})
    assert logged(out, "Жетоны Раскрытия: Атака, Лечение, Сияние, Победа.")
    assert logged(out, "А восстанавливает 1 очко здоровья (4).")


def test_aid_as_a_raven_forbids_healing() -> None:
    out = go(three(N1, ["aid"], raven=True, h1=[H, H, H, R, V], m1=[]), {"seat": 0, "play": "aid"})
    assert logged(out, "никто не получает здоровье")
    assert not logged(out, "Б восстанавливает")


def _attacked(
    magic0: list[str], *moves: dict[str, Any], m2: list[str] | None = None, **p0: Any
) -> dict[str, Any]:
    return go(
        three([R, R, V, V, H], magic0, h1=[A, A, V, H, R], m2=m2, **p0),
        {"seat": 1, "phase": "choose", "pick": 0},
        *moves,
    )


def test_bolster_turns_an_attack_into_healing() -> None:
    out = _attacked(["bolster"], {"seat": 0, "play": "bolster"}, health=2)
    assert logged(out, "Усиление")
    assert out["health"][0] >= 4


def test_bolster_as_a_raven_forbids_attacks() -> None:
    out = go(
        three([R, R, V, V, H], ["bolster"], raven=True, h1=[A, A, V, H, R]),
        {"seat": 0, "play": "bolster"},
    )
    assert logged(out, "никто не может атаковать")
    assert not logged(out, "атакует")


def test_brilliance_discards_a_raven() -> None:
    out = go(three([X, H, H, V, R], ["brilliance"]), {"seat": 0, "play": "brilliance"})
    assert logged(out, "А сбрасывает Ворона без эффекта.")
    assert logged(out, "Лечение: А 2")


def test_empower_draws_a_main_card() -> None:
    out = go(three([V, H, R, R, A], ["empower"]), {"seat": 0, "play": "empower"}, main_top=[V])
    assert logged(out, "Победа: А 2")


@pytest.mark.parametrize("raven", [False, True])
def test_foretell(raven: bool) -> None:
    out = go(
        three([A, H, R, V, X], ["foretell"], raven=raven),
        {"seat": 0, "play": "foretell"},
        {"seat": 0, "phase": "choose", "pick": "attack"},
        {"seat": 0, "doom": [R]},
    )
    assert logged(out, "Предсказание А сбылось.")
    if raven:
        assert logged(out, "А возвращает истинное обличие")
    else:
        assert out["vp"][0] >= 1
        assert len(out["magic"][0]) >= 1


def test_fortune_discards_two_and_draws_two() -> None:
    out = go(
        three([X, X, H, R, A], ["fortune"]),
        {"seat": 0, "play": "fortune"},
        {"seat": 0, "phase": "choose", "pick": "raven"},
        {"seat": 0, "phase": "choose", "pick": "raven"},
        main_top=[V, V],
    )
    assert logged(out, "Победа: А 2")


def test_freeze_skips_the_draft() -> None:
    out = go(three(N1, ["freeze"]), {"seat": 0, "play": "freeze"}, draft=True)
    assert logged(out, "Заморозка")
    assert not logged(out, "Передача")


def test_heal_any_time() -> None:
    out = go(three(N2, ["heal"], health=2), {"seat": 0, "play": "heal"})
    assert logged(out, "А восстанавливает 2 очка здоровья (4).")


def test_heal_saves_from_a_lethal_attack() -> None:
    out = _attacked(["heal"], {"seat": 0, "window": "rescue", "play": "heal"}, health=2)
    assert logged(out, "исцеляется на 2")
    assert not out["raven"][0]


def test_heal_as_a_raven_cancels_a_light_card() -> None:
    out = go(
        three(N1, ["heal"], raven=True, h1=[V, H, H, R, R], m1=["add_victory"]),
        {"seat": 1, "play": "add_victory"},
        {"seat": 0, "play": "heal"},
    )
    assert logged(out, "Эффект «Победа» отменён.")


def test_illuminate_discards_every_raven() -> None:
    out = go(three([X, X, H, H, H], ["illuminate"]), {"seat": 0, "play": "illuminate"})
    assert logged(out, "Лечение: А 3")


def test_justice_reap_and_entrap_move_hands() -> None:
    hand = [A, A, A, V, H]
    out = go(three(hand, ["justice"]), {"seat": 0, "play": "justice"})
    assert logged(out, "Атака: В 3")
    out = go(three(hand, ["reap"]), {"seat": 0, "play": "reap"})
    assert logged(out, "Атака: Б 3")
    out = go(three(hand, ["entrap"]), {"seat": 0, "play": "entrap"})
    assert logged(out, "Атака: В 3")


def test_passthrough_skips_one_pass() -> None:
    g = new_state(4, ["a", "b", "c", "d"], 2)
    g["hand"] = [[0, 1], [2, 3], [4, 5], [6, 7]]
    g["through"] = [1]
    Flow(load_catalog()).done_pass_open(g, {"0": [0], "2": [4], "3": [6]}, {"count": 1})
    assert g["hand"][1] == [2, 3]
    assert g["hand"][2] == [5, 0]
    assert g["hand"][3] == [7, 4]
    assert g["hand"][0] == [1, 6]
    out = go(three(N1, ["passthrough"]), {"seat": 0, "play": "passthrough"}, draft=True)
    assert logged(out, "разыгрывает «Сквозной ход»")


def test_penance_damages_skulking_ravens() -> None:
    out = go(
        three(N1, ["penance"], h1=[X, X, X, X, H]),
        {"seat": 0, "play": "penance"},
    )
    assert logged(out, "Б получает 3 повреждения (Кара)")


def test_punish_ravens_kill_whole_suits() -> None:
    out = go(
        three(N1, ["punish"], h1=[H, H, X, V, R]),
        {"seat": 0, "play": "punish"},
        {"seat": 1, "doom": [H, H]},
    )
    assert logged(out, "Лечение: А 2, В 1")


def test_punish_as_a_raven_skulkers_gain_nothing() -> None:
    out = go(three(N1, ["punish"], raven=True, h1=[X, X, X, X, H]), {"seat": 0, "play": "punish"})
    assert logged(out, "Скрытые вороны не приносят")
    assert out["magic"][1] == []


@pytest.mark.parametrize("raven", [False, True])
def test_renew(raven: bool) -> None:
    out = go(
        three([X, V, H, R, R], ["renew"], raven=raven, health=3),
        {"seat": 0, "play": "renew"},
        {"seat": 0, "phase": "choose", "pick": "raven"},
        main_top=[V, V],
    )
    assert logged(out, "Победа: А 3" if raven else "Победа: А 2")
    if not raven:
        assert logged(out, "А восстанавливает 1 очко здоровья (4).")


def test_acquire_steals_a_random_card() -> None:
    out = go(
        three([R, R, H, H, X], ["acquire"], h1=[V, V, V, V, V]),
        {"seat": 0, "play": "acquire"},
        {"seat": 0, "phase": "choose", "pick": 1},
        {"seat": 0, "doom": [H]},
    )
    assert logged(out, "А забирает случайную карту у Б.")
    assert logged(out, "Победа: А 1, Б 4")


def test_betrayal_attack_heals() -> None:
    out = _attacked(["betrayal"], {"seat": 0, "play": "betrayal"}, health=2)
    assert logged(out, "Атака обращена")
    assert out["health"][0] >= 3


def test_blooding_adds_one_damage() -> None:
    out = _attacked([], {"seat": 2, "play": "blooding"}, m2=["blooding"])
    assert logged(out, "А получает 3 повреждения (атака)")


@pytest.mark.parametrize(
    ("cid", "suit", "word"),
    [("dominate", V, "Победа"), ("enrage", A, "Атака"), ("syphon", H, "Лечение")],
)
def test_steal_a_revealed_card(cid: str, suit: str, word: str) -> None:
    out = go(
        three([R, R, V, H, X], [cid], h1=[suit, suit, R, R, R]),
        {"seat": 0, "play": cid},
        {"seat": 0, "phase": "choose", "pick": 1},
        {"seat": 0, "doom": [H] if suit != H else [V]},
    )
    assert logged(out, f"А забирает карту «{word}» у Б.")


def test_drain_takes_health_from_the_healthiest() -> None:
    out = go(
        three([H, H, R, V, V], ["drain"], health=3, h1=[R, R, V, A, R], h2=[R, V, R, V, R]),
        {"seat": 0, "play": "drain"},
        {"seat": 1, "phase": "choose", "pick": 2},
    )
    assert logged(out, "(Иссушение)")


def test_entomb_blocks_light_cards_next_round() -> None:
    out = go(three(N1, ["entomb"]), {"seat": 0, "play": "entomb"})
    assert logged(out, "Карты магии Света нельзя разыгрывать в следующем раунде.")


@pytest.mark.parametrize(
    ("cid", "line"), [("extinguish", "Сияние: ни у кого"), ("impair", "Лечение: ни у кого")]
)
def test_discard_a_suit_for_everyone(cid: str, line: str) -> None:
    out = go(three(N1, [cid]), {"seat": 0, "play": cid})
    assert logged(out, line)


def test_gambit_single_pass_of_two() -> None:
    out = go(three(N1, ["gambit"]), {"seat": 0, "play": "gambit"}, draft=True)
    passes = [line for line in lines(out) if line.startswith("Передача")]
    assert passes == ["Передача по 2 карты."]


def test_nightmare() -> None:
    out = go(
        three(N1, ["nightmare"], h1=[A, A, A, A, A]),
        {"seat": 0, "play": "nightmare"},
        {"seat": 0, "phase": "choose", "pick": 1},
        main_top=[V, V, V],
    )
    assert logged(out, "Б сбрасывает свои карты")
    assert logged(out, "Б забирает случайную карту у В.")
    assert logged(out, "Б берёт 3 карты из основной колоды.")


def test_retribution() -> None:
    out = _attacked(["retribution"], {"seat": 0, "play": "retribution"})
    assert logged(out, "Б получает 2 повреждения (Возмездие)")


def test_retribution_as_a_raven() -> None:
    out = go(
        [
            player("А", [R, R, V, V, H]),
            player("Б", [A, A, V, H, R]),
            player("В", N2, magic=["retribution"], raven=True),
        ],
        {"seat": 1, "phase": "choose", "pick": 0},
        {"seat": 2, "play": "retribution"},
    )
    assert logged(out, "Б получает 2 повреждения (Возмездие)")


def test_scrye_pays_and_sets_the_token_order() -> None:
    order = ["victory", "radiance", "healing", "attack"]
    out = go(
        three(N1, ["scrye"]),
        {"seat": 0, "play": "scrye"},
        {"seat": 0, "phase": "choose", "pick": "hp"},
        {"seat": 0, "doom": [], "order": order},
    )
    called = [e["suit"] for e in out["log"] if e["e"] == "token"]
    assert called == ["victory", "radiance", "healing", "attack"]
    assert logged(out, "тайно задаёт порядок")


@pytest.mark.parametrize("raven", [False, True])
def test_spite(raven: bool) -> None:
    moves: list[dict[str, Any]] = [{"seat": 0, "play": "spite"}]
    if not raven:
        moves.append({"seat": 0, "phase": "choose", "pick": 1})
    out = go(three(N1, ["spite"], vp=1, raven=raven), *moves)
    if raven:
        assert logged(out, "Б получает 1 повреждение (Злоба)")
        assert logged(out, "В получает 1 повреждение (Злоба)")
    else:
        assert logged(out, "А теряет 1 ПО (Злоба)")
        assert logged(out, "Б получает 2 повреждения (Злоба)")


@pytest.mark.parametrize("raven", [False, True])
def test_summon(raven: bool) -> None:
    moves: list[dict[str, Any]] = [{"seat": 0, "play": "summon"}]
    if not raven:
        moves.append({"seat": 0, "phase": "choose", "pick": "victory"})
    out = go(three([V, R, R, H, H], ["summon"], raven=raven), *moves, main_top=[V, A, A])
    if raven:
        assert logged(out, "Победа: А 2")
        assert logged(out, "Атака: А 1")
    else:
        assert logged(out, "А получает 1 повреждение (Призыв)")
        assert logged(out, "Победа: А 2")


def test_darkening_ravens_do_not_destroy() -> None:
    out = go(three([X, X, H, H, H], ["darkening"]), {"seat": 0, "play": "darkening"})
    assert logged(out, "Лечение: А 3")
    assert logged(out, "Скрытые вороны: А 2")


def test_tax_takes_one_light_card() -> None:
    out = go(three(N2, ["tax"], h1=[R, R, R, R, V]), {"seat": 0, "play": "tax"})
    assert logged(out, "(Дань)")
    assert len(out["magic"][0]) == 1


def test_waning_light_hurts_the_radiance_winner() -> None:
    out = go(three(N2, ["waning_light"], h1=[R, R, R, R, V]), {"seat": 0, "play": "waning_light"})
    assert logged(out, "Б получает 2 повреждения (Тусклый свет)")


def test_withering_hits_all_opponents() -> None:
    out = go(three(N1, ["withering"]), {"seat": 0, "play": "withering"})
    assert logged(out, "Б получает 1 повреждение (Увядание)")
    assert logged(out, "В получает 1 повреждение (Увядание)")


def test_every_magic_card_has_a_test() -> None:
    text = Path(__file__).read_text(encoding="utf-8")
    for cid in load_catalog().magic:
        assert f'"{cid}"' in text, cid


def test_waning_light_hurts_only_the_player_with_the_most_radiance() -> None:
    out = play(
        [
            player("А", [A, H, H, V, V], magic=["waning_light"]),
            player("Б", [A, A, H, V, V], magic=["foretell"]),
            player("В", [R, R, H, V, A]),
        ],
        [
            {"seat": 0, "play": "waning_light"},
            {"seat": 1, "play": "foretell"},
            {"seat": 1, "phase": "choose", "pick": "attack"},
        ],
    )
    assert logged(out, "Предсказание Б сбылось")
    assert out["health"][1] == 5  # Б drew a Light card by «Предсказание», not by Radiance
    assert out["health"][2] == 5 - 2  # В leads Radiance 2 to 0: two Light cards, two damage


def test_a_suit_card_can_be_added_before_any_resolution_turn() -> None:
    out = play(
        [
            player("А", [H, R, R, V, V], magic=["add_healing"]),
            player("Б", [H, H, A, V, R]),
            player("В", [R, A, A, V, V]),
        ],
        [{"seat": 0, "play": "add_healing", "window": "before_token"}],
    )
    assert logged(out, "А добавляет к картам «Лечение»")
    assert logged(out, "Лечение: А 2, Б 2.")


def test_an_added_suit_card_counts_toward_a_ravens_return() -> None:
    out = play(
        [
            player("Ворон", [A, H, R, X, X], raven=True, magic=["add_victory"]),
            player("Б", [R, R, V, V, R]),
            player("В", [R, V, V, R, V]),
        ],
        [{"seat": 0, "play": "add_victory"}],
    )
    assert logged(out, "Ворон добавляет к картам «Победа»")
    assert not out["raven"][0] and out["health"][0] == 4


def test_blooding_adds_one_to_spite_damage() -> None:
    out = play(
        [
            player("А", [R, R, V, V, H], magic=["spite"], vp=1),
            player("Б", [A, H, V, H, R], magic=["blooding"]),
            player("В", [R, V, H, A, R]),
        ],
        [
            {"seat": 0, "play": "spite"},
            {"seat": 0, "phase": "choose", "pick": 2},
            {"seat": 1, "play": "blooding", "window": "damaged"},
        ],
    )
    assert logged(out, "В получает 3 повреждения (Злоба)")


def test_blooding_on_the_flock_adds_one_to_the_chosen_player() -> None:
    out = play(
        [
            player("А", [X, X, X, X, X]),
            player("Б", [A, H, V, H, R], magic=["blooding"]),
            player("В", [R, V, H, A, R], health=2),
        ],
        [
            {"seat": 1, "play": "blooding", "window": "damaged"},
            {"seat": 1, "phase": "choose", "pick": 2},
        ],
    )
    assert logged(out, "В получает 2 повреждения (стая воронов)")
    assert out["raven"][2] and out["vp"][1] == 1  # the extra point was lethal: Б scores it


def test_heal_answers_any_lethal_damage_not_only_attacks() -> None:
    out = play(
        [
            player("А", [X, X, X, X, X]),
            player("Б", [A, H, V, H, R]),
            player("В", [R, V, H, A, R], health=1, magic=["heal"]),
        ],
        [{"seat": 2, "play": "heal", "window": "rescue"}],
    )
    assert logged(out, "В исцеляется на 2")
    assert not out["raven"][2] and out["health"][2] == 2


def test_scrye_looks_at_a_token_order_that_exists_before_the_draft() -> None:
    from engine.games.nevermore.scenario import ScenarioRun

    run = ScenarioRun(
        {
            "players": three(N1, ["scrye"]),
            "round": 2,
            "tokens": ["healing", "victory", "attack", "radiance"],
            "moves": [{"seat": 0, "play": "scrye"}, {"seat": 0, "phase": "choose", "pick": "none"}],
        }
    )
    seen: dict[int, list[str | None]] = {}
    while data(run.table.state)["round"] <= 2 and not data(run.table.state)["over"]:
        g = data(run.table.state)
        if g["need"]["phase"] == "seal" and not seen:  # after the draft, before any token
            tokens = g["piles"]["tokens"]["draw"]
            seen = {s: [run.table.knowledge[s].cards.get(t) for t in tokens] for s in (0, 1)}
        run.table.step(run.policy)
    assert seen[0] == ["healing", "victory", "attack", "radiance"]  # the scryer saw the order
    assert seen[1] == [None] * 4  # nobody else did
    called = [e["suit"] for e in data(run.table.state)["log"] if e["e"] == "token"]
    assert called == ["healing", "victory", "attack", "radiance"]
