"""«Схватка»'s log in words: one phrase per event, in Russian (the engine's own sentences,
checked by the digests of ``tests/engine`` and ``tests/rumble``) and English."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from engine.games.rumble.text import (
    SLOT_GENITIVE,
    cards_count,
    cards_words,
    damage_words,
    life_words,
    spell_name,
)

from .. import rumble_en
from . import plural

E = dict[str, Any]

SLOT_EN = {"source": "source", "quality": "quality", "delivery": "delivery"}
WHY = {"warts": "Ведьмины бородавки", "weakest": "самый хилый", "strongest": "самый живучий"}
WHY_EN = {"warts": "Witch Warts", "weakest": "the weakest", "strongest": "the toughest"}


@cache
def _default() -> Any:
    from engine.games.rumble.cards import load_catalog

    return load_catalog()


class Words(plural.SeatWords):
    """What a phrase needs besides the event: seat names, card names in the language (from the
    game's catalog: the standard one unless a scenario brings its own)."""

    def __init__(self, lang: str, names: Sequence[str], catalog: Any = None) -> None:
        super().__init__(lang, names)
        self.cat = catalog if catalog is not None else _default()

    def who(self, seat: Any) -> str:
        if seat is None:
            return "никто" if self.lang == "ru" else "nobody"
        return super().who(seat)

    def _named(self, table: dict[str, Any], key: str) -> str:
        card = table.get(key)
        russian = str(card["name"]) if card else key
        return rumble_en.name(key, russian) if self.lang == "en" else russian

    def spell(self, card: str) -> str:
        return self._named(self.cat.spells, card)

    def treasure(self, tid: str) -> str:
        return self._named(self.cat.treasures, tid)

    def ghost(self, gid: str) -> str:
        return self._named(self.cat.ghosts, gid)

    def disease(self, token: str) -> str:
        return self._named(self.cat.diseases, token.split("#")[0])

    def cast(self, cards: list[list[str]]) -> str:
        """The spell's name from its (card, slot) pairs."""
        if self.lang == "en":
            return rumble_en.spell_name([c for c, _ in cards])
        return spell_name([(self.cat.spells[c], slot) for c, slot in cards])

    def seats(self, seats: list[int]) -> str:
        return ", ".join(self.who(s) for s in seats)


def _power(e: E, w: Words) -> str:
    shown = "+".join(str(d) for d in e["dice"]) or "0"
    extra = f" +{e['bonus']}" if e["bonus"] else ""
    if w.lang == "ru":
        return f"{w.who(e['seat'])}: могучий бросок {e['n']}d6: {shown}{extra} = {e['total']}."
    return f"{w.who(e['seat'])}: power roll {e['n']}d6: {shown}{extra} = {e['total']}."


def _hurt(e: E, w: Words) -> str:
    who, by = w.who(e["seat"]), e.get("by")
    if w.lang == "ru":
        origin = "" if by is None else f" (бьёт {w.who(by)})"
        return f"{who} получает {damage_words(e['amount'])}{origin}: жизней {e['life']}."
    origin = "" if by is None else f" from {w.who(by)}"
    return (
        f"{who} takes {plural.en(e['amount'], 'damage', 'damage')}{origin}:"
        f" {plural.en(e['life'], 'life', 'lives')} left."
    )


def _fizzles(e: E, w: Words) -> str:
    if w.lang == "ru":
        why = "Колода и сброс перебраны" if e["spent"] else "Колода пуста"
        return f"{why}, нет ни одного {SLOT_GENITIVE[e['slot']]}: шальная магия рассеивается."
    why = "Deck and discard searched through" if e["spent"] else "The deck is empty"
    return f"{why}, not a single {SLOT_EN[e['slot']]}: the wild magic fizzles."


RU: dict[str, Callable[[E, Words], str]] = {
    "reshuffle": lambda e, w: "Колода кончилась: сброс перемешан и стал колодой.",
    "no_treasure": lambda e, w: "Сокровищ не осталось.",
    "treasure": lambda e, w: (
        f"{w.who(e['seat'])} получает сокровище «{w.treasure(e['treasure'])}»."
    ),
    "target": lambda e, w: (
        f"{w.who(e['seat'])} выбирает цель ({WHY[e['why']]}): {w.who(e['target'])}."
    ),
    "victim": lambda e, w: (
        f"Бросок на случайную жертву: {e['roll']} — "
        + ("перебрасывается" if e["seat"] is None else w.who(e["seat"]))
        + "."
    ),
    "power": _power,
    "guard_infect": lambda e, w: f"{w.who(e['seat'])} под защитой Хоромов: заражение не прошло.",
    "guard_transfer": lambda e, w: f"{w.who(e['seat'])} под защитой Хоромов: передача не удалась.",
    "infect_roll": lambda e, w: (
        f"{w.who(e['seat'])} бросает на заражение: {e['roll']} — "
        + ("заражается" if e["sick"] else "обходится")
        + "."
    ),
    "cure": lambda e, w: f"{w.who(e['seat'])} вылечивает «{w.disease(e['disease'])}».",
    "nothing_to_pass": lambda e, w: f"{w.who(e['seat'])}: передавать нечего.",
    "transfer": lambda e, w: (
        f"{w.who(e['seat'])} передаёт «{w.disease(e['disease'])}» — {w.who(e['target'])}."
    ),
    "palace": lambda e, w: f"{w.who(e['seat'])} захватывает Хоромы.",
    "no_component": lambda e, w: "В колоде и сбросе нет компонента: компонент не добавлен.",
    "wild_drawn": lambda e, w: "С колоды открыта шальная магия — в сброс.",
    "component": lambda e, w: f"В заклинание добавлен компонент «{w.spell(e['card'])}».",
    "copy": lambda e, w: f"Копия эффекта {SLOT_GENITIVE[e['slot']]} «{w.spell(e['card'])}».",
    "copy_none": lambda e, w: f"Копировать нечего: в заклинании нет {SLOT_GENITIVE[e['slot']]}.",
    "turn": lambda e, w: f"Ход: {w.who(e['seat'])}.",
    "open": lambda e, w: (
        f"{w.who(e['seat'])} раскрывает заклинание: "
        f"{', '.join(w.spell(c) for c in e['cards'])}; инициатива {e['initiative']}."
    ),
    "wild_fizzles": _fizzles,
    "wild_miss": lambda e, w: f"Шальная магия: открыта «{w.spell(e['card'])}» — в сброс.",
    "wild_becomes": lambda e, w: f"Шальная магия становится «{w.spell(e['card'])}».",
    "cast": lambda e, w: f"{w.who(e['seat'])} творит «{w.cast(e['cards'])}».",
    "card": lambda e, w: f"{w.who(e['seat'])}: {w.spell(e['card'])}.",
    "creature_stays": lambda e, w: f"Тварь «{w.spell(e['card'])}» остаётся на столе.",
    "creature_again": lambda e, w: (
        f"{w.who(e['seat'])}: тварь «{w.spell(e['card'])}» атакует снова."
    ),
    "creature_gone": lambda e, w: f"Тварь «{w.spell(e['card'])}» уходит в сброс.",
    "use_treasure": lambda e, w: (
        f"{w.who(e['seat'])} применяет «{w.treasure(e['treasure'])}», сбросив: "
        f"{', '.join(w.spell(c) for c in e['paid'])}."
    ),
    "disease_turn": lambda e, w: f"{w.who(e['seat'])}: конец хода, «{w.disease(e['disease'])}».",
    "survivor": lambda e, w: f"Схватка окончена: медаль выжившего — {w.who(e['seat'])}.",
    "game_over": lambda e, w: "Партия окончена. Победа: " + w.seats(e["winners"]),
    "heal": lambda e, w: f"{w.who(e['seat'])} восстанавливает {life_words(e['gained'])}.",
    "cloak": lambda e, w: f"{w.who(e['seat'])}: Чешуйчатый плащ смягчает удар до {e['amount']}.",
    "zero_hit": lambda e, w: f"{w.who(e['seat'])}: удар в 0 жизней — ничего не происходит.",
    "sacrifice": lambda e, w: (
        f"{w.who(e['seat'])} жертвует тварью «{w.spell(e['card'])}» и поглощает "
        f"{damage_words(e['amount'])}."
    ),
    "hurt": _hurt,
    "bag_empty": lambda e, w: "Мешок ЗПМП пуст.",
    "catch": lambda e, w: f"{w.who(e['seat'])} вытягивает ЗПМП «{w.disease(e['disease'])}».",
    "hepatitis": lambda e, w: f"Гепатит Ы: {w.who(e['seat'])} тайно убирает карту из заклинания.",
    "surprise": lambda e, w: f"{w.who(e['seat'])} раскрывает Нежданчик!",
    "surprise_none": lambda e, w: "Нежданчик: ЗПМП нет, лечить нечего — смерть остаётся.",
    "surprise_saves": lambda e, w: (
        f"Нежданчик отменяет смерть: вылечено ЗПМП — {e['count']}; "
        f"{w.who(e['seat'])}: жизней теперь {e['count']}."
    ),
    "forfeit": lambda e, w: f"{w.who(e['seat'])} отсутствует: заклинание не будет сотворено.",
    "dies": lambda e, w: f"{w.who(e['seat'])} погибает.",
    "kill_medal": lambda e, w: f"{w.who(e['seat'])} получает медаль за убийство.",
    "palace_back": lambda e, w: "Хоромы возвращаются в центр.",
    "palace_taken": lambda e, w: f"{w.who(e['seat'])} забирает Хоромы.",
    "fight": lambda e, w: f"Схватка {e['fight']}!",
    "ghost_palace": lambda e, w: f"Хоромы, захваченные призраком, остаются: {w.who(e['seat'])}.",
    "ghost_life": lambda e, w: f"{w.who(e['seat'])}: «{w.ghost(e['ghost'])}» — жизней {e['life']}.",
    "ghost_sign": lambda e, w: f"{w.who(e['seat'])}: призрачный знак «{w.ghost(e['ghost'])}».",
    "round": lambda e, w: f"Раунд {e['round']}.",
    "ghost_draw": lambda e, w: f"{w.who(e['seat'])} (призрак) тянет карту «{w.ghost(e['ghost'])}».",
    "refill": lambda e, w: "Маги добирают руку до 8 карт.",
    "empty_hand": lambda e, w: f"{w.who(e['seat'])}: пустая рука — колдовство пропущено.",
    "no_seal": lambda e, w: f"{w.who(e['seat'])} не запечатал заклинание — пропускает колдовство.",
    "seal": lambda e, w: f"{w.who(e['seat'])} запечатывает {cards_words(e['count'])}.",
    "queue": lambda e, w: (
        "Очередь: " + ", ".join(f"{w.who(s)} ({cards_count(n)})" for s, n in e["queue"]) + "."
    ),
    "rolloff": lambda e, w: (
        "Жребий за место в очереди: " + ", ".join(f"{w.who(s)} — {r}" for s, r in e["rolls"]) + "."
    ),
}


def _cards(n: int) -> str:
    return plural.en(n, "card", "cards")


EN: dict[str, Callable[[E, Words], str]] = {
    "reshuffle": lambda e, w: "The deck ran out: the discard is shuffled into a new deck.",
    "no_treasure": lambda e, w: "No treasures are left.",
    "treasure": lambda e, w: (
        f"{w.who(e['seat'])} gains the treasure “{w.treasure(e['treasure'])}”."
    ),
    "target": lambda e, w: (
        f"{w.who(e['seat'])} picks the target ({WHY_EN[e['why']]}): {w.who(e['target'])}."
    ),
    "victim": lambda e, w: (
        f"Roll for a random victim: {e['roll']} — "
        + ("roll again" if e["seat"] is None else w.who(e["seat"]))
        + "."
    ),
    "power": _power,
    "guard_infect": lambda e, w: f"{w.who(e['seat'])} is guarded by the Palace: no infection.",
    "guard_transfer": lambda e, w: f"{w.who(e['seat'])} is guarded by the Palace: no transfer.",
    "infect_roll": lambda e, w: (
        f"{w.who(e['seat'])} rolls against infection: {e['roll']} — "
        + ("infected" if e["sick"] else "spared")
        + "."
    ),
    "cure": lambda e, w: f"{w.who(e['seat'])} is cured of “{w.disease(e['disease'])}”.",
    "nothing_to_pass": lambda e, w: f"{w.who(e['seat'])} has nothing to pass on.",
    "transfer": lambda e, w: (
        f"{w.who(e['seat'])} passes “{w.disease(e['disease'])}” to {w.who(e['target'])}."
    ),
    "palace": lambda e, w: f"{w.who(e['seat'])} seizes the Palace.",
    "no_component": lambda e, w: "No component in the deck or discard: none is added.",
    "wild_drawn": lambda e, w: "Wild magic turned up from the deck — discarded.",
    "component": lambda e, w: f"The component “{w.spell(e['card'])}” is added to the spell.",
    "copy": lambda e, w: f"Copy of the {SLOT_EN[e['slot']]} effect “{w.spell(e['card'])}”.",
    "copy_none": lambda e, w: f"Nothing to copy: the spell has no {SLOT_EN[e['slot']]}.",
    "turn": lambda e, w: f"Turn: {w.who(e['seat'])}.",
    "open": lambda e, w: (
        f"{w.who(e['seat'])} reveals the spell: "
        f"{', '.join(w.spell(c) for c in e['cards'])}; initiative {e['initiative']}."
    ),
    "wild_fizzles": _fizzles,
    "wild_miss": lambda e, w: f"Wild magic: “{w.spell(e['card'])}” turned up — discarded.",
    "wild_becomes": lambda e, w: f"The wild magic becomes “{w.spell(e['card'])}”.",
    "cast": lambda e, w: f"{w.who(e['seat'])} casts “{w.cast(e['cards'])}”.",
    "card": lambda e, w: f"{w.who(e['seat'])}: {w.spell(e['card'])}.",
    "creature_stays": lambda e, w: f"The creature “{w.spell(e['card'])}” stays on the table.",
    "creature_again": lambda e, w: (
        f"{w.who(e['seat'])}: the creature “{w.spell(e['card'])}” attacks again."
    ),
    "creature_gone": lambda e, w: f"The creature “{w.spell(e['card'])}” goes to the discard.",
    "use_treasure": lambda e, w: (
        f"{w.who(e['seat'])} uses “{w.treasure(e['treasure'])}”, discarding: "
        f"{', '.join(w.spell(c) for c in e['paid'])}."
    ),
    "disease_turn": lambda e, w: f"{w.who(e['seat'])}: end of turn, “{w.disease(e['disease'])}”.",
    "survivor": lambda e, w: f"The fight is over: the survivor's medal goes to {w.who(e['seat'])}.",
    "game_over": lambda e, w: "The game is over. Winners: " + w.seats(e["winners"]),
    "heal": lambda e, w: f"{w.who(e['seat'])} regains {plural.en(e['gained'], 'life', 'lives')}.",
    "cloak": lambda e, w: f"{w.who(e['seat'])}: the Scaly Cloak softens the hit to {e['amount']}.",
    "zero_hit": lambda e, w: f"{w.who(e['seat'])}: a hit of 0 — nothing happens.",
    "sacrifice": lambda e, w: (
        f"{w.who(e['seat'])} sacrifices the creature “{w.spell(e['card'])}” and absorbs "
        f"{e['amount']} damage."
    ),
    "hurt": _hurt,
    "bag_empty": lambda e, w: "The disease bag is empty.",
    "catch": lambda e, w: f"{w.who(e['seat'])} draws the disease “{w.disease(e['disease'])}”.",
    "hepatitis": lambda e, w: (
        f"Hepatitis Y: {w.who(e['seat'])} secretly removes a card from the spell."
    ),
    "surprise": lambda e, w: f"{w.who(e['seat'])} reveals a Surprise!",
    "surprise_none": lambda e, w: "Surprise: no diseases to cure — the death stands.",
    "surprise_saves": lambda e, w: (
        f"The Surprise cancels the death: {plural.en(e['count'], 'disease', 'diseases')} cured;"
        f" {w.who(e['seat'])} now has {plural.en(e['count'], 'life', 'lives')}."
    ),
    "forfeit": lambda e, w: f"{w.who(e['seat'])} is away: the spell will not be cast.",
    "dies": lambda e, w: f"{w.who(e['seat'])} dies.",
    "kill_medal": lambda e, w: f"{w.who(e['seat'])} earns a kill medal.",
    "palace_back": lambda e, w: "The Palace returns to the centre.",
    "palace_taken": lambda e, w: f"{w.who(e['seat'])} takes the Palace.",
    "fight": lambda e, w: f"Fight {e['fight']}!",
    "ghost_palace": lambda e, w: f"The Palace seized by a ghost stays with {w.who(e['seat'])}.",
    "ghost_life": lambda e, w: (
        f"{w.who(e['seat'])}: “{w.ghost(e['ghost'])}” — {plural.en(e['life'], 'life', 'lives')}."
    ),
    "ghost_sign": lambda e, w: f"{w.who(e['seat'])}: ghostly sign “{w.ghost(e['ghost'])}”.",
    "round": lambda e, w: f"Round {e['round']}.",
    "ghost_draw": lambda e, w: (
        f"{w.who(e['seat'])} (a ghost) draws the card “{w.ghost(e['ghost'])}”."
    ),
    "refill": lambda e, w: "The wizards draw up to 8 cards.",
    "empty_hand": lambda e, w: f"{w.who(e['seat'])}: empty hand — no spell this round.",
    "no_seal": lambda e, w: f"{w.who(e['seat'])} sealed no spell — no casting this round.",
    "seal": lambda e, w: f"{w.who(e['seat'])} seals {_cards(e['count'])}.",
    "queue": lambda e, w: (
        "Order: " + ", ".join(f"{w.who(s)} ({_cards(n)})" for s, n in e["queue"]) + "."
    ),
    "rolloff": lambda e, w: (
        "Roll-off for the order: " + ", ".join(f"{w.who(s)} — {r}" for s, r in e["rolls"]) + "."
    ),
}


def say(event: E, lang: str, names: Sequence[str], catalog: Any = None) -> str:
    """The sentence for ``event`` (an unknown kind is shown as its name)."""
    return plural.phrase_of(RU, EN, event, lang, Words(lang, names, catalog))
