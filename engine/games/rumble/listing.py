"""Every card and hero of «Схватка» as flat catalog entries (for ``python -m engine.catalog``)."""

from __future__ import annotations

from typing import Any

from .cards import WILD, Catalog, load_catalog
from .text import disease_text, ghost_text, spell_card_text, treasure_text

ART_DIR = "seeds/rumble/art"


def art_path(card_id: str) -> str:
    """Where a card's illustration lives in the repository."""
    return f"{ART_DIR}/{card_id}.svg"


def entries(catalog: Catalog | None = None) -> list[dict[str, Any]]:
    """One entry per distinct card: deck, id, name, count, text, art, and the spell fields."""
    cat = catalog or load_catalog()
    out: list[dict[str, Any]] = []
    for cid, card in cat.spells.items():
        school = card.get("school")
        out.append(
            {
                "deck": "spells",
                "id": cid,
                "name": card["name"],
                "count": card["count"],
                "text": spell_card_text(card, cat),
                "art": art_path(cid),
                "slot": "wild" if cid == WILD else card["slot"],
                "school": school,
                "school_name": cat.schools[school]["name"] if school else None,
                "initiative": card.get("initiative"),
                "creature": bool(card.get("creature")),
                "boost": bool(card.get("boost")),
                "surprise": bool(card.get("surprise")),
            }
        )
    for tid, treasure in cat.treasures.items():
        text = treasure_text(treasure, cat)
        out.append(_entry("treasures", tid, treasure["name"], treasure.get("count", 1), text))
    for gid, ghost in cat.ghosts.items():
        text = ghost_text(ghost, cat)
        out.append(_entry("ghosts", gid, ghost["name"], ghost.get("count", 1), text))
    for kid, disease in cat.diseases.items():
        text = disease_text(disease, cat)
        out.append(_entry("diseases", kid, disease["name"], disease["count"], text))
    for sid, special in cat.specials.items():
        out.append(_entry("specials", sid, special["name"], 1, special.get("text", "")))
    for hid, hero in cat.heroes.items():
        text = "Герой: отличается только внешностью."
        out.append(_entry("heroes", hid, hero["name"], 1, text))
    return out


def _entry(deck: str, cid: str, name: str, count: int, text: str) -> dict[str, Any]:
    return {
        "deck": deck,
        "id": cid,
        "name": name,
        "count": count,
        "text": text,
        "art": art_path(cid),
    }
