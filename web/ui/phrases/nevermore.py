"""«Невермор»'s log in words: one phrase per event, in Russian and English, each agreeing with its
numbers (``plural``: 1 карту, 2 карты, 5 карт; 1 повреждение; 1 card, 2 cards). The Russian
sentences are checked by the digests of ``tests/engine``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from ..catalog_en import NEVERMORE_SUITS
from . import plural

E = dict[str, Any]

SUITS_RU = {
    "attack": "Атака",
    "healing": "Лечение",
    "radiance": "Сияние",
    "victory": "Победа",
    "raven": "Ворон",
}
# Why points or damage came: reason codes that are not a magic card (a card's reason is its name).
REASONS_RU = {
    "attack": "атака",
    "peck": "клевок",
    "flock": "стая воронов",
    "healing_reversed": "Лечение обращено",
    "full_heal": "лечение на 3 при полном здоровье",
    "victory": "Победа",
    "strike_all": "удар по всем",
    "five_radiance": "пять Сияний",
}
REASONS_EN = {
    "attack": "attack",
    "peck": "peck",
    "flock": "flock of ravens",
    "healing_reversed": "Healing reversed",
    "full_heal": "healing 3 at full health",
    "victory": "Victory",
    "strike_all": "striking everyone",
    "five_radiance": "five Radiance",
}
PILES_RU = {"main": "основной колоды", "light": "магии Света", "shadow": "магии Тени"}
PILES_EN = {"main": "main deck", "light": "Light magic deck", "shadow": "Shadow magic deck"}


@cache
def _catalog() -> Any:
    from engine.games.nevermore.cards import load_catalog

    return load_catalog()


@cache
def _english_names() -> dict[str, str]:
    """Every card's English name, as the card pane shows it."""
    from engine.games.nevermore.listing import entries

    from ..catalog_en import english

    return {str(e["id"]): str(english("nevermore", e)["name"]) for e in entries()}


class Words(plural.SeatWords):
    """What a phrase needs besides the event: seat names, card and suit names in the language."""

    def card(self, card: str) -> str:
        """A card's name (a magic card or a suit card)."""
        if self.lang == "en":
            return _english_names().get(card, card)
        return str(_catalog().name(card))

    def suit(self, suit: Any) -> str:
        words = NEVERMORE_SUITS if self.lang == "en" else SUITS_RU
        return str(words.get(str(suit), suit))

    def reason(self, e: E) -> str:
        """`` (why)`` for a change of points or health, or nothing."""
        why = str(e.get("why") or "")
        if not why:
            return ""
        if why == "raven_made":
            of = self.who(e.get("of"))
            said = f"{of} обращён в ворона" if self.lang == "ru" else f"{of} turned into a raven"
        else:
            table = REASONS_EN if self.lang == "en" else REASONS_RU
            said = table.get(why) or self.card(why)
        return f" ({said})"

    def counts(self, counts: Sequence[int]) -> str:
        """``Аня 2, Боря 1``: the seats with a count."""
        return ", ".join(f"{self.who(s)} {c}" for s, c in enumerate(counts) if c)

    def seats(self, seats: Sequence[int]) -> str:
        return ", ".join(self.who(s) for s in seats)


Phrase = Callable[[E, Words], str]


def _vp_ru(e: E, w: Words) -> str:
    sign = "получает" if e["amount"] > 0 else "теряет"
    return f"{w.who(e['seat'])} {sign} {abs(e['amount'])} ПО{w.reason(e)}: всего {e['total']}."


def _vp_en(e: E, w: Words) -> str:
    sign = "gains" if e["amount"] > 0 else "loses"
    return f"{w.who(e['seat'])} {sign} {abs(e['amount'])} VP{w.reason(e)}: {e['total']} in all."


def _round_ru(e: E, w: Words) -> str:
    arrow = "налево" if e["dir"] == 1 else "направо"
    return f"— Раунд {e['round']}. Раздаёт {w.who(e['dealer'])}, передача {arrow}. —"


def _round_en(e: E, w: Words) -> str:
    arrow = "left" if e["dir"] == 1 else "right"
    return f"— Round {e['round']}. {w.who(e['dealer'])} deals, passing {arrow}. —"


def _cards_ru(n: int) -> str:
    """``n`` cards as the object of a verb: 1 карту, 2 карты, 5 карт."""
    return plural.ru(n, "карту", "карты", "карт")


def _health_ru(n: int) -> str:
    """``n`` points of health: 1 очко здоровья, 2 очка здоровья, 5 очков здоровья."""
    return plural.ru(n, "очко", "очка", "очков") + " здоровья"


def _damage_ru(n: int) -> str:
    """``n`` damage: 1 повреждение, 2 повреждения, 5 повреждений."""
    return plural.ru(n, "повреждение", "повреждения", "повреждений")


def _token(e: E, w: Words) -> str:
    if w.lang == "ru":
        extra = " (Предательство: эффект обращён)" if e.get("betrayed") else ""
        return f"Раздающий называет масть: {w.suit(e['suit'])}{extra}."
    extra = " (Betrayal: the effect is reversed)" if e.get("betrayed") else ""
    return f"The dealer calls the suit: {w.suit(e['suit'])}{extra}."


RU: dict[str, Phrase] = {
    "start": lambda e, w: "Каждый получает карту магии Тени. Ищем первого раздающего.",
    "restock": lambda e, w: (
        f"Колода {PILES_RU[e['pile']]} кончилась: сброс перемешан и добавлен в колоду."
    ),
    "new_tokens": lambda e, w: "Жетоны Раскрытия перемешаны и выложены рубашкой вверх.",
    "new_deck": lambda e, w: "Основная колода собрана и перемешана.",
    "frozen": lambda e, w: "Заморозка: фаза Драфта пропущена.",
    "passed": lambda e, w: f"Передача по {plural.ru(e['count'], 'карте', 'карты', 'карт')}.",
    "dealer_draw": lambda e, w: (
        f"{w.who(e['seat'])} тянет карту: {SUITS_RU.get(e['card'] or '', e['card'])}."
    ),
    "first_dealer": lambda e, w: f"{w.who(e['seat'])} — первый раздающий.",
    "round": _round_ru,
    "round_limit": lambda e, w: f"Предел раундов ({e['rounds']}) исчерпан: победителя нет.",
    "play": lambda e, w: f"{w.who(e['seat'])} разыгрывает «{w.card(e['card'])}».",
    "unplayable": lambda e, w: (
        f"«{w.card(e['card'])}» нельзя разыграть сейчас — карта сброшена без эффекта."
    ),
    "cancelled": lambda e, w: f"Эффект «{w.card(e['card'])}» отменён.",
    "heal": lambda e, w: (
        f"{w.who(e['seat'])} восстанавливает {_health_ru(e['amount'])} ({e['hp']})."
    ),
    "vp": _vp_ru,
    "damage": lambda e, w: (
        f"{w.who(e['seat'])} получает {_damage_ru(e['amount'])}{w.reason(e)}: здоровье {e['hp']}."
    ),
    "raven": lambda e, w: f"{w.who(e['seat'])} обращается в ворона.",
    "human": lambda e, w: f"{w.who(e['seat'])} возвращает истинное обличие: здоровье {e['hp']}.",
    "win_vp": lambda e, w: f"{w.who(e['seat'])} набирает {e['vp']} ПО и побеждает!",
    "win_last": lambda e, w: f"{w.who(e['seat'])} — последний в человеческом обличии и побеждает!",
    "win_peck": lambda e, w: (
        f"Клевок {w.who(e['seat'])} обратил всех людей в воронов — он побеждает!"
    ),
    "add_self": lambda e, w: f"{w.who(e['seat'])} добавляет к картам «{w.card(e['card'])}».",
    "add_raven": lambda e, w: f"{w.who(e['seat'])} добавляет Ворона к картам {w.who(e['to'])}.",
    "no_heal": lambda e, w: "В этом раунде никто не получает здоровье.",
    "plan": lambda e, w: "Жетоны Раскрытия: " + ", ".join(map(w.suit, e["tokens"])) + ".",
    "no_attack": lambda e, w: "В этом раунде никто не может атаковать.",
    "raven_dropped": lambda e, w: f"{w.who(e['seat'])} сбрасывает Ворона без эффекта.",
    "not_raven": lambda e, w: f"Нарушение: {w.who(e['seat'])} показал не Ворона.",
    "foretell": lambda e, w: f"{w.who(e['seat'])} предсказывает: {w.suit(e['suit'])}.",
    "foretold_not": lambda e, w: f"Предсказание {w.who(e['seat'])} не сбылось.",
    "foretold": lambda e, w: f"Предсказание {w.who(e['seat'])} сбылось.",
    "discard_one": lambda e, w: f"{w.who(e['seat'])} сбрасывает карту.",
    "draw_main": lambda e, w: (
        f"{w.who(e['seat'])} берёт {_cards_ru(e['count'])} из основной колоды."
    ),
    "rescue": lambda e, w: f"{w.who(e['seat'])} исцеляется на 2 в ответ на смертельный урон.",
    "illuminate": lambda e, w: "Все Вороны сброшены без эффекта.",
    "justice": lambda e, w: "Все передают карты тем, от кого их получали.",
    "reap": lambda e, w: "Все передают карты тем, кому передавали их в Драфте.",
    "take": lambda e, w: f"{w.who(e['seat'])} забирает случайную карту у {w.who(e['source'])}.",
    "blooding": lambda e, w: (
        f"{w.who(e['seat'])}: Кровотечение — +1 повреждение для {w.who(e['to'])}."
    ),
    "entomb": lambda e, w: "Карты магии Света нельзя разыгрывать в следующем раунде.",
    "entrap": lambda e, w: f"{w.who(e['seat'])} меняется картами с {w.who(e['to'])}.",
    "extinguish": lambda e, w: "Все карты Сияния сброшены.",
    "impair": lambda e, w: "Все карты Лечения сброшены.",
    "nightmare": lambda e, w: f"{w.who(e['seat'])} сбрасывает свои карты (Ночной кошмар).",
    "scry_look": lambda e, w: f"{w.who(e['seat'])} тайно смотрит порядок жетонов Раскрытия.",
    "scry_free": lambda e, w: f"{w.who(e['seat'])} не платит за Видение.",
    "scry_set": lambda e, w: f"{w.who(e['seat'])} тайно задаёт порядок жетонов Раскрытия.",
    "summon_keep": lambda e, w: f"{w.who(e['seat'])} оставляет одну карту из трёх.",
    "draw_magic": lambda e, w: (
        f"{w.who(e['seat'])} берёт {_cards_ru(e['count'])} магии "
        f"{'Света' if e['pile'] == 'light' else 'Тени'}."
    ),
    "tax": lambda e, w: (
        f"{w.who(e['seat'])} забирает карту магии Света у {w.who(e['source'])} (Дань)."
    ),
    "light_lost": lambda e, w: (
        f"{w.who(e['seat'])} сбрасывает {_cards_ru(e['count'])} магии Света (Сияние обращено)."
    ),
    "sealed": lambda e, w: "Все игроки готовы к Раскрытию.",
    "flock": lambda e, w: f"{w.who(e['seat'])}: стая воронов! Раунд заканчивается.",
    "scry_none": lambda e, w: f"{w.who(e['seat'])} не раскрыл жетон — порядок решает случай.",
    "token": _token,
    "shown": lambda e, w: f"{w.suit(e['suit'])}: {w.counts(e['counts']) or 'ни у кого нет карт'}.",
    "card_left": lambda e, w: (
        f"Нарушение: у {w.who(e['seat'])} осталась карта «{w.suit(e['card'])}»."
    ),
    "skulk": lambda e, w: "Скрытые вороны: " + w.counts(e["counts"]),
    "skulk_no_shadow": lambda e, w: "Скрытые вороны не приносят карт магии Тени.",
    "majority": lambda e, w: (
        f"Большинство ({w.suit(e['suit'])}): {w.seats(e['seats'])} — {e['top']} против"
        f" {e['second']}, сила {e['amount']}."
    ),
    "steal": lambda e, w: (
        f"{w.who(e['seat'])} забирает карту «{w.suit(e['suit'])}» у {w.who(e['source'])}."
    ),
    "attack_banned": lambda e, w: "Атаковать в этом раунде нельзя.",
    "betrayed_attack": lambda e, w: f"{w.who(e['seat'])} (Атака обращена) лечит {w.who(e['to'])}.",
    "strike_all": lambda e, w: f"{w.who(e['seat'])} бьёт всех на 1 (включая себя) ради 2 ПО.",
    "attack": lambda e, w: f"{w.who(e['seat'])} атакует {w.who(e['to'])} на {e['amount']}.",
    "bolstered": lambda e, w: f"{w.who(e['seat'])}: Усиление — вместо урона лечение.",
    "no_peck": lambda e, w: f"{w.who(e['seat'])} (ворон) не клюёт.",
    "peck": lambda e, w: f"{w.who(e['seat'])} (ворон) клюёт: {w.seats(e['targets'])}.",
    "five_radiance": lambda e, w: f"{w.who(e['seat'])}: пять Сияний!",
}

EN: dict[str, Phrase] = {
    "start": lambda e, w: "Everyone gets a Shadow magic card. Looking for the first dealer.",
    "restock": lambda e, w: (
        f"The {PILES_EN[e['pile']]} ran out: its discards are shuffled back into it."
    ),
    "new_tokens": lambda e, w: "The Resolution tokens are shuffled and laid face down.",
    "new_deck": lambda e, w: "The main deck is gathered and shuffled.",
    "frozen": lambda e, w: "Freeze: the Draft is skipped.",
    "passed": lambda e, w: f"Cards change hands: {plural.en(e['count'], 'card', 'cards')} each.",
    "dealer_draw": lambda e, w: f"{w.who(e['seat'])} draws a card: {w.suit(e['card'])}.",
    "first_dealer": lambda e, w: f"{w.who(e['seat'])} is the first dealer.",
    "round": _round_en,
    "round_limit": lambda e, w: f"The round limit ({e['rounds']}) is reached: nobody wins.",
    "play": lambda e, w: f"{w.who(e['seat'])} plays “{w.card(e['card'])}”.",
    "unplayable": lambda e, w: (
        f"“{w.card(e['card'])}” cannot be played now — it is discarded without effect."
    ),
    "cancelled": lambda e, w: f"The effect of “{w.card(e['card'])}” is cancelled.",
    "heal": lambda e, w: f"{w.who(e['seat'])} regains {e['amount']} health ({e['hp']}).",
    "vp": _vp_en,
    "damage": lambda e, w: (
        f"{w.who(e['seat'])} takes {e['amount']} damage{w.reason(e)}: health {e['hp']}."
    ),
    "raven": lambda e, w: f"{w.who(e['seat'])} turns into a raven.",
    "human": lambda e, w: f"{w.who(e['seat'])} returns to true form: health {e['hp']}.",
    "win_vp": lambda e, w: f"{w.who(e['seat'])} reaches {e['vp']} VP and wins!",
    "win_last": lambda e, w: f"{w.who(e['seat'])} is the last one in human form and wins!",
    "win_peck": lambda e, w: (
        f"{w.who(e['seat'])}'s peck turned every human into a raven — {w.who(e['seat'])} wins!"
    ),
    "add_self": lambda e, w: f"{w.who(e['seat'])} adds “{w.card(e['card'])}” to their cards.",
    "add_raven": lambda e, w: f"{w.who(e['seat'])} adds a Raven to {w.who(e['to'])}'s cards.",
    "no_heal": lambda e, w: "Nobody gains health this round.",
    "plan": lambda e, w: "Resolution tokens: " + ", ".join(map(w.suit, e["tokens"])) + ".",
    "no_attack": lambda e, w: "Nobody can attack this round.",
    "raven_dropped": lambda e, w: f"{w.who(e['seat'])} discards a Raven without effect.",
    "not_raven": lambda e, w: f"Foul: {w.who(e['seat'])} showed a card that is not a Raven.",
    "foretell": lambda e, w: f"{w.who(e['seat'])} foretells: {w.suit(e['suit'])}.",
    "foretold_not": lambda e, w: f"{w.who(e['seat'])}'s foretelling did not come true.",
    "foretold": lambda e, w: f"{w.who(e['seat'])}'s foretelling came true.",
    "discard_one": lambda e, w: f"{w.who(e['seat'])} discards a card.",
    "draw_main": lambda e, w: (
        f"{w.who(e['seat'])} draws {plural.en(e['count'], 'card', 'cards')} from the main deck."
    ),
    "rescue": lambda e, w: f"{w.who(e['seat'])} heals 2 in answer to lethal damage.",
    "illuminate": lambda e, w: "All Ravens are discarded without effect.",
    "justice": lambda e, w: "Everyone passes their cards back to whoever they got them from.",
    "reap": lambda e, w: "Everyone passes their cards on to whoever they passed to in the Draft.",
    "take": lambda e, w: f"{w.who(e['seat'])} takes a random card from {w.who(e['source'])}.",
    "blooding": lambda e, w: (
        f"{w.who(e['seat'])}: {w.card('blooding')} — +1 damage to {w.who(e['to'])}."
    ),
    "entomb": lambda e, w: "Light magic cards cannot be played next round.",
    "entrap": lambda e, w: f"{w.who(e['seat'])} swaps cards with {w.who(e['to'])}.",
    "extinguish": lambda e, w: "All Radiance cards are discarded.",
    "impair": lambda e, w: "All Healing cards are discarded.",
    "nightmare": lambda e, w: (
        f"{w.who(e['seat'])} discards all their cards ({w.card('nightmare')})."
    ),
    "scry_look": lambda e, w: (
        f"{w.who(e['seat'])} secretly looks at the order of the Resolution tokens."
    ),
    "scry_free": lambda e, w: f"{w.who(e['seat'])} does not pay for {w.card('scrye')}.",
    "scry_set": lambda e, w: (
        f"{w.who(e['seat'])} secretly sets the order of the Resolution tokens."
    ),
    "summon_keep": lambda e, w: f"{w.who(e['seat'])} keeps one card of the three.",
    "draw_magic": lambda e, w: (
        f"{w.who(e['seat'])} draws "
        + plural.en(
            e["count"],
            f"{'Light' if e['pile'] == 'light' else 'Shadow'} magic card",
            f"{'Light' if e['pile'] == 'light' else 'Shadow'} magic cards",
        )
        + "."
    ),
    "tax": lambda e, w: (
        f"{w.who(e['seat'])} takes a Light magic card from {w.who(e['source'])} ({w.card('tax')})."
    ),
    "light_lost": lambda e, w: (
        f"{w.who(e['seat'])} discards "
        f"{plural.en(e['count'], 'Light magic card', 'Light magic cards')} (Radiance reversed)."
    ),
    "sealed": lambda e, w: "Every player is ready for the Resolution.",
    "flock": lambda e, w: f"{w.who(e['seat'])}: a flock of ravens! The round ends.",
    "scry_none": lambda e, w: (
        f"{w.who(e['seat'])} did not reveal a token — chance decides the order."
    ),
    "token": _token,
    "shown": lambda e, w: f"{w.suit(e['suit'])}: {w.counts(e['counts']) or 'nobody has any'}.",
    "card_left": lambda e, w: f"Foul: {w.who(e['seat'])} still had a “{w.suit(e['card'])}” card.",
    "skulk": lambda e, w: "Hidden ravens: " + w.counts(e["counts"]),
    "skulk_no_shadow": lambda e, w: "Hidden ravens bring no Shadow magic cards this round.",
    "majority": lambda e, w: (
        f"Majority ({w.suit(e['suit'])}): {w.seats(e['seats'])} — {e['top']} against"
        f" {e['second']}, strength {e['amount']}."
    ),
    "steal": lambda e, w: (
        f"{w.who(e['seat'])} takes a “{w.suit(e['suit'])}” card from {w.who(e['source'])}."
    ),
    "attack_banned": lambda e, w: "Nobody may attack this round.",
    "betrayed_attack": lambda e, w: f"{w.who(e['seat'])} (Attack reversed) heals {w.who(e['to'])}.",
    "strike_all": lambda e, w: (
        f"{w.who(e['seat'])} strikes everyone for 1 (themselves included) for 2 VP."
    ),
    "attack": lambda e, w: f"{w.who(e['seat'])} attacks {w.who(e['to'])} for {e['amount']}.",
    "bolstered": lambda e, w: (
        f"{w.who(e['seat'])}: {w.card('bolster')} — healing instead of damage."
    ),
    "no_peck": lambda e, w: f"{w.who(e['seat'])} (a raven) does not peck.",
    "peck": lambda e, w: f"{w.who(e['seat'])} (a raven) pecks: {w.seats(e['targets'])}.",
    "five_radiance": lambda e, w: f"{w.who(e['seat'])}: five Radiance!",
}


def say(event: E, lang: str, names: Sequence[str]) -> str:
    """The sentence for ``event`` (an unknown kind is shown as its name)."""
    return plural.phrase_of(RU, EN, event, lang, Words(lang, names))
