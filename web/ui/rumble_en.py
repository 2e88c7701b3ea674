"""«Схватка» in English: card names, texts generated from the cards' effects (as the engine's
Russian ones are, in ``engine.games.rumble.text``), and spell names in English word order
(«Искрящийся Громовой Разряд от Лорда Искр» → "Sparkling Thunderbolt of the Spark Lord")."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

NAMES: dict[str, str] = {
    "src_spark_lord": "Spark Lord",
    "src_spark_ognevitsa": "Firemaid",
    "src_spark_arsonist": "Old Arsonist",
    "src_gloom_duchess": "Duchess of Dusk",
    "src_gloom_baron": "Bone Baron",
    "src_gloom_mourner": "Mourner",
    "src_storm_windbag": "Windbag",
    "src_storm_aunt": "Auntie Thunder",
    "src_storm_skipper": "Skipper Squall",
    "src_haze_maestro": "Maestro Mirage",
    "src_haze_mirror": "Mirror-Maker",
    "src_haze_whisper": "Whisperer",
    "src_thicket_grandpa": "Grandpa Windfall",
    "src_thicket_mother": "Forest Mother",
    "src_thicket_bogs": "Bog Master",
    "q_spark_sparkling": "Sparkling",
    "q_spark_scorching": "Scorching",
    "q_spark_stinging": "Stinging",
    "q_gloom_rotten": "Rotten",
    "q_gloom_grave": "Grave",
    "q_gloom_contagious": "Contagious",
    "q_storm_whirling": "Whirling",
    "q_storm_stormy": "Stormy",
    "q_storm_icy": "Icy",
    "q_haze_mirrored": "Mirrored",
    "q_haze_ghostly": "Ghostly",
    "q_haze_deceptive": "Deceptive",
    "q_thicket_thorny": "Thorny",
    "q_thicket_healing": "Healing",
    "q_thicket_dense": "Dense",
    "d_spark_thunderbolt": "Thunderbolt",
    "d_spark_salamander": "Fire Salamander",
    "d_spark_rain": "Flame Rain",
    "d_gloom_hand": "Bony Hand",
    "d_gloom_ghoul": "Ghoul",
    "d_gloom_cloud": "Plague Cloud",
    "d_storm_petrel": "Storm Petrel",
    "d_storm_twister": "Twister",
    "d_storm_shards": "Hail Shards",
    "d_haze_slumber": "Sleepy Haze",
    "d_haze_chimera": "Chimera",
    "d_haze_crooked": "Crooked Mirror",
    "d_thicket_troll": "Forest Troll",
    "d_thicket_thorns": "Poison Thorns",
    "d_thicket_rootbreaker": "Rootbreaker",
    "wild": "Wild Magic",
    "t_power": "Rod of Might",
    "t_sign_spark": "Spark Amulet",
    "t_sign_gloom": "Black Candle",
    "t_sign_storm": "Storm Compass",
    "t_sign_haze": "Mask of Mirage",
    "t_sign_thicket": "Thicket Acorn",
    "t_cloak": "Scaly Cloak",
    "t_bone_crown": "Bone Crown",
    "t_thunder_stick": "Thunder Stick",
    "t_sling": "Sling",
    "t_potion": "Bottle of Tonic",
    "t_leeches": "Jar of Leeches",
    "t_black_letter": "Black Envelope",
    "t_poker": "Poker of Scandal",
    "t_abyss_chest": "Chest of the Abyss",
    "t_fire_bomb": "Fire Bomb",
    "t_sneeze_powder": "Sneezing Powder",
    "t_palace_key": "Key to the Palace",
    "t_hot_water_bottle": "Hot-Water Bottle",
    "t_spiked_collar": "Spiked Collar",
    "t_eternal_staff": "Eternal Staff",
    "g_otherworld_blow": "Blow from Beyond",
    "g_grave_draft": "Grave Draught",
    "g_hex": "Hex",
    "g_pinch": "Ghostly Pinch",
    "g_howl": "Howl in the Ear",
    "g_revenge": "Posthumous Revenge",
    "g_icy_touch": "Icy Touch",
    "g_dead_mans_palace": "Palace for the Dead",
    "g_bony_kick": "Bony Kick",
    "g_second_wind": "Second Wind",
    "g_stubborn": "Stubbornness",
    "g_sign_spark": "Spark from Beyond",
    "g_sign_gloom": "Grave Sign",
    "g_sign_storm": "Posthumous Wind",
    "g_sign_haze": "Mist of Oblivion",
    "g_sign_thicket": "Ancestral Roots",
    "g_inheritance": "Inheritance",
    "hepatitis": "Hepatitis Y",
    "warts": "Witch Warts",
    "trindecit": "Blabberitis",
    "eternal_hiccup": "Eternal Hiccups",
    "eternal_yawn": "Incurable Yawning",
    "bonebreak": "Bonebreak",
    "sneezles": "Sneezles",
    "sparkpox": "Sparkpox",
    "bog_fever": "Bog Fever",
    "gloomy_blues": "Gloomy Blues",
    "palace": "Palace of Passion",
    "surprise": "Surprise",
    "h_1": "Clara Lightning",
    "h_2": "Thunderbeard",
    "h_3": "Sister Darkness",
    "h_4": "Pan Mist",
    "h_5": "Granny Rootwort",
    "h_6": "Ginger Conjurer",
    "h_7": "Widow Blizzard",
    "h_8": "Count Soothsayer",
}
SCHOOLS = {
    "spark": "Spark",
    "gloom": "Gloom",
    "storm": "Storm",
    "haze": "Mirage",
    "thicket": "Thicket",
}
# «от Лорда Искр» → "of the Spark Lord": names that take no article.
NO_ARTICLE = {"src_storm_aunt", "src_storm_skipper", "src_haze_maestro", "src_thicket_grandpa"}
SPECIAL_TEXTS = {
    "palace": (
        "The Palace's owner is safe from other wizards' infections and from diseases passed on; "
        "their own cards infect them as usual. Whoever kills the owner takes the Palace. In a "
        "new fight the Palace goes back to the middle unless a ghost seized it."
    ),
    "surprise": (
        "A mark on some components. A sealed card with a Surprise that has not been applied yet "
        "cancels your death: all your diseases are cured and you gain 1 life for each. Without "
        "diseases you still die. It does not save you from your hand or once applied."
    ),
}
HERO_TEXT = "Hero: looks only."
TARGET = {
    "self": "yourself",
    "left": "the left enemy",
    "right": "the right enemy",
    "neighbours": "each neighbour",
    "weakest": "the weakest enemy",
    "strongest": "the toughest enemy",
    "random": "a random enemy",
    "all_enemies": "each enemy",
    "all_players": "each wizard, you included",
    "it": "the target",
}
SUBJECT = {
    "left": "the left enemy rolls",
    "right": "the right enemy rolls",
    "neighbours": "each neighbour rolls",
    "weakest": "the weakest enemy rolls",
    "strongest": "the toughest enemy rolls",
    "random": "a random enemy rolls",
    "all_enemies": "each enemy rolls",
    "all_players": "each wizard, you included, rolls",
    "it": "the target rolls",
}
PLURAL = ("neighbours", "all_enemies", "all_players")
BANDS = ("1–4", "5–9", "10+")
SLOT = {"source": "source", "quality": "quality", "delivery": "delivery"}


def name(card_id: str | None, russian: str = "") -> str:
    """A card's English name (its Russian one if it has none)."""
    return NAMES.get(card_id or "", russian or (card_id or "?"))


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def clause(op: dict[str, Any], plural: bool = False) -> str:
    """One operation as an English clause (lower case, no full stop)."""
    kind = op["op"]
    target = op.get("target", "self")
    many = plural and target == "it"
    whom = "each target" if many else TARGET.get(target, target)
    if kind == "damage":
        if target == "self":
            return f"take {op['amount']} damage"
        return f"deal {op['amount']} damage to {whom}"
    if kind == "heal":
        return f"restore {_n(op['amount'], 'life')}".replace("lifes", "lives")
    if kind == "power":
        group = target in PLURAL
        bands = "; ".join(
            f"{BANDS[i]}: " + (" and ".join(clause(o, group) for o in band) or "nothing")
            for i, band in enumerate(op["bands"])
        )
        who = "targets" if group else "target"
        return f"mighty roll, {who}: {TARGET.get(target, target)}. {bands}"
    if kind == "infect":
        return f"infect {whom} (a disease from the bag)"
    if kind == "infect_roll":
        faces = "1" if op["upto"] == 1 else f"1–{op['upto']}"
        if target == "self":
            return f"roll d6 for infection: on {faces} draw a disease from the bag"
        who = "each target rolls" if many else SUBJECT.get(target, target)
        return f"{who} d6 for infection: on {faces} draws a disease from the bag"
    if kind == "cure":
        amount = op.get("amount", 1)
        what = "one of your diseases" if amount == 1 else f"{amount} of your diseases"
        return f"cure {what} of your choice (eternal ones stay)"
    if kind == "transfer":
        return f"pass one of your diseases of your choice to {TARGET.get(target, target)}"
    if kind == "treasure":
        return f"take {_n(op.get('count', 1), 'treasure')}"
    if kind == "palace":
        return "seize the Palace"
    if kind == "add_card":
        return "turn up the top component of the deck and add it to the spell"
    if kind == "copy":
        return f"repeat the effect of this spell's {SLOT.get(op['slot'], op['slot'])}"
    return kind


def effect_text(ops: list[dict[str, Any]]) -> str:
    return " ".join(_sentence(clause(op)) for op in ops)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def spell_text(card: Mapping[str, Any]) -> str:
    if card["id"] == "wild":
        return (
            "Stands in for any missing component: when revealed, turn up cards from the top of "
            "the deck until a component of the needed kind appears; the rest are discarded."
        )
    parts = []
    if card.get("boost"):
        parts.append("Boost: +1 to every mighty roll this turn.")
    if card.get("creature"):
        parts.append("Creature: on a roll of 5+ it stays face up and attacks again next turn.")
    parts.append(effect_text(card["effect"]))
    if card.get("surprise"):
        parts.append(
            "Surprise: while this card is sealed or prepared but not applied yet, it cancels "
            "your death — all your diseases are cured, 1 life for each (without diseases you "
            "still die)."
        )
    if card["slot"] == "delivery":
        parts.append(f"Initiative {card['initiative']}.")
    return " ".join(parts)


def treasure_text(card: Mapping[str, Any]) -> str:
    parts = []
    if card.get("power"):
        parts.append(f"+{card['power']} to all your mighty rolls.")
    if card.get("sign"):
        parts.append(f"Gives the sign of the «{SCHOOLS[card['sign']]}» school.")
    if card.get("cloak"):
        parts.append(f"Every enemy hit on you is {card['cloak']} smaller.")
    if card.get("end_turn"):
        parts.append("At the end of your turn: " + _lower(effect_text(card["end_turn"])))
    if card.get("kind") == "active":
        cost = _n(card["cost"], "card")
        parts.append(
            f"Once a turn, on your turn, discarding {cost} from your hand: "
            + _lower(effect_text(card["effect"]))
        )
    if card.get("eternal"):
        parts.append("Eternal: kept through death and into a new fight.")
    return " ".join(parts)


def ghost_text(card: Mapping[str, Any]) -> str:
    if card["when"] == "now":
        return "At once: " + _lower(effect_text(card["effect"]))
    parts = ["In the next fight:"]
    if card.get("life"):
        parts.append(f"+{_n(card['life'], 'life').replace('lifes', 'lives')} at the start.")
    if card.get("sign"):
        parts.append(f"the sign of the «{SCHOOLS[card['sign']]}» school all fight long.")
    if card.get("treasure"):
        parts.append("a treasure at the start.")
    return " ".join(parts)


def disease_text(card: Mapping[str, Any]) -> str:
    special = card.get("special")
    parts = []
    if special == "hepatitis":
        parts.append(
            "While your spell is sealed, secretly discard one extra card from it; your place in "
            "the queue stays."
        )
    elif special == "warts":
        parts.append("Your effects on all enemies or all wizards hit one chosen enemy.")
    elif special == "trindecit":
        parts.append("At once 2 damage to you, then the token goes back to the bag.")
    if card.get("sign"):
        parts.append(f"Gives the sign of the «{SCHOOLS[card['sign']]}» school.")
    if card.get("end_turn"):
        parts.append("At the end of your turn: " + _lower(effect_text(card["end_turn"])))
    if card.get("eternal"):
        parts.append("Eternal: survives death and a new fight.")
    return " ".join(parts)


@cache
def texts() -> dict[str, str]:
    """Every card's English text by id."""
    from engine.games.rumble.cards import load_catalog

    cat = load_catalog()
    out = {cid: spell_text(card) for cid, card in cat.spells.items()}
    out |= {cid: treasure_text(card) for cid, card in cat.treasures.items()}
    out |= {cid: ghost_text(card) for cid, card in cat.ghosts.items()}
    out |= {cid: disease_text(card) for cid, card in cat.diseases.items()}
    out |= SPECIAL_TEXTS
    out |= {hid: HERO_TEXT for hid in cat.heroes}
    return out


def text(card_id: str | None, russian: str = "") -> str:
    return texts().get(card_id or "", russian)


def spell_name(card_ids: list[str]) -> str:
    """A spell's English name from its cards: quality, delivery, "of" the source."""
    from engine.games.rumble.cards import load_catalog

    spells = load_catalog().spells
    by_slot: dict[str, str] = {}
    for cid in card_ids:
        card = spells.get(cid)
        if card is not None and cid != "wild":
            by_slot.setdefault(str(card["slot"]), cid)
    words = []
    if "quality" in by_slot:
        words.append(name(by_slot["quality"]))
    words.append(name(by_slot["delivery"]) if "delivery" in by_slot else "Spell")
    if "source" in by_slot:
        source = by_slot["source"]
        words.append("of " + ("" if source in NO_ARTICLE else "the ") + name(source))
    return " ".join(words)
