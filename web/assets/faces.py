"""Every card's face, per game, from the engine's catalogs and ``choices``; written by the build.

``faces(game)`` gives ``{card id: Face}`` for each distinct card; ``write_faces(art)`` writes them
as ``art/<game>/<id>.svg`` (the URLs the table and the catalog already use), plus the table's
pieces in ``art/ui`` and the «Невермор» tokens and suit icons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web.ui import rumble_en
from web.ui.catalog_en import english

from .choices import CARDS, MARKS, NEVERMORE_TOKENS, SCHOOL_SIGNS, SLOT_SIGNS, UI
from .compose import Face, icon, shade, svg

DECK_COLOURS = {
    "treasures": "#b8901c",
    "ghosts": "#6f86a3",
    "diseases": "#6f9a2e",
    "specials": "#b0413e",
    "heroes": "#5a4a8a",
}
WILD_COLOUR = "#3f3a4d"
SLOT_WORDS = {"source": "заводила", "quality": "наворот", "delivery": "приход", "wild": "шальная"}
SLOT_WORDS_EN = {"source": "source", "quality": "quality", "delivery": "delivery", "wild": "wild"}
DECK_CORNERS = {
    "treasures": "open-chest",
    "ghosts": "ghost",
    "diseases": "biohazard",
    "specials": "star-formation",
    "heroes": "pointy-hat",
}
DECK_WORDS = {
    "treasures": "сокровище",
    "ghosts": "призрачная",
    "diseases": "ЗПМП",
    "specials": "особая",
    "heroes": "герой",
}
DECK_WORDS_EN = {
    "treasures": "treasure",
    "ghosts": "ghost card",
    "diseases": "disease",
    "specials": "special",
    "heroes": "hero",
}
SUIT_COLOURS = {
    "attack": "#b8322a",
    "healing": "#c8507f",
    "radiance": "#4f8fb3",
    "victory": "#c59314",
    "raven": "#2c2a3a",
}
MAGIC_COLOURS = {"light": "#d9c27a", "shadow": "#4b2f73"}
MAGIC_CORNERS = {"light": "sun", "shadow": "moon"}
KEYWORD_COLOURS = {
    "fan": "#c4461f",
    "burn": "#a8321c",
    "grow": "#4e86c4",
    "melt": "#3f9fb8",
    "frost": "#5d7fd0",
    "chain": "#b59b17",
    "drain": "#8e1f3d",
    "relentless": "#6a3fa0",
    None: "#7a5a3a",
}
ACTION_COLOURS = {
    "wind_left": "#2f8f86",
    "wind_right": "#2f8f86",
    "wind_any": "#2f8f86",
    "dispel": "#6b4aa0",
    "shield": "#5b6b80",
    "mirror": "#7c8aa0",
    "gust": "#3a9e6a",
}


def _entries(game: str) -> list[dict[str, Any]]:
    from engine.catalog import entries_for

    return entries_for(game)


def _rumble_schools() -> dict[str, dict[str, str]]:
    from engine.games.rumble.cards import load_catalog

    schools: dict[str, dict[str, str]] = load_catalog().schools
    return schools


def rumble_face(entry: dict[str, Any], schools: dict[str, dict[str, str]]) -> Face:
    """A «Схватка» card: school colours, slot symbol, the school's sign, the initiative."""
    cid = entry["id"]
    deck = entry["deck"]
    if deck == "spells":
        slot = entry["slot"]
        school = entry.get("school")
        colour = schools[school]["color"] if school else WILD_COLOUR
        marks = tuple(MARKS[m] for m in ("creature", "surprise", "boost") if entry.get(m))
        initiative = entry.get("initiative")
        words = SLOT_WORDS[slot] + (f" · {entry['school_name']}" if school else "")
        words_en = SLOT_WORDS_EN[slot] + (f" · {rumble_en.SCHOOLS[school]}" if school else "")
        return Face(
            name=entry["name"],
            icon=CARDS["rumble"][cid],
            colour=colour,
            corner=SLOT_SIGNS[slot],
            number=None if initiative is None else str(initiative),
            number_title="инициатива",
            signs=(SCHOOL_SIGNS[school],) if school else (),
            label=words,
            marks=marks,
            name_en=rumble_en.name(cid),
            label_en=words_en,
        )
    sign = _sign_of(cid)
    return Face(
        name=entry["name"],
        icon=CARDS["rumble"][cid],
        colour=DECK_COLOURS[deck],
        corner=DECK_CORNERS[deck],
        signs=(SCHOOL_SIGNS[sign],) if sign else (),
        label=DECK_WORDS[deck] + (f" · знак «{schools[sign]['name']}»" if sign else ""),
        name_en=rumble_en.name(cid),
        label_en=DECK_WORDS_EN[deck] + (f" · «{rumble_en.SCHOOLS[sign]}» sign" if sign else ""),
    )


def _sign_of(cid: str) -> str | None:
    """The school sign a treasure, ghost card or disease gives, if any."""
    from engine.games.rumble.cards import load_catalog

    cat = load_catalog()
    for deck in (cat.treasures, cat.ghosts, cat.diseases):
        card = deck.get(cid)
        if card is not None:
            sign = card.get("sign")
            return str(sign) if sign else None
    return None


def nevermore_face(entry: dict[str, Any]) -> Face:
    """A «Невермор» card: a suit on its colour, or a magic card of Light or Shadow."""
    cid = entry["id"]
    deck = entry["deck"]
    if deck == "main":
        return Face(
            name=entry["name"],
            icon=CARDS["nevermore"][cid],
            colour=SUIT_COLOURS[entry["suit"]],
            corner=CARDS["nevermore"][cid],
            label="масть",
            name_en=str(english("nevermore", entry)["name"]),
            label_en="suit",
        )
    suit = entry.get("suit")
    return Face(
        name=entry["name"],
        icon=CARDS["nevermore"][cid],
        colour=MAGIC_COLOURS[deck],
        corner=MAGIC_CORNERS[deck],
        signs=(CARDS["nevermore"][suit],) if suit else (),
        label="магия Света" if deck == "light" else "магия Тьмы",
        name_en=str(english("nevermore", entry)["name"]),
        label_en="Light magic" if deck == "light" else "Shadow magic",
    )


def circle_face(entry: dict[str, Any]) -> Face:
    """A «Волшебный круг» card: a spell with its power and keyword, or an action."""
    cid = entry["id"]
    name = _title(str(entry["name"]))
    if entry["deck"] == "spells":
        keyword = entry.get("keyword")
        return Face(
            name=name,
            icon=CARDS["circle"][cid],
            colour=KEYWORD_COLOURS.get(keyword, KEYWORD_COLOURS[None]),
            corner="bolt-spell-cast",
            number=str(entry["power"]),
            number_title="сила",
            label=str(entry.get("keyword_name") or "без ключевого слова").lower(),
            name_en=_title(str(english("circle", entry)["name"])),
            label_en=str(english("circle", entry).get("keyword_name") or "no keyword").lower(),
        )
    direction = entry.get("direction")
    return Face(
        name=name,
        icon=CARDS["circle"][cid],
        colour=ACTION_COLOURS.get(entry.get("effect", ""), "#2f8f86"),
        corner="hand",
        label="действие" + (f" · {direction}" if direction else ""),
        name_en=_title(str(english("circle", entry)["name"])),
        label_en="action" + (f" · {english('circle', entry)['direction']}" if direction else ""),
    )


def _title(name: str) -> str:
    """«СНЕЖНЫЙ КОМ» → «Снежный ком», "ICE BLOCK" → "Ice block" (the cards' capitals, softened)."""
    return name.capitalize() if name.isupper() else name


def faces(game: str) -> dict[str, Face]:
    """Every distinct card of ``game`` by id."""
    if game == "rumble":
        schools = _rumble_schools()
        return {e["id"]: rumble_face(e, schools) for e in _entries(game)}
    if game == "nevermore":
        return {e["id"]: nevermore_face(e) for e in _entries(game)}
    if game == "circle":
        return {e["id"]: circle_face(e) for e in _entries(game)}
    raise KeyError(game)


def piece(name: str, colour: str = "#fff8ec", ring: str | None = None) -> str:
    """A square table piece: one icon, optionally on a round token of ``ring``'s colour."""
    back = ""
    if ring:
        back = (
            f'<circle cx="256" cy="256" r="248" fill="{ring}" stroke="{shade(ring, 0.5)}"'
            ' stroke-width="16"/>'
        )
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="64"'
            f' height="64" aria-hidden="true">{back}{icon(name, 96, 96, 320, colour)}</svg>'
        )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="64" height="64"'
        f' aria-hidden="true">{icon(name, 0, 0, 512, colour)}</svg>'
    )


def pieces() -> dict[str, str]:
    """``path under art/ → svg`` for the table's pieces and the «Невермор» tokens and icons."""
    out = {f"ui/{key}.svg": piece(name) for key, name in UI.items()}
    for suit, colour in SUIT_COLOURS.items():
        out[f"nevermore/icon_{suit}.svg"] = piece(CARDS["nevermore"][suit], colour)
        if suit != "raven":
            out[f"nevermore/token_{suit}.svg"] = piece(CARDS["nevermore"][suit], ring=colour)
    for token, name in NEVERMORE_TOKENS.items():
        out[f"nevermore/token_{token}.svg"] = piece(name, ring=SUIT_COLOURS["raven"])
    return out


def write_faces(art: Path) -> int:
    """Write every card face and piece under ``art``; the number of files written."""
    written = 0
    for game in CARDS:
        folder = art / game
        folder.mkdir(parents=True, exist_ok=True)
        for cid, face in faces(game).items():
            (folder / f"{cid}.svg").write_text(svg(face))
            written += 1
    for path, text in pieces().items():
        target = art / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        written += 1
    return written
