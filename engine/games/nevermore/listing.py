"""Every card of «Невермор» as flat catalog entries (for ``python -m engine.catalog``)."""

from __future__ import annotations

from typing import Any

from .cards import Catalog, load_catalog

ART_DIR = "seeds/nevermore/art"


def art_path(card_id: str) -> str:
    """Where a card's illustration lives in the repository."""
    return f"{ART_DIR}/{card_id}.svg"


def entries(catalog: Catalog | None = None) -> list[dict[str, Any]]:
    """One entry per distinct card: deck, id, name, count, text, raven text, window, art."""
    cat = catalog or load_catalog()
    windows = cat.windows
    out: list[dict[str, Any]] = []
    for card in cat.raw["main"]:
        suit = cat.suits[card["suit"]]
        out.append(
            {
                "deck": "main",
                "id": card["id"],
                "name": card["name"],
                "count": card["count"],
                "text": f"Масть {suit['name']} ({suit['icon']}).",
                "art": art_path(card["id"]),
                "suit": card["suit"],
            }
        )
    for deck in ("light", "shadow"):
        for card in cat.raw[deck]:
            out.append(
                {
                    "deck": deck,
                    "id": card["id"],
                    "name": card["name"],
                    "count": card["count"],
                    "text": card["text"],
                    "raven_text": card.get("raven_text"),
                    "window": card["window"],
                    "window_name": windows[card["window"]],
                    "raven_window": card.get("raven_window"),
                    "suit": card.get("suit"),
                    "en": card["en"],
                    "art": art_path(card["id"]),
                }
            )
    return out
