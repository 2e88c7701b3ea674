"""Every card of «Волшебный круг» as flat catalog entries (for ``python -m engine.catalog``)."""

from __future__ import annotations

from typing import Any

from .cards import Catalog, load_catalog


def spell_text(cat: Catalog, card: dict[str, Any]) -> str:
    """A spell's card text built from its power and keyword (the catalog's ``text`` must say
    exactly this; a test checks it)."""
    kw = card["keyword"]
    text = f"Сила {card['power']}."
    if kw is None:
        return text + " Без ключевого слова."
    return f"{text} {cat.keywords[kw]['name']}: {cat.keywords[kw]['text']}"


def entries(catalog: Catalog | None = None) -> list[dict[str, Any]]:
    """One entry per distinct card: deck, id, name, count, text, art and the game's fields."""
    cat = catalog or load_catalog()
    out: list[dict[str, Any]] = []
    for cid, card in cat.spells.items():
        kw = card["keyword"]
        out.append(
            {
                "deck": "spells",
                "id": cid,
                "name": card["name"],
                "count": card["count"],
                "text": card["text"],
                "art": card["art"],
                "power": card["power"],
                "keyword": kw,
                "keyword_name": None if kw is None else cat.keywords[kw]["name"],
            }
        )
    for cid, card in cat.actions.items():
        text = card["text"]
        if card.get("direction"):
            text = f"{text} Под картинкой: «{card['direction']}»."
        out.append(
            {
                "deck": "actions",
                "id": cid,
                "name": card["name"],
                "count": card["count"],
                "text": text,
                "art": card["art"],
                "effect": card["effect"],
                "direction": card.get("direction"),
            }
        )
    return out
