"""Action cards in «переполох»: which targets each card allows, and what playing it does.

Winds blow the spell from its current target: ВЕТЕР (влево) to the nearest living seat on the left
(seat + 1), ВЕТЕР (вправо) to the right (seat − 1), ВЕТЕР (во все стороны) to any other living seat.
РАССЕИВАНИЕ sends the spell to the spell discard (not an НЕУМОЛИМОСТЬ spell). ЩИТ protects the
player who plays it from the spell's next hit this turn. ЗЕРКАЛО sends the spell back to its
previous target (a change of target). ПОРЫВ adds 1 power. Every played card raises the spell's
``step`` and goes face up to the action discard.
"""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, IllegalAction

from .cards import Catalog
from .keywords import change_target, discard_spell
from .state import State, left_of, living, log, right_of


def is_int(value: Any) -> bool:
    """An integer that is not a bool (JSON keeps ``true`` and ``1`` apart)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_play(cat: Catalog, g: State, action: Action) -> tuple[int, int, str, int | None]:
    """The checked ``(seat, slot, card, target)`` of a play, or ``IllegalAction``."""
    seat: Any = action.get("seat")
    slot: Any = action.get("slot")
    step: Any = action.get("step")
    if not is_int(seat) or not 0 <= seat < g["n"] or not g["alive"][seat]:
        raise IllegalAction("играет только живой игрок")
    if not is_int(slot) or slot not in g["hands"][seat]:
        raise IllegalAction("этой карты нет в руке")
    flying = g["spell"]
    if flying is None:
        raise IllegalAction("заклинание уже сместилось: действие опоздало")
    # a move decided on an older step still lands unless the spell has really moved since
    # (ЩИТ and ПОРЫВ raise the step but leave the spell where it is)
    if not is_int(step) or not flying.get("moved", 0) <= step <= flying["step"]:
        raise IllegalAction("заклинание уже сместилось: действие опоздало")
    opened = action.get("open")
    if not (isinstance(opened, list) and len(opened) == 1 and isinstance(opened[0], dict)):
        raise IllegalAction("карта должна быть открыта (open)")
    card = opened[0].get("card")
    if opened[0].get("slot") != slot or not isinstance(card, str) or card not in cat.actions:
        raise IllegalAction("открытая карта не совпадает с разыгранной")
    target = action.get("target")
    allowed = targets(cat, g, seat, card)
    if target not in allowed or (target is not None and not is_int(target)):
        raise IllegalAction("эту карту нельзя так сыграть сейчас")
    return seat, slot, card, target


def targets(cat: Catalog, g: State, seat: int, card: str) -> list[int | None]:
    """Valid ``target`` values for ``seat`` playing ``card`` now (None: the card takes none);
    empty when the card cannot be played on the flying spell."""
    spell = g["spell"]
    if spell is None or not g["alive"][seat]:
        return []
    effect = cat.effect(card)
    current = spell["target"]
    if effect == "wind_any":
        return [s for s in living(g) if s != current]
    if effect == "dispel":
        return [] if cat.keyword(spell["card"]) == "relentless" else [None]
    if effect == "shield":
        return [] if g["shield"][seat] else [None]
    if effect == "mirror":
        prev = spell["prev"]
        return [None] if prev is not None and prev != current and g["alive"][prev] else []
    return [None]


def play(cat: Catalog, g: State, seat: int, slot: int, card: str, target: int | None) -> bool:
    """Play ``card`` (from ``slot``) on the flying spell; ``g`` is a fresh copy, changed in place.

    Returns False when the spell left the table (dispelled or melted). The caller has checked that
    the move is legal (``targets``)."""
    spell = g["spell"]
    assert spell is not None
    g["hands"][seat].remove(slot)
    g["discard"].append(slot)
    g["known"][str(slot)] = card
    g["played"] = True
    spell["step"] += 1
    effect = cat.effect(card)
    log(
        g,
        {
            "e": "play",
            "seat": seat,
            "card": card,
            "target": target,
        },
    )
    current = spell["target"]
    if effect == "wind_left":
        return change_target(cat, g, left_of(g, current), seat)
    if effect == "wind_right":
        return change_target(cat, g, right_of(g, current), seat)
    if effect == "wind_any":
        assert target is not None
        return change_target(cat, g, target, seat)
    if effect == "mirror":
        assert spell["prev"] is not None  # ``targets`` offers ЗЕРКАЛО only with a previous target
        return change_target(cat, g, spell["prev"], seat)
    if effect == "dispel":
        log(
            g,
            {
                "e": "dispel",
                "seat": seat,
                "spell": spell["card"],
            },
        )
        discard_spell(g)
        return False
    if effect == "shield":
        g["shield"][seat] = True
        log(g, {"e": "shield", "seat": seat})
        return True
    before = spell["power"]
    spell["power"] += 1
    log(
        g,
        {
            "e": "gust",
            "seat": seat,
            "power": spell["power"],
            "was": before,
            "spell": spell["card"],
        },
    )
    return True
