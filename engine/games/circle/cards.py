"""The «Волшебный круг» catalog: spells, keywords and action cards, loaded and validated.

The source of truth is ``seeds/circle/catalog.json``; the engine reads the identical packaged copy
``engine/games/circle/catalog.json`` through ``importlib.resources`` (a test keeps them equal).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

KEYWORDS = ("fan", "grow", "melt", "chain", "burn", "drain", "frost", "relentless")
EFFECTS = ("wind_left", "wind_right", "wind_any", "dispel", "shield", "mirror", "gust")
MAX_LIFE = 5


class CatalogError(ValueError):
    """The catalog is malformed."""


@dataclass(frozen=True)
class Catalog:
    """Every card of the game, indexed by id, in catalog order."""

    keywords: dict[str, dict[str, str]]
    spells: dict[str, dict[str, Any]]
    actions: dict[str, dict[str, Any]]

    def spell_deck(self) -> list[str]:
        """Spell ids, one entry per copy, in catalog order (the deck is public)."""
        return [cid for cid, card in self.spells.items() for _ in range(card["count"])]

    def action_deck(self) -> list[str]:
        """Action ids, one entry per copy, before the shuffle."""
        return [cid for cid, card in self.actions.items() for _ in range(card["count"])]

    def effect(self, action_id: str) -> str:
        """The rule an action card follows (``wind_left``, ``dispel``…)."""
        return str(self.actions[action_id]["effect"])

    def keyword(self, spell_id: str) -> str | None:
        """The keyword id of a spell, or None."""
        kw = self.spells[spell_id]["keyword"]
        return None if kw is None else str(kw)

    def action_label(self, action_id: str) -> str:
        """The card's name with its direction, as said in the log («ВЕТЕР (влево)»)."""
        card = self.actions[action_id]
        return f"{card['name']} ({card['direction']})" if card.get("direction") else card["name"]


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise CatalogError(message)


def parse_catalog(raw: dict[str, Any]) -> Catalog:
    """Check and index the raw catalog JSON."""
    keywords = raw["keywords"]
    _need(set(keywords) == set(KEYWORDS), "keywords: exactly the implemented ones")
    spells: dict[str, dict[str, Any]] = {}
    for card in raw["spells"]:
        cid = card["id"]
        _need(cid not in spells, f"duplicate spell {cid}")
        _need(card["power"] in (1, 2, 3), f"{cid}: power 1–3")
        _need(card["keyword"] is None or card["keyword"] in keywords, f"{cid}: unknown keyword")
        _need(isinstance(card["count"], int) and card["count"] >= 1, f"{cid}: count")
        _need(card["deck"] == "spells" and bool(card["text"]), f"{cid}: deck and text")
        spells[cid] = card
    actions: dict[str, dict[str, Any]] = {}
    for card in raw["actions"]:
        cid = card["id"]
        _need(cid not in actions and cid not in spells, f"duplicate card id {cid}")
        _need(card["effect"] in EFFECTS, f"{cid}: unknown effect")
        _need(isinstance(card["count"], int) and card["count"] >= 1, f"{cid}: count")
        _need(card["deck"] == "actions" and bool(card["text"]), f"{cid}: deck and text")
        actions[cid] = card
    return Catalog(keywords, spells, actions)


def packaged_catalog_text() -> str:
    """The packaged catalog file's text (for the check against ``seeds/circle``)."""
    return resources.files("engine.games.circle").joinpath("catalog.json").read_text("utf-8")


@cache
def load_catalog() -> Catalog:
    """The packaged catalog of «Волшебный круг» (parsed once)."""
    return parse_catalog(json.loads(packaged_catalog_text()))
