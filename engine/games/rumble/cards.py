"""The «Схватка» catalog: loading, validation and lookup of every card.

The source of truth is ``seeds/rumble/catalog.json``; the engine reads the identical packaged copy
``engine/games/rumble/catalog.json`` through ``importlib.resources`` (a test keeps them equal).
Cards are data: each effect is a list of operations from the vocabulary in ``effects_text``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, NotRequired, Required, TypedDict, cast

from .state import Place

SLOTS: tuple[Place, ...] = ("source", "quality", "delivery")
SLOT_NAMES = {"source": "заводила", "quality": "наворот", "delivery": "приход"}
WILD = "wild"
OPS = {
    "damage",
    "heal",
    "power",
    "infect",
    "infect_roll",
    "cure",
    "transfer",
    "treasure",
    "palace",
    "add_card",
    "copy",
}
TARGETS = {
    "self",
    "left",
    "right",
    "neighbours",
    "weakest",
    "strongest",
    "random",
    "all_enemies",
    "all_players",
    "it",
}


OpName = Literal[
    "damage", "heal", "power", "infect", "infect_roll", "cure", "transfer", "treasure", "palace",
    "add_card", "copy",
]  # fmt: skip
Target = Literal[
    "self", "left", "right", "neighbours", "weakest", "strongest", "random", "all_enemies",
    "all_players", "it",
]  # fmt: skip


class Op(TypedDict, total=False):
    """One operation of an effect (``op``) with the fields its kind reads."""

    op: Required[OpName]
    target: Target
    amount: int
    count: int
    upto: int
    slot: Place
    bands: list[list[Op]]
    """A mighty roll's three bands of operations: total ≤ 4, 5–9, 10 and more."""


class SpellCard(TypedDict):
    """A spell card: a component of one ``slot`` and ``school`` (wild magic has neither)."""

    id: str
    name: str
    count: int
    slot: NotRequired[Place]
    school: NotRequired[str]
    effect: NotRequired[list[Op]]
    initiative: NotRequired[int]
    genitive: NotRequired[str]
    forms: NotRequired[dict[str, str]]
    gender: NotRequired[Literal["m", "f", "n", "pl"]]
    creature: NotRequired[bool]
    boost: NotRequired[bool]
    surprise: NotRequired[bool]


class TreasureCard(TypedDict):
    """A treasure: passive (its fields work while held) or active (used for a ``cost``)."""

    id: str
    name: str
    kind: Literal["passive", "active"]
    count: NotRequired[int]
    cost: NotRequired[int]
    effect: NotRequired[list[Op]]
    end_turn: NotRequired[list[Op]]
    eternal: NotRequired[bool]
    cloak: NotRequired[int]
    power: NotRequired[int]
    sign: NotRequired[str | None]


class GhostCard(TypedDict):
    """A ghost card: its ``effect`` now, or life, a treasure and a sign in the next fight."""

    id: str
    name: str
    when: Literal["now", "next"]
    count: NotRequired[int]
    effect: NotRequired[list[Op]]
    life: NotRequired[int]
    treasure: NotRequired[bool]
    sign: NotRequired[str | None]


class DiseaseCard(TypedDict):
    """A disease kind; its tokens in the bag are ``id#n``."""

    id: str
    name: str
    count: int
    special: NotRequired[Literal["hepatitis", "warts", "trindecit"] | None]
    eternal: NotRequired[bool]
    end_turn: NotRequired[list[Op]]
    sign: NotRequired[str | None]


class Named(TypedDict):
    """A hero or a special rule's note."""

    id: str
    name: str
    text: NotRequired[str]


class CatalogError(ValueError):
    """The catalog (or a scenario's extra cards) is malformed."""


@dataclass
class Catalog:
    """Every card of the game, indexed by id."""

    schools: dict[str, dict[str, str]]
    spells: dict[str, SpellCard]
    treasures: dict[str, TreasureCard]
    ghosts: dict[str, GhostCard]
    diseases: dict[str, DiseaseCard]
    heroes: dict[str, Named]
    specials: dict[str, Named]
    raw: dict[str, Any] = field(default_factory=dict)

    def spell_deck(self) -> list[str]:
        """Card ids of the spell deck before the shuffle, each repeated ``count`` times."""
        return [cid for cid, card in self.spells.items() for _ in range(card["count"])]

    def treasure_pile(self) -> list[str]:
        """Treasure ids, one entry per copy."""
        return [tid for tid, card in self.treasures.items() for _ in range(card.get("count", 1))]

    def ghost_pile(self) -> list[str]:
        """Ghost card ids, one entry per copy."""
        return [gid for gid, card in self.ghosts.items() for _ in range(card.get("count", 1))]

    def disease_bag(self) -> list[str]:
        """Disease tokens ``kind#n``, one per copy."""
        return [
            f"{kid}#{n + 1}" for kid, card in self.diseases.items() for n in range(card["count"])
        ]

    def extended(self, extra: dict[str, Any]) -> Catalog:
        """A new catalog with extra cards (same format, same section names) added or replaced."""
        raw = json.loads(json.dumps(self.raw))
        for section, cards in extra.items():
            if section not in raw or not isinstance(cards, list):
                raise CatalogError(f"неизвестный раздел каталога: {section}")
            by_id = {card["id"]: i for i, card in enumerate(raw[section])}
            for card in cards:
                if not isinstance(card, dict) or "id" not in card:
                    raise CatalogError(f"карта без id в разделе {section}")
                if card["id"] in by_id:
                    raw[section][by_id[card["id"]]] = card
                else:
                    raw[section].append(card)
        return parse_catalog(raw)


def _index(raw: dict[str, Any], section: str) -> dict[str, dict[str, Any]]:
    cards = raw.get(section)
    if not isinstance(cards, list):
        raise CatalogError(f"в каталоге нет раздела {section}")
    out: dict[str, dict[str, Any]] = {}
    for card in cards:
        if not isinstance(card, dict) or not isinstance(card.get("id"), str):
            raise CatalogError(f"карта без id в разделе {section}")
        if card["id"] in out:
            raise CatalogError(f"повтор id {card['id']}")
        if not isinstance(card.get("name"), str):
            raise CatalogError(f"у карты {card['id']} нет названия")
        out[card["id"]] = card
    return out


def _check_ops(owner: str, ops: Any, schools: dict[str, Any], in_power: bool = False) -> None:
    if not isinstance(ops, list):
        raise CatalogError(f"{owner}: эффект должен быть списком операций")
    for op in ops:
        if not isinstance(op, dict) or op.get("op") not in OPS:
            raise CatalogError(f"{owner}: неизвестная операция {op!r}")
        target = op.get("target")
        if target is not None and target not in TARGETS:
            raise CatalogError(f"{owner}: неизвестная цель {target!r}")
        if target == "it" and not in_power:
            raise CatalogError(f"{owner}: цель «it» бывает только внутри могучего броска")
        if op["op"] == "power":
            bands = op.get("bands")
            if not isinstance(bands, list) or len(bands) != 3:
                raise CatalogError(f"{owner}: у могучего броска три порога")
            for band in bands:
                _check_ops(owner, band, schools, True)
        if op["op"] == "copy" and op.get("slot") not in SLOTS:
            raise CatalogError(f"{owner}: копировать можно заводилу, наворот или приход")
        for key in ("amount", "count", "upto"):
            if key in op and (not isinstance(op[key], int) or op[key] < 0):
                raise CatalogError(f"{owner}: {key} должно быть целым ≥ 0")


def parse_catalog(raw: dict[str, Any]) -> Catalog:
    """Validate a raw catalog dict and index it; raises ``CatalogError`` on any defect."""
    if not isinstance(raw, dict):
        raise CatalogError("каталог должен быть объектом JSON")
    schools = raw.get("schools")
    if not isinstance(schools, dict) or not schools:
        raise CatalogError("в каталоге нет школ")
    sections = {
        name: _index(raw, name)
        for name in ("spells", "treasures", "ghosts", "diseases", "heroes", "specials")
    }
    for cid, card in sections["spells"].items():
        if not isinstance(card.get("count"), int) or card["count"] < 1:
            raise CatalogError(f"{cid}: count должно быть целым ≥ 1")
        if cid == WILD:
            continue
        if card.get("slot") not in SLOTS:
            raise CatalogError(f"{cid}: неизвестный тип компонента")
        if card.get("school") not in schools:
            raise CatalogError(f"{cid}: неизвестная школа")
        _check_ops(cid, card.get("effect"), schools)
        if card["slot"] == "source" and not isinstance(card.get("genitive"), str):
            raise CatalogError(f"{cid}: у заводилы нужна форма родительного падежа")
        if card["slot"] == "quality":
            forms = card.get("forms")
            if not isinstance(forms, dict) or set(forms) != {"m", "f", "n", "pl"}:
                raise CatalogError(f"{cid}: у наворота нужны формы m, f, n, pl")
        if card["slot"] == "delivery":
            if card.get("gender") not in ("m", "f", "n", "pl"):
                raise CatalogError(f"{cid}: у прихода нужен род")
            if not isinstance(card.get("initiative"), int):
                raise CatalogError(f"{cid}: у прихода нужна инициатива")
        if card.get("creature") and not any(op["op"] == "power" for op in card["effect"]):
            raise CatalogError(f"{cid}: тварь должна делать могучий бросок")
    if WILD not in sections["spells"]:
        raise CatalogError("в колоде нет шальной магии")
    for tid, card in sections["treasures"].items():
        if card.get("kind") not in ("passive", "active"):
            raise CatalogError(f"{tid}: сокровище бывает passive или active")
        if card.get("sign") is not None and card["sign"] not in schools:
            raise CatalogError(f"{tid}: неизвестная школа знака")
        if card["kind"] == "active":
            if not isinstance(card.get("cost"), int) or card["cost"] < 1:
                raise CatalogError(f"{tid}: активному предмету нужна цена сбросом ≥ 1")
            _check_ops(tid, card.get("effect"), schools)
        _check_ops(tid, card.get("end_turn", []), schools)
    for gid, card in sections["ghosts"].items():
        if card.get("when") not in ("now", "next"):
            raise CatalogError(f"{gid}: призрачная карта бывает now или next")
        _check_ops(gid, card.get("effect", []), schools)
        if card.get("sign") is not None and card["sign"] not in schools:
            raise CatalogError(f"{gid}: неизвестная школа знака")
    for kid, card in sections["diseases"].items():
        if not isinstance(card.get("count"), int) or card["count"] < 1:
            raise CatalogError(f"{kid}: count должно быть целым ≥ 1")
        if "#" in kid:
            raise CatalogError(f"{kid}: в id болезни нельзя «#»")
        if card.get("sign") is not None and card["sign"] not in schools:
            raise CatalogError(f"{kid}: неизвестная школа знака")
        _check_ops(kid, card.get("end_turn", []), schools)
    # checked: from here on each section's records have the types of their kind
    return Catalog(
        schools=schools,
        spells=cast(dict[str, SpellCard], sections["spells"]),
        treasures=cast(dict[str, TreasureCard], sections["treasures"]),
        ghosts=cast(dict[str, GhostCard], sections["ghosts"]),
        diseases=cast(dict[str, DiseaseCard], sections["diseases"]),
        heroes=cast(dict[str, Named], sections["heroes"]),
        specials=cast(dict[str, Named], sections["specials"]),
        raw=raw,
    )


@cache
def load_catalog() -> Catalog:
    """The packaged catalog of «Схватка» (parsed once; shared, so read only)."""
    return parse_catalog(json.loads(packaged_catalog_text()))


def packaged_catalog_text() -> str:
    """The packaged catalog file's text (for the check against ``seeds/rumble``)."""
    return resources.files("engine.games.rumble").joinpath("catalog.json").read_text("utf-8")
