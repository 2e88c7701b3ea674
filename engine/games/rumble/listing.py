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
    for tid, card in cat.treasures.items():
        out.append(_entry("treasures", tid, card, treasure_text(card, cat)))
    for gid, card in cat.ghosts.items():
        out.append(_entry("ghosts", gid, card, ghost_text(card, cat)))
    for kid, card in cat.diseases.items():
        out.append(_entry("diseases", kid, card, disease_text(card, cat)))
    for sid, card in cat.specials.items():
        out.append(_entry("specials", sid, card, card["text"]))
    for hid, card in cat.heroes.items():
        out.append(_entry("heroes", hid, card, "Герой: отличается только внешностью."))
    return out


def _entry(deck: str, cid: str, card: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "deck": deck,
        "id": cid,
        "name": card["name"],
        "count": card.get("count", 1),
        "text": text,
        "art": art_path(cid),
    }
