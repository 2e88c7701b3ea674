"""Russian text generated from card effects, spell names, and small grammar helpers."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import WILD, Catalog, DiseaseCard, GhostCard, Op, SpellCard, TreasureCard

DATIVE = {
    "self": "себе",
    "left": "левому врагу",
    "right": "правому врагу",
    "neighbours": "каждому соседу",
    "weakest": "самому хилому врагу",
    "strongest": "самому живучему врагу",
    "random": "случайному врагу",
    "all_enemies": "каждому врагу",
    "all_players": "каждому магу, включая себя",
    "it": "цели",
}
ACCUSATIVE = {
    "self": "себя",
    "left": "левого врага",
    "right": "правого врага",
    "neighbours": "обоих соседей",
    "weakest": "самого хилого врага",
    "strongest": "самого живучего врага",
    "random": "случайного врага",
    "all_enemies": "всех врагов",
    "all_players": "всех магов, включая себя",
    "it": "цель",
}
NOMINATIVE = {
    "self": "вы",
    "left": "левый враг",
    "right": "правый враг",
    "neighbours": "оба соседа",
    "weakest": "самый хилый враг",
    "strongest": "самый живучий враг",
    "random": "случайный враг",
    "all_enemies": "все враги",
    "all_players": "все маги, включая вас",
    "it": "цель",
}
SLOT_GENITIVE = {"source": "заводилы", "quality": "наворота", "delivery": "прихода"}
BANDS = ("1–4", "5–9", "10+")


def plural(n: int, one: str, few: str, many: str) -> str:
    """``n`` with the Russian noun form that agrees with it: 1 карта, 2 карты, 5 карт."""
    tail = n % 100
    if 11 <= tail <= 14:
        word = many
    elif n % 10 == 1:
        word = one
    elif 2 <= n % 10 <= 4:
        word = few
    else:
        word = many
    return f"{n} {word}"


def damage_words(n: int) -> str:
    """«1 урон», «3 урона»."""
    return plural(n, "урон", "урона", "урона")


def life_words(n: int) -> str:
    """«1 жизнь», «2 жизни», «5 жизней»."""
    return plural(n, "жизнь", "жизни", "жизней")


def cards_count(n: int) -> str:
    """«1 карта», «2 карты», «5 карт» (nominative)."""
    return plural(n, "карта", "карты", "карт")


def cards_words(n: int) -> str:
    """«1 карту», «2 карты», «5 карт» (accusative)."""
    return plural(n, "карту", "карты", "карт")


PLURAL = ("neighbours", "all_enemies", "all_players")
EACH = {
    "left": "левый враг",
    "right": "правый враг",
    "neighbours": "каждый сосед",
    "weakest": "самый хилый враг",
    "strongest": "самый живучий враг",
    "random": "случайный враг",
    "all_enemies": "каждый враг",
    "all_players": "каждый маг, включая вас,",
    "it": "цель",
}


def op_text(op: Op) -> str:
    """One operation as a Russian sentence."""
    text = clause(op, plural=False)
    return text[:1].upper() + text[1:] + "."


def clause(op: Op, plural: bool) -> str:
    """One operation as a clause (lower case, no full stop). ``plural``: «цель» (``it``) means
    each of several targets — the power roll's target was plural."""
    kind = op["op"]
    target = op.get("target", "self")
    many = plural and target == "it"
    if kind == "damage":
        if target == "self":
            return f"получите {damage_words(op['amount'])}"
        whom = "каждой цели" if many else DATIVE[target]
        return f"нанесите {damage_words(op['amount'])} {whom}"
    if kind == "heal":
        return f"восстановите {life_words(op['amount'])}"
    if kind == "power":
        group = target in PLURAL
        # an extra effect inside a band belongs to that band: «10+: нанесите 4 урона цели и
        # получите 1 урон», never a separate sentence that reads as always
        bands = "; ".join(
            f"{BANDS[i]}: " + (" и ".join(clause(o, group) for o in band) or "ничего")
            for i, band in enumerate(op["bands"])
        )
        who = f"цели — {NOMINATIVE[target]}" if group else f"цель — {NOMINATIVE[target]}"
        return f"могучий бросок, {who}. {bands}"
    if kind == "infect":
        whom = "каждую цель" if many else ACCUSATIVE[target]
        return f"заразите {whom} (ЗПМП из мешка)"
    if kind == "infect_roll":
        faces = "1" if op["upto"] == 1 else f"1–{op['upto']}"
        if target == "self":
            return f"бросьте d6 на заражение: при {faces} тяните ЗПМП из мешка"
        who = "каждая цель" if many else EACH[target]
        return f"{who} бросает d6 на заражение: при {faces} тянет ЗПМП из мешка"
    if kind == "cure":
        amount = op.get("amount", 1)
        what = "одну свою ЗПМП" if amount == 1 else f"{amount} своих ЗПМП"
        return f"вылечите {what} на выбор (вечные не лечатся)"
    if kind == "transfer":
        return f"передайте одну свою ЗПМП на выбор {DATIVE[target]}"
    if kind == "treasure":
        n = op.get("count", 1)
        return f"возьмите {plural_words(n)}"
    if kind == "palace":
        return "захватите Хоромы"
    if kind == "add_card":
        return "откройте компонент с верха колоды и добавьте его в заклинание"
    if kind == "copy":
        return f"повторите эффект {SLOT_GENITIVE[op['slot']]} этого заклинания"
    raise ValueError(kind)


def plural_words(n: int) -> str:
    """«1 сокровище», «2 сокровища», «5 сокровищ»."""
    return plural(n, "сокровище", "сокровища", "сокровищ")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def effect_text(ops: list[Op]) -> str:
    """A whole effect list as Russian text."""
    return " ".join(op_text(op) for op in ops)


def spell_card_text(card: SpellCard, catalog: Catalog) -> str:
    """The rules text of a spell deck card, generated from its effect and flags."""
    if card["id"] == WILD:
        return (
            "Заменяет любой недостающий компонент: при раскрытии открывайте карты с верха "
            "колоды, пока не выпадет компонент нужного типа; остальные уходят в сброс."
        )
    parts: list[str] = []
    if card.get("boost"):
        parts.append("С усилением: +1 ко всем могучим броскам этого хода.")
    if card.get("creature"):
        parts.append("Тварь: при броске 5+ остаётся открытой и атакует снова в следующем ходу.")
    parts.append(effect_text(card["effect"]))
    if card.get("surprise"):
        parts.append(
            "Нежданчик: пока эта карта запечатана или подготовлена, но ещё не применена, она "
            "отменяет вашу смерть — все ваши ЗПМП вылечены, по жизни за каждую (без ЗПМП смерть "
            "остаётся)."
        )
    if card["slot"] == "delivery":
        parts.append(f"Инициатива {card['initiative']}.")
    return " ".join(parts)


def treasure_text(card: TreasureCard, catalog: Catalog) -> str:
    """A treasure's text, generated from its fields."""
    parts: list[str] = []
    if card.get("power"):
        parts.append(f"+{card['power']} ко всем вашим могучим броскам.")
    sign = card.get("sign")
    if sign:
        parts.append(f"Даёт знак школы «{catalog.schools[sign]['name']}».")
    if card.get("cloak"):
        parts.append(f"Каждый вражеский удар по вам меньше на {card['cloak']}.")
    if card.get("end_turn"):
        parts.append("В конце вашего хода: " + _lower_first(effect_text(card["end_turn"])))
    if card["kind"] == "active":
        parts.append(
            f"Раз за ход, в свой ход, сбросив {cards_words(card['cost'])} с руки: "
            + _lower_first(effect_text(card["effect"]))
        )
    if card.get("eternal"):
        parts.append("Вечное: не теряется при смерти и в новой схватке.")
    return " ".join(parts)


def ghost_text(card: GhostCard, catalog: Catalog) -> str:
    """A ghost card's text."""
    if card["when"] == "now":
        return "Сразу: " + _lower_first(effect_text(card["effect"]))
    parts = ["В следующей схватке:"]
    if card.get("life"):
        parts.append(f"+{life_words(card['life'])} на старте.")
    sign = card.get("sign")
    if sign:
        parts.append(f"знак школы «{catalog.schools[sign]['name']}» на всю схватку.")
    if card.get("treasure"):
        parts.append("сокровище на старте.")
    return " ".join(parts)


def disease_text(card: DiseaseCard, catalog: Catalog) -> str:
    """A disease kind's text."""
    special = card.get("special")
    parts: list[str] = []
    if special == "hepatitis":
        parts.append(
            "Пока ваше заклинание закрыто, уберите из него одну лишнюю карту тайно в сброс; "
            "место в очереди не меняется."
        )
    elif special == "warts":
        parts.append("Ваши эффекты по всем врагам или всем магам бьют одного выбранного врага.")
    elif special == "trindecit":
        parts.append("Сразу 2 урона вам, затем жетон возвращается в мешок.")
    sign = card.get("sign")
    if sign:
        parts.append(f"Даёт знак школы «{catalog.schools[sign]['name']}».")
    if card.get("end_turn"):
        parts.append("В конце вашего хода: " + _lower_first(effect_text(card["end_turn"])))
    if card.get("eternal"):
        parts.append("Вечная: переживает смерть и новую схватку.")
    return " ".join(parts)


def spell_name(cards: Sequence[tuple[SpellCard, str]]) -> str:
    """Name of a spell from its (card, slot) pairs: наворот, приход, «от» заводилы."""
    by_slot: dict[str, SpellCard] = {}
    for card, slot in cards:
        by_slot.setdefault(slot, card)
    delivery = by_slot.get("delivery")
    gender = delivery["gender"] if delivery else "n"
    words: list[str] = []
    if "quality" in by_slot:
        words.append(by_slot["quality"]["forms"][gender])
    words.append(delivery["name"] if delivery else "Заклинание")
    if "source" in by_slot:
        words.append("от " + by_slot["source"]["genitive"])
    return " ".join(words)
