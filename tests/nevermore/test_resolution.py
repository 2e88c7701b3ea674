"""Resolution: majorities, the four suits, ravens destroying cards, the flock and skulking ravens.

Seed sections «Масти и их эффекты», «Подробнее о ВОРОНАХ», «Фаза раскрытия»; the worked examples
(Николь/Брандон/Эндрю, Тайлер/Лаура/Девон, Джастин/Фред/Джонатан, Мелоди/Крис/Кендри, Джон, Грег).
"""

from __future__ import annotations

from engine.games.nevermore.scoring import majority

from .helpers import lines, logged, play, player

A, H, R, V, X = "attack", "healing", "radiance", "victory", "raven"


def test_majority_is_top_minus_second_and_ties_share() -> None:
    assert majority([3, 1, 0]) == ([0], 3, 1)
    assert majority([3, 1, 3]) == ([0, 2], 3, 1)
    assert majority([1, 1, 1]) == ([0, 1, 2], 1, 0)
    assert majority([4, 2, 1, 2]) == ([0], 4, 2)
    assert majority([0, 0, 0]) == ([], 0, 0)


def test_nicole_deals_three_minus_one() -> None:
    out = play(
        [
            player("Николь", [A, A, A, R, R]),
            player("Брандон", [A, R, R, V, V]),
            player("Эндрю", [R, R, V, H, H]),
        ],
        [{"seat": 0, "phase": "choose", "pick": 1}],
    )
    assert logged(out, "Большинство (Атака): Николь — 3 против 1, сила 2.")
    assert out["health"][1] == 3


def test_tied_attackers_both_deal_damage_dealer_last() -> None:
    out = play(
        [
            player("Николь", [A, A, A, R, R]),
            player("Брандон", [A, R, R, V, V]),
            player("Эндрю", [A, A, A, H, H]),
        ],
        [{"seat": 0, "phase": "choose", "pick": 1}, {"seat": 2, "phase": "choose", "pick": 1}],
    )
    assert out["health"][1] == 1
    attacks = [line for line in lines(out) if "атакует" in line]
    assert attacks == ["Эндрю атакует Брандон на 2.", "Николь атакует Брандон на 2."]


def test_tyler_heals_one_of_three() -> None:
    out = play(
        [
            player("Тайлер", [H, H, H, R, V], health=3),
            player("Лаура", [H, H, R, R, V]),
            player("Девон", [H, H, V, V, R]),
        ]
    )
    assert logged(out, "Тайлер восстанавливает 1 очко здоровья (4).")
    assert out["health"][0] == 4


def test_healing_never_exceeds_the_maximum_and_three_at_full_gives_vp() -> None:
    out = play(
        [
            player("Тайлер", [H, H, H, R, V], health=4),
            player("Лаура", [R, R, R, V, V]),
            player("Девон", [V, V, V, R, R]),
        ]
    )
    assert out["health"][0] == 5
    full = play(
        [
            player("Тайлер", [H, H, H, R, V]),
            player("Лаура", [R, R, R, V, V]),
            player("Девон", [V, V, R, R, V]),
        ]
    )
    assert logged(full, "Тайлер получает 1 ПО (лечение на 3 при полном здоровье)")


def test_justin_draws_four_minus_two_light_cards() -> None:
    out = play(
        [
            player("Джастин", [R, R, R, R, V]),
            player("Фред", [R, R, V, V, H]),
            player("Джонатан", [R, H, H, V, V]),
        ]
    )
    assert logged(out, "Джастин берёт 2 карты магии Света.")
    assert len(out["magic"][0]) == 2


def test_five_radiance_heals_two_and_scores_one() -> None:
    out = play(
        [
            player("Джастин", [R, R, R, R, R], health=2),
            player("Фред", [R, V, V, H, A]),
            player("Джонатан", [H, H, V, V, A]),
        ]
    )
    assert out["health"][0] == 4
    assert out["vp"][0] == 1
    assert len(out["magic"][0]) == 4


def test_melody_chris_kendry_tie_each_scores_one() -> None:
    out = play(
        [
            player("Мелоди", [V, H, H, R, R]),
            player("Крис", [V, R, R, H, H]),
            player("Кендри", [V, H, R, R, H]),
        ]
    )
    assert out["vp"] == [1, 1, 1]


def test_john_two_ravens_destroy_two_healing() -> None:
    out = play(
        [
            player("Джон", [H, H, H, X, X], health=3),
            player("Б", [R, R, V, V, R]),
            player("В", [R, V, V, R, V]),
        ],
        [{"seat": 0, "doom": [H, H]}],
    )
    assert logged(out, "Лечение: Джон 1.")
    assert out["health"][0] == 4


def test_greg_sacrifices_his_radiance() -> None:
    out = play(
        [
            player("Грег", [R, H, H, V, X]),
            player("Б", [R, V, V, A, A]),
            player("В", [R, V, A, A, H]),
        ],
        [{"seat": 0, "doom": [R]}],
    )
    assert logged(out, "Сияние: Б 1, В 1.")
    assert not logged(out, "Сияние: Грег")


def test_attack_of_four_may_hit_everyone_for_two_vp() -> None:
    out = play(
        [
            player("А", [A, A, A, A, A]),
            player("Б", [R, V, V, H, H]),
            player("В", [R, V, R, H, H]),
        ],
        [{"seat": 0, "phase": "choose", "pick": "all"}],
    )
    assert logged(out, "бьёт всех на 1")
    assert out["vp"][0] == 2
    assert out["health"][0] == 4


def test_killing_blow_scores_one_vp() -> None:
    out = play(
        [
            player("А", [A, A, A, R, R]),
            player("Б", [R, V, V, H, R], health=2),
            player("В", [R, V, R, H, H]),
        ],
        [{"seat": 0, "phase": "choose", "pick": 1}],
    )
    assert out["raven"][1]
    assert out["vp"][0] == 1


def test_flock_hits_everyone_draws_shadow_and_ends_the_round() -> None:
    out = play(
        [
            player("А", [X, X, X, X, X]),
            player("Б", [A, A, A, V, V]),
            player("В", [R, V, R, H, H]),
        ]
    )
    assert logged(out, "стая воронов")
    assert out["health"] == [5, 4, 4]
    assert out["vp"] == [1, 0, 0]
    assert len(out["magic"][0]) == 1
    assert not logged(out, "атакует")


def test_skulking_ravens_draw_shadow_cards() -> None:
    out = play(
        [
            player("А", [X, X, X, X, H]),
            player("Б", [X, X, X, V, A]),
            player("В", [R, V, R, H, H]),
        ],
        [{"seat": 0, "doom": [H]}, {"seat": 1, "doom": [V, A]}],
    )
    assert logged(out, "Скрытые вороны: А 3, Б 1")
    assert len(out["magic"][0]) == 2
    assert out["magic"][1] == []


def test_first_round_tokens_are_fixed_and_later_ones_lie_face_down() -> None:
    out = play(
        [player("А", [A, H, R, V, X]), player("Б", [A, H, R, V, X]), player("В", [A, H, R, V, X])],
        stop="game",
        max_rounds=2,
    )
    called = [line for line in lines(out) if line.startswith("Раздающий называет")]
    words = [line.split(": ")[1].rstrip(".") for line in called]
    assert words[:4] == ["Атака", "Лечение", "Сияние", "Победа"]
    assert len(words) == 8 and sorted(words[4:]) == sorted(words[:4])
    assert logged(out, "Жетоны Раскрытия перемешаны и выложены рубашкой вверх.")


def test_radiance_ties_draw_light_cards_nearest_the_dealer_first() -> None:
    out = play(
        [
            player("А", [A, H, H, V, V]),
            player("Б", [R, R, H, V, A]),
            player("В", [R, R, A, V, H]),
        ]
    )
    draws = [line for line in lines(out) if "магии Света" in line and "берёт" in line]
    assert draws == ["Б берёт 2 карты магии Света.", "В берёт 2 карты магии Света."]
