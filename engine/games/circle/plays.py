"""Action cards in «переполох»: which targets each card allows, and what playing it does.

Winds blow the spell from its current target: ВЕТЕР (влево) to the nearest living seat on the left
(seat + 1), ВЕТЕР (вправо) to the right (seat − 1), ВЕТЕР (во все стороны) to any other living seat.
РАССЕИВАНИЕ sends the spell to the spell discard (not an НЕУМОЛИМОСТЬ spell). ЩИТ protects the
player who plays it from the spell's next hit this turn. ЗЕРКАЛО sends the spell back to its
previous target (a change of target). ПОРЫВ adds 1 power. Every played card raises the spell's
``step`` and goes face up to the action discard.
"""

from __future__ import annotations

from .cards import Catalog
from .keywords import change_target, discard_spell
from .state import State, left_of, living, log, right_of


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
    names = g["names"]
    spell = g["spell"]
    g["hands"][seat].remove(slot)
    g["discard"].append(slot)
    g["known"][str(slot)] = card
    g["played"] = True
    spell["step"] += 1
    effect = cat.effect(card)
    label = cat.action_label(card)
    spell_name = cat.spells[spell["card"]]["name"]
    log(
        g,
        {
            "e": "play",
            "seat": seat,
            "card": card,
            "target": target,
            "text": f"{names[seat]} играет {label}.",
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
        return change_target(cat, g, spell["prev"], seat)
    if effect == "dispel":
        log(
            g,
            {
                "e": "dispel",
                "seat": seat,
                "text": f"Заклинание {spell_name} рассеяно, никто не задет.",
            },
        )
        discard_spell(g)
        return False
    if effect == "shield":
        g["shield"][seat] = True
        log(g, {"e": "shield", "seat": seat, "text": f"{names[seat]} под ЩИТОМ до конца хода."})
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
            "text": f"ПОРЫВ: {spell_name}, сила {before} → {spell['power']}.",
        },
    )
    return True
