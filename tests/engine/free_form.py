"""Free-form moves met in seeded games of every game, as the table would apply them.

``collect`` plays seeded games (the recorded specs of ``digests``, their bots) and keeps, for every
free-form need met (a move, simultaneous call or race without ``options``), the state, the seat
and the moves on offer: the move the table applied, every legal move of every seat the need
waits for and the automatic moves (with and without the seat's knowledge), each in the two forms
the rules get them in — from this in-process table, and from the fair-play table, whose openings
carry the fields of the committed item (``protocol_form``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core.game import free_form
from engine.core.local_table import LocalTable
from engine.core.model import Action, Rules
from engine.games import rules_for

from . import digests

FAKE_DIGEST = "0" * 64
GAMES = ("circle", "nevermore", "rumble", "toy")


@dataclass
class Met:
    """One free-form need met: the state, who moved and what was on offer."""

    game: str
    state: Any
    seat: int
    applied: Action
    offered: list[Action] = field(default_factory=list)

    @property
    def phase(self) -> str:
        return str(self.state["need"].get("phase"))


def fields_of(item: Any) -> dict[str, Any]:
    """The fields a committed item adds to an opening (as ``table_values.committed_fields``)."""
    if isinstance(item, dict):
        return dict(item)
    if isinstance(item, int) and not isinstance(item, bool):
        return {"slot": item}
    return {"value": item}


def public_form(table: LocalTable, seat: int, action: Action) -> Action:
    """A move as the table passes it on: a sealed choice as commitments, shown cards opened;
    the table's own bookkeeping (its knowledge, its committed items) is left untouched."""
    out = {k: v for k, v in action.items() if k not in ("secret", "seal", "show")}
    if "secret" in action:
        out["commit"] = [FAKE_DIGEST] * len(action["secret"].get("items", []))
    if "seal" in action:
        out["commit"] = [FAKE_DIGEST] * len(action["seal"])
    if "show" in action:
        out["open"] = [{"slot": s, "card": table.slot_card[s]} for s in action["show"]]
    return out


def protocol_form(table: LocalTable, seat: int, action: Action) -> Action | None:
    """The move as the fair-play table hands it to the rules: each opening is the committed
    item's fields with its index (and the card of a slot it opens), a top-level index joins its
    item's fields to the move; None when it opens no commitment this table knows."""
    items = table.committed.get(seat, [])
    out = dict(action)
    opened = action.get("open")
    if isinstance(opened, list) and opened and all("index" in e for e in opened):
        entries = []
        for entry in opened:
            index = entry["index"]
            if not 0 <= index < len(items):
                return None
            made = {**fields_of(items[index]), "index": index}
            if "slot" in made:
                made["card"] = table.slot_card[made["slot"]]
            entries.append(made)
        out["open"] = entries
    if "index" in action and 0 <= action["index"] < len(items):
        out.update(fields_of(items[action["index"]]))
    return out


def offered(table: LocalTable, seat: int) -> Iterator[Action]:
    """Every move the rules offer ``seat`` now: its legal moves and the automatic ones."""
    rules = table.rules
    knowledge = table.knowledge[seat]
    moves = [*rules.legal_actions(table.state, seat, knowledge)]
    auto = getattr(rules, "auto_action", None)  # a game without timers has none
    if auto is not None:
        moves += [auto(table.state, seat, know) for know in (knowledge, None)]
    for move in moves:
        public = public_form(table, seat, move)
        opened = public.get("open")
        if not (isinstance(opened, list) and any("slot" not in e for e in opened)):
            yield public  # (openings by index alone are filled in by every table)
        proto = protocol_form(table, seat, public)
        if proto is not None and proto != public:
            yield proto


def collect(game: str, every: int, per_phase: int = 4) -> tuple[Rules[Any], list[Met]]:
    """Play every ``every``-th recorded game of ``game``; every free-form need met, with up to
    ``per_phase`` kept (with their offers) for each phase and move type."""
    rules = rules_for(game)
    met: list[Met] = []
    kept: dict[tuple[str, str], int] = {}
    for spec in digests.specs(game)[::every]:
        table = LocalTable(rules, spec.config, seed=spec.seed)
        policies = digests.bots(spec)
        apply = table.apply

        def watched(action: Action, table: LocalTable = table, apply: Any = apply) -> None:
            state = table.state
            need = state["need"]
            if free_form(need, action):
                seat = action["seat"]
                entry = Met(game, state, seat, action)
                key = (str(need.get("phase")), str(action.get("type")))
                kept[key] = kept.get(key, 0) + 1
                if kept[key] <= per_phase:
                    for s in need["seats"]:
                        entry.offered += offered(table, s)
                    proto = protocol_form(table, seat, action)
                    if proto is not None:
                        entry.offered.append(proto)
                met.append(entry)
            apply(action)

        table.apply = watched  # type: ignore[method-assign]
        while table.step(policies):
            pass
    return rules, met
