"""English names and texts of catalog entries (``engine.catalog``), for the page in English.

«Схватка» comes from ``rumble_en``; «Волшебный круг» from the tables below; «Невермор» from its
catalog's own English names and ``nevermore_en``'s texts.
"""

from __future__ import annotations

from typing import Any

from . import rumble_en

CIRCLE_NAMES = {
    "fire": "FIRE",
    "wildfire": "WILDFIRE",
    "snowball": "SNOWBALL",
    "avalanche": "AVALANCHE",
    "ice_block": "ICE BLOCK",
    "hail": "HAIL",
    "chain_lightning": "CHAIN LIGHTNING",
    "spark": "SPARK",
    "burning_tar": "BURNING TAR",
    "dragon_breath": "DRAGON'S BREATH",
    "leech": "LEECH",
    "blood_moon": "BLOOD MOON",
    "hoarfrost": "HOARFROST",
    "blizzard": "BLIZZARD",
    "comet": "COMET",
    "doom": "DOOM",
    "magic_arrow": "MAGIC ARROW",
    "stone": "STONE",
    "meteor": "METEOR",
    "wind_left": "WIND",
    "wind_right": "WIND",
    "wind_all": "WIND",
    "dispel": "DISPEL",
    "shield": "SHIELD",
    "mirror": "MIRROR",
    "gust": "GUST",
}
CIRCLE_KEYWORDS = {
    "fan": ("FANNING", "Every second time the spell changes target, its power grows by 1."),
    "grow": ("GROWTH", "Every time the spell changes target, its power grows by 1."),
    "melt": (
        "MELTING",
        "Every time the spell changes target, its power drops by 1. At power 0 it melts away "
        "into the discard without touching anyone.",
    ),
    "chain": ("DISCHARGE", "On a hit, the victim's living neighbours left and right lose 1 life."),
    "burn": (
        "BURN",
        "On a hit it leaves a burn: at the start of the victim's next turn (when the totem "
        "comes to them) they lose 1 life.",
    ),
    "drain": (
        "VAMPIRISM",
        "On a hit, whoever last sent the spell at the victim gains 1 life (at most 5).",
    ),
    "frost": ("NUMBNESS", "On a hit, the victim draws no cards at the end of this turn."),
    "relentless": ("RELENTLESS", "This spell cannot be dispelled."),
}
CIRCLE_ACTIONS = {
    "wind_left": "Blows the spell to the nearest living player left of its target.",
    "wind_right": "Blows the spell to the nearest living player right of its target.",
    "wind_all": "Blows the spell to any living player, even across the table.",
    "dispel": "The spell goes to the spell discard without touching anyone. The scramble ends.",
    "shield": "Until the end of the turn, the first spell hit on you is absorbed: no damage, "
    "no effects.",
    "mirror": "The spell goes back to its previous target (a change of target).",
    "gust": "The spell's power grows by 1; its target stays.",
}
DIRECTIONS = {"влево": "left", "вправо": "right", "во все стороны": "all ways"}
NEVERMORE_SUITS = {
    "attack": "Attack",
    "healing": "Healing",
    "radiance": "Radiance",
    "victory": "Victory",
    "raven": "Raven",
}


def english(game: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The entry with its name, text and a few facts in English where known."""
    out = dict(entry)
    cid = str(entry["id"])
    if game == "rumble":
        out["name"] = rumble_en.name(cid, str(entry["name"]))
        out["text"] = rumble_en.text(cid, str(entry["text"]))
        if entry.get("school"):
            out["school_name"] = rumble_en.SCHOOLS.get(str(entry["school"]), entry["school_name"])
    elif game == "circle":
        out["name"] = CIRCLE_NAMES.get(cid, entry["name"])
        keyword = entry.get("keyword")
        if "power" in entry:
            word, text = CIRCLE_KEYWORDS.get(str(keyword), ("", ""))
            out["keyword_name"] = word or None
            out["text"] = f"Power {entry['power']}. " + (
                f"{word}: {text}" if word else "No keyword."
            )
        else:
            out["text"] = CIRCLE_ACTIONS.get(cid, entry["text"])
        if entry.get("direction"):
            out["direction"] = DIRECTIONS.get(str(entry["direction"]), entry["direction"])
    elif game == "nevermore":
        from .nevermore_en import text as nevermore_text

        out["text"] = nevermore_text(cid, str(entry["text"]))
        if entry.get("raven_text"):
            out["raven_text"] = nevermore_text(cid, str(entry["raven_text"]), raven=True)
        suit = entry.get("suit")
        if entry.get("deck") == "main" or (suit and str(entry.get("en", "")).startswith("Add")):
            out["name"] = NEVERMORE_SUITS.get(str(suit), entry["name"])
        elif entry.get("en"):
            out["name"] = (
                str(entry["en"]).replace("Fortell", "Foretell").replace("Pennance", "Penance")
            )
    return out
