"""The «Невермор» catalog: suits, the main deck and the Light and Shadow magic cards.

The source of truth is ``seeds/nevermore/catalog.json``; the engine reads the identical packaged
copy ``engine/games/nevermore/catalog.json`` through ``importlib.resources`` (a test keeps them
equal). Every magic card carries its Russian text, the text under the raven symbol where it has
one, and its timing window (``windows`` names them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

SUITS = ("attack", "healing", "radiance", "victory", "raven")
TOKENS = ("attack", "healing", "radiance", "victory")
MAIN_SIZE = 60
MAGIC_SIZE = 25


@dataclass(frozen=True)
class Catalog:
    """Every card of the game, indexed by id."""

    raw: dict[str, Any]
    magic: dict[str, dict[str, Any]]

    @property
    def suits(self) -> dict[str, dict[str, str]]:
        return dict(self.raw["suits"])

    @property
    def windows(self) -> dict[str, str]:
        return dict(self.raw["windows"])

    def deck(self, name: str) -> list[str]:
        """Card ids of the main, light or shadow deck, each id repeated by its count."""
        out: list[str] = []
        for card in self.raw[name]:
            out.extend([card["id"]] * card["count"])
        return out

    def name(self, card_id: str) -> str:
        """The Russian name of a suit card or a magic card."""
        if card_id in self.raw["suits"]:
            return str(self.raw["suits"][card_id]["name"])
        return str(self.magic[card_id]["name"])

    def suit_of(self, card_id: str) -> str | None:
        """The suit a card counts as (main cards and the magic suit cards), else ``None``."""
        if card_id in SUITS:
            return card_id
        card = self.magic.get(card_id)
        return card.get("suit") if card else None

    def window(self, card_id: str, raven: bool) -> str:
        """The timing window of a magic card for a player in human or raven form."""
        card = self.magic[card_id]
        if raven and "raven_text" in card:
            return str(card["raven_window"])
        return str(card["window"])

    def text(self, card_id: str, raven: bool) -> str:
        """The text a player in that form uses."""
        card = self.magic[card_id]
        if raven and "raven_text" in card:
            return str(card["raven_text"])
        return str(card["text"])


def validate(raw: dict[str, Any]) -> None:
    """Counts and fields the engine relies on."""
    if sum(c["count"] for c in raw["main"]) != MAIN_SIZE:
        raise ValueError("main deck must hold 60 cards")
    for deck in ("light", "shadow"):
        if sum(c["count"] for c in raw[deck]) != MAGIC_SIZE:
            raise ValueError(f"{deck} deck must hold 25 cards")
        for card in raw[deck]:
            for key in ("id", "name", "en", "count", "window", "text"):
                if key not in card:
                    raise ValueError(f"{card.get('id')}: missing {key}")
            if card["window"] not in raw["windows"]:
                raise ValueError(f"{card['id']}: unknown window {card['window']}")


@cache
def load_catalog() -> Catalog:
    """The packaged catalog (read once)."""
    text = resources.files(__package__).joinpath("catalog.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    validate(raw)
    magic: dict[str, dict[str, Any]] = {}
    for deck in ("light", "shadow"):
        for card in raw[deck]:
            magic[card["id"]] = {**card, "deck": deck}
    return Catalog(raw, magic)
