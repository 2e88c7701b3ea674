"""A small picture before each log line: what kind of thing happened (a hit, a heal, a roll...).

Each game's event kinds («Схватка», «Волшебный круг», «Невермор») map to a few shared
categories; each category is one icon of the game-icons.net set, a glyph of the icon font the
build writes to ``fonts/log-icons.woff2`` (web/assets/log_art.py) at its code point in
``GLYPHS``, which style.css puts before the line in the line's colour. Pure Python: the views
and the build use it.
"""

from __future__ import annotations

from html import escape
from typing import Any

# category → game-icons name
ICONS: dict[str, str] = {
    "round": "hourglass",
    "deal": "card-draw",
    "seal": "wax-seal",
    "cast": "magic-swirl",
    "card": "spell-book",
    "dice": "rolling-dices",
    "hurt": "broken-heart",
    "heal": "healing",
    "death": "tombstone",
    "creature": "wolf-head",
    "disease": "virus",
    "treasure": "open-treasure-chest",
    "palace": "castle",
    "ghost": "ghost",
    "win": "trophy-cup",
    "turn": "player-next",
    "shield": "checked-shield",
    "wind": "wind-slap",
    "fire": "flame",
    "frost": "snowflake-1",
    "totem": "totem",
    "raven": "raven",
    "light": "sun",
    "shadow": "moon",
    "score": "laurel-crown",
    "foresight": "crystal-ball",
    "info": "info",
}

# category → its glyph in the log's icon font: private-use code points, in the categories' order
GLYPHS: dict[str, str] = {name: chr(0xE000 + i) for i, name in enumerate(sorted(ICONS))}

# game → category → its event kinds; a kind not listed is drawn as "info"
GROUPS: dict[str, dict[str, tuple[str, ...]]] = {
    "rumble": {
        "round": ("fight", "round", "queue", "rolloff"),
        "deal": ("refill", "reshuffle", "ghost_draw", "empty_hand"),
        "seal": ("seal", "no_seal", "forfeit", "hepatitis"),
        "cast": ("open", "cast"),
        "card": (
            *("card", "component", "no_component", "copy", "copy_none", "target"),
            *("wild_drawn", "wild_fizzles", "wild_miss", "wild_becomes"),
        ),
        "dice": ("power", "victim", "infect_roll"),
        "hurt": ("hurt", "zero_hit", "cloak"),
        "heal": ("heal", "cure", "surprise", "surprise_saves", "surprise_none"),
        "death": ("dies",),
        "creature": ("creature_stays", "creature_again", "creature_gone", "sacrifice"),
        "disease": ("catch", "bag_empty", "disease_turn", "transfer", "nothing_to_pass"),
        "treasure": ("treasure", "no_treasure", "use_treasure"),
        "palace": ("palace", "palace_back", "palace_taken", "guard_infect", "guard_transfer"),
        "ghost": ("ghost_palace", "ghost_life", "ghost_sign"),
        "win": ("survivor", "game_over", "kill_medal"),
        "turn": ("turn",),
    },
    "circle": {
        "deal": ("draw", "reshuffle", "empty", "spells_back"),
        "cast": ("spell", "change"),
        "card": ("play",),
        "hurt": ("hit", "chain", "drain"),
        "death": ("out", "nobody"),
        "win": ("win",),
        "shield": ("shield", "shielded", "dispel", "melt"),
        "wind": ("gust",),
        "fire": ("burn", "burned"),
        "frost": ("frost", "frozen"),
        "totem": ("totem",),
    },
    "nevermore": {
        "round": ("start", "round", "round_limit", "first_dealer", "dealer_draw", "sealed"),
        "deal": (
            *("restock", "new_deck", "passed", "draw_main", "draw_magic", "discard_one"),
            *("justice", "reap", "take", "entrap", "summon_keep", "steal", "card_left"),
        ),
        "card": ("play", "unplayable", "cancelled", "add_self"),
        "light": ("illuminate", "extinguish", "impair", "entomb", "tax", "light_lost"),
        "shadow": ("nightmare", "blooding"),
        "frost": ("frozen",),
        "heal": ("heal", "rescue", "bolstered", "no_heal", "human"),
        "hurt": ("damage", "attack", "strike_all", "betrayed_attack", "attack_banned", "no_attack"),
        "raven": (
            *("raven", "add_raven", "raven_dropped", "not_raven", "peck", "no_peck", "flock"),
            *("skulk", "skulk_no_shadow"),
        ),
        "foresight": (
            *("new_tokens", "plan", "token", "foretell", "foretold", "foretold_not"),
            *("scry_look", "scry_free", "scry_set", "scry_none"),
        ),
        "score": ("vp", "majority", "shown", "five_radiance"),
        "win": ("win_vp", "win_last", "win_peck"),
    },
}
KINDS: dict[str, dict[str, str]] = {
    game: {kind: name for name, kinds in groups.items() for kind in kinds}
    for game, groups in GROUPS.items()
}


def category(game: str, event: Any) -> str:
    """The picture's category for one log entry (``info`` for a sentence or an unknown kind)."""
    kind = event.get("e") if isinstance(event, dict) else None
    return KINDS.get(game, {}).get(str(kind), "info")


def line(game: str, event: Any, text: str) -> str:
    """One ``<li>`` of the log: its category (for the picture and colour) and its sentence."""
    return f'<li data-k="{category(game, event)}">{escape(text)}</li>'
