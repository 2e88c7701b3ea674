"""Spell keywords: what happens when a flying spell changes target, and when it hits.

- ``fan`` РАЗДУВАНИЕ: every second change of target, power + 1;
- ``grow`` НАРАСТАНИЕ: every change, power + 1;
- ``melt`` ТАЯНИЕ: every change, power − 1; at 0 the spell melts into the discard, harming no one;
- ``chain`` РАЗРЯД: on a hit, the victim's living neighbours left and right lose 1 life each;
- ``burn`` ОЖОГ: on a hit, a burn mark; the victim loses 1 life per mark at the start of the next
  turn in which they hold the totem (a start-of-turn effect, see ``flow``);
- ``drain`` ВАМПИРИЗМ: on a hit, whoever last sent the spell at the victim gains 1 life (max 5),
  unless that is the victim;
- ``frost`` ОЦЕПЕНЕНИЕ: on a hit, the victim draws no cards at the end of this turn;
- ``relentless`` НЕУМОЛИМОСТЬ: cannot be dispelled (``plays`` refuses РАССЕИВАНИЕ).
"""

from __future__ import annotations

from .cards import MAX_LIFE, Catalog
from .state import State, left_of, log, right_of


def change_target(cat: Catalog, g: State, new_target: int, by: int) -> bool:
    """Redirect the flying spell at ``new_target``; False if it melted away (now discarded)."""
    spell = g["spell"]
    assert spell is not None
    old = spell["target"]
    spell["prev"] = old
    spell["target"] = new_target
    spell["moved"] = spell["step"]  # a move decided before this step is now stale
    spell["sender"] = by
    spell["changes"] += 1
    kw = cat.keyword(spell["card"])
    before = spell["power"]
    if (kw == "fan" and spell["changes"] % 2 == 0) or kw == "grow":
        spell["power"] += 1
    elif kw == "melt":
        spell["power"] -= 1
    log(
        g,
        {
            "e": "change",
            "by": by,
            "from": old,
            "to": new_target,
            "power": spell["power"],
            "was": before,
            "changes": spell["changes"],
            "spell": spell["card"],
        },
    )
    if spell["power"] <= 0:
        log(
            g,
            {
                "e": "melt",
                "card": spell["card"],
            },
        )
        discard_spell(g)
        return False
    return True


def discard_spell(g: State) -> None:
    """The flying spell goes to the spell discard."""
    spell = g["spell"]
    assert spell is not None
    g["spell_discard"].append(spell["card"])
    g["spell"] = None


def hit(cat: Catalog, g: State) -> None:
    """The flying spell lands on its target: life − power, then its keyword, then the discard."""
    spell = g["spell"]
    assert spell is not None
    victim = spell["target"]
    card = spell["card"]
    if g["shield"][victim]:
        g["shield"][victim] = False
        log(
            g,
            {
                "e": "shielded",
                "seat": victim,
                "card": card,
            },
        )
        discard_spell(g)
        return
    power = spell["power"]
    g["life"][victim] -= power
    log(
        g,
        {
            "e": "hit",
            "seat": victim,
            "card": card,
            "power": power,
            "life": g["life"][victim],
        },
    )
    kw = cat.keyword(card)
    if kw == "chain":
        for other in sorted({left_of(g, victim), right_of(g, victim)} - {victim}):
            g["life"][other] -= 1
            log(
                g,
                {
                    "e": "chain",
                    "seat": other,
                    "life": g["life"][other],
                },
            )
    elif kw == "burn":
        g["burns"][victim] += 1
        log(g, {"e": "burn", "seat": victim})
    elif kw == "drain":
        sender = spell["sender"]
        if sender is not None and sender != victim and g["alive"][sender]:
            before = g["life"][sender]
            g["life"][sender] = min(MAX_LIFE, before + 1)
            log(
                g,
                {
                    "e": "drain",
                    "seat": sender,
                    "life": g["life"][sender],
                    "was": before,
                },
            )
    elif kw == "frost":
        g["frozen"][victim] = True
        log(
            g,
            {
                "e": "frost",
                "seat": victim,
            },
        )
    discard_spell(g)
