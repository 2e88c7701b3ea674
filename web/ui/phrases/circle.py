"""«Волшебный круг»'s log in words: one phrase per event, in Russian (the engine's own sentences,
checked by the digests of ``tests/engine``) and English."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from ..catalog_en import CIRCLE_NAMES, DIRECTIONS
from . import plural

E = dict[str, Any]


@cache
def _catalog() -> Any:
    from engine.games.circle.cards import load_catalog

    return load_catalog()


class Words(plural.SeatWords):
    """What a phrase needs besides the event: seat names, card names in the language."""

    def spell(self, card: str) -> str:
        name = str(_catalog().spells[card]["name"])
        return CIRCLE_NAMES.get(card, name) if self.lang == "en" else name

    def action(self, card: str) -> str:
        """The action card as the log names it: «ВЕТЕР (влево)» / WIND (left)."""
        info = _catalog().actions[card]
        if self.lang == "ru":
            return str(_catalog().action_label(card))
        name = CIRCLE_NAMES.get(card, info["name"])
        direction = info.get("direction")
        return f"{name} ({DIRECTIONS.get(direction, direction)})" if direction else name


def _change(e: E, w: Words) -> str:
    spell, to, n = w.spell(e["spell"]), w.who(e["to"]), e["changes"]
    if w.lang == "ru":
        text = f"{spell} → {to} (смена цели №{n})"
        moved = f", сила {e['was']} → {e['power']}"
    else:
        text = f"{spell} → {to} (change of target no. {n})"
        moved = f", power {e['was']} → {e['power']}"
    return text + (moved if e["power"] != e["was"] else "") + "."


RU: dict[str, Callable[[E, Words], str]] = {
    "out": lambda e, w: f"{w.who(e['seat'])} выбывает из игры.",
    "spells_back": lambda e, w: "Сброс заклинаний снова стал колодой.",
    "win": lambda e, w: f"{w.who(e['seat'])} побеждает!",
    "nobody": lambda e, w: "Все выбыли разом: победителей нет.",
    "burned": lambda e, w: f"ОЖОГ: {w.who(e['seat'])} теряет {e['power']} (жизней: {e['life']}).",
    "spell": lambda e, w: (
        f"Из круга вылетает {w.spell(e['card'])} (сила {e['power']}), цель — {w.who(e['to'])}."
    ),
    "totem": lambda e, w: f"Тотем переходит: {w.who(e['seat'])}.",
    "empty": lambda e, w: "Ни у кого нет карт: каждый берёт по 3.",
    "frozen": lambda e, w: f"{w.who(e['seat'])} в оцепенении: без карт.",
    "draw": lambda e, w: f"{w.who(e['seat'])} берёт {e['count']} (в руке {e['hand']}).",
    "reshuffle": lambda e, w: "Сброс действий перемешан в колоду.",
    "play": lambda e, w: f"{w.who(e['seat'])} играет {w.action(e['card'])}.",
    "dispel": lambda e, w: f"Заклинание {w.spell(e['spell'])} рассеяно, никто не задет.",
    "shield": lambda e, w: f"{w.who(e['seat'])} под ЩИТОМ до конца хода.",
    "gust": lambda e, w: f"ПОРЫВ: {w.spell(e['spell'])}, сила {e['was']} → {e['power']}.",
    "change": _change,
    "melt": lambda e, w: f"Заклинание {w.spell(e['card'])} тает, никого не задев.",
    "shielded": lambda e, w: f"ЩИТ ({w.who(e['seat'])}) поглощает {w.spell(e['card'])}.",
    "hit": lambda e, w: (
        f"{w.spell(e['card'])} попадает: {w.who(e['seat'])} −{e['power']} (жизней: {e['life']})."
    ),
    "chain": lambda e, w: f"РАЗРЯД: {w.who(e['seat'])} −1 (жизней: {e['life']}).",
    "burn": lambda e, w: f"ОЖОГ: {w.who(e['seat'])} получает отметку.",
    "drain": lambda e, w: f"ВАМПИРИЗМ: {w.who(e['seat'])} — жизней {e['was']} → {e['life']}.",
    "frost": lambda e, w: f"ОЦЕПЕНЕНИЕ: {w.who(e['seat'])} не берёт карт в конце хода.",
}

EN: dict[str, Callable[[E, Words], str]] = {
    "out": lambda e, w: f"{w.who(e['seat'])} is out of the game.",
    "spells_back": lambda e, w: "The spell discard is the deck again.",
    "win": lambda e, w: f"{w.who(e['seat'])} wins!",
    "nobody": lambda e, w: "Everyone fell at once: no winner.",
    "burned": lambda e, w: (
        f"BURN: {w.who(e['seat'])} loses {e['power']}"
        f" ({plural.en(e['life'], 'life', 'lives')} left)."
    ),
    "spell": lambda e, w: (
        f"{w.spell(e['card'])} flies out of the circle (power {e['power']}) at {w.who(e['to'])}."
    ),
    "totem": lambda e, w: f"The totem passes to {w.who(e['seat'])}.",
    "empty": lambda e, w: "Nobody holds a card: everyone draws 3.",
    "frozen": lambda e, w: f"{w.who(e['seat'])} is frozen: no cards.",
    "draw": lambda e, w: (
        f"{w.who(e['seat'])} draws {plural.en(e['count'], 'card', 'cards')} ({e['hand']} in hand)."
    ),
    "reshuffle": lambda e, w: "The action discard is shuffled into the deck.",
    "play": lambda e, w: f"{w.who(e['seat'])} plays {w.action(e['card'])}.",
    "dispel": lambda e, w: f"{w.spell(e['spell'])} is dispelled; nobody is touched.",
    "shield": lambda e, w: f"{w.who(e['seat'])} is SHIELDED until the end of the turn.",
    "gust": lambda e, w: f"GUST: {w.spell(e['spell'])}, power {e['was']} → {e['power']}.",
    "change": _change,
    "melt": lambda e, w: f"{w.spell(e['card'])} melts away without touching anyone.",
    "shielded": lambda e, w: f"{w.who(e['seat'])}'s SHIELD absorbs {w.spell(e['card'])}.",
    "hit": lambda e, w: (
        f"{w.spell(e['card'])} hits: {w.who(e['seat'])} −{e['power']}"
        f" ({plural.en(e['life'], 'life', 'lives')} left)."
    ),
    "chain": lambda e, w: (
        f"CHAIN: {w.who(e['seat'])} −1 ({plural.en(e['life'], 'life', 'lives')} left)."
    ),
    "burn": lambda e, w: f"BURN: {w.who(e['seat'])} gets a burn mark.",
    "drain": lambda e, w: f"DRAIN: {w.who(e['seat'])} — lives {e['was']} → {e['life']}.",
    "frost": lambda e, w: f"FROST: {w.who(e['seat'])} draws no cards at the end of the turn.",
}


def say(event: E, lang: str, names: Sequence[str]) -> str:
    """The sentence for ``event`` (an unknown kind is shown as its name)."""
    return plural.phrase_of(RU, EN, event, lang, Words(lang, names))
