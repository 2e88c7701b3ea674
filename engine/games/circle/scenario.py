"""Scripted positions: ``python -m engine.games.circle.scenario FILE.json``.

A scenario sets up a table at the start of a turn (life, hands, burns, the totem, the action deck's
top and discard, the spell deck), then plays the scripted actions in order and prints the resulting
state as JSON. The format is documented in ``docs/scenarios.md``. Bad input gives one clear
message and exit code 2.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any

from engine.core import scenario
from engine.core.local_table import LocalTable
from engine.core.model import Action, Decision, IllegalAction, Kind, Knowledge
from engine.core.scenario import need as _need

from . import flow
from .bot import HeuristicBot
from .cards import CatalogError, load_catalog
from .rules import MAX_SEATS, MIN_SEATS, CircleRules

MAX_STEPS = 50_000


class ScenarioRun:
    """One scripted position being played."""

    def __init__(self, data: dict[str, Any]) -> None:
        _need(isinstance(data, dict), "сценарий должен быть объектом JSON")
        self.cat = load_catalog()
        self.rules = CircleRules(self.cat)
        players = data.get("players")
        _need(
            isinstance(players, list) and MIN_SEATS <= len(players) <= MAX_SEATS,
            f"players: {MIN_SEATS}–{MAX_SEATS} игроков",
        )
        self.players: list[dict[str, Any]] = list(players or [])
        _need(all(isinstance(p, dict) for p in self.players), "каждый игрок — объект")
        self.n = len(self.players)
        self.spells = list(data.get("spells", []))
        for cid in self.spells:
            _need(cid in self.cat.spells, f"spells: нет заклинания {cid!r}")
        self.plays: list[dict[str, Any]] = list(data.get("plays", []))
        _need(all(isinstance(p, dict) for p in self.plays), "plays: список объектов")
        self.stop = data.get("stop", "turn")
        _need(self.stop in ("turn", "game"), "stop: turn или game")
        self.bots = bool(data.get("bots", False))
        self.rng = random.Random(data.get("seed", 0))
        self.refused: list[dict[str, Any]] = []
        totem = data.get("totem", 0)
        _need(isinstance(totem, int) and 0 <= totem < self.n, "totem: номер места")
        config = {
            "seats": self.n,
            "names": [p.get("name", f"Игрок {i + 1}") for i, p in enumerate(self.players)],
            "first": totem,
        }
        order, layout = self._deck_order(data)
        self.table = LocalTable(
            self.rules, config, deck_orders={"actions": order}, chance=self._chance
        )
        self._setup(data, layout)
        self.helpers = {s: HeuristicBot(s) for s in range(self.n)}

    def _card(self, cid: Any, where: str) -> str:
        _need(isinstance(cid, str) and cid in self.cat.actions, f"{where}: нет карты {cid!r}")
        return str(cid)

    def _deck_order(self, data: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """Slots in order: hands, the discard, the deck's top, then the rest of the deck."""
        order: list[str] = []
        layout: dict[str, Any] = {"hands": []}
        for i, p in enumerate(self.players):
            hand = [self._card(c, f"players[{i}].hand") for c in p.get("hand", [])]
            _need(len(hand) <= flow.HAND_LIMIT, f"players[{i}].hand: не больше 6 карт")
            layout["hands"].append(list(range(len(order), len(order) + len(hand))))
            order += hand
        for key in ("discard", "deck_top"):
            cards = [self._card(c, key) for c in data.get(key, [])]
            layout[key] = list(range(len(order), len(order) + len(cards)))
            order += cards
        rest = Counter(self.cat.action_deck())
        rest.subtract(Counter(order))
        short = [c for c, k in rest.items() if k < 0]
        _need(not short, f"в колоде действий не хватает копий карты {short[0] if short else ''}")
        deck_size = data.get("deck_size")
        rest_slots = list(range(len(order), len(self.cat.action_deck())))
        for cid in self.cat.action_deck():
            if rest[cid] > 0:
                order.append(cid)
                rest[cid] -= 1
        if deck_size is not None:
            _need(
                isinstance(deck_size, int) and len(layout["deck_top"]) <= deck_size,
                "deck_size: не меньше deck_top",
            )
            extra = deck_size - len(layout["deck_top"])
            layout["discard"] += rest_slots[extra:]
            rest_slots = rest_slots[:extra]
        layout["rest"] = rest_slots
        return order, layout

    def _setup(self, data: dict[str, Any], layout: dict[str, Any]) -> None:
        g = self.table.state["g"]
        g["hands"] = layout["hands"]
        g["deck"] = layout["deck_top"] + layout["rest"]
        g["discard"] = layout["discard"]
        g["known"] = {str(s): self.table.slot_card[s] for s in layout["discard"]}
        for i, p in enumerate(self.players):
            life = p.get("life", 5)
            _need(isinstance(life, int) and 1 <= life <= 5, f"players[{i}].life: 1..5")
            alive = bool(p.get("alive", True))
            _need(alive or not layout["hands"][i], f"players[{i}]: у выбывшего нет карт")
            g["life"][i] = life if alive else 0
            g["alive"][i] = alive
            burns = p.get("burns", 0)
            _need(isinstance(burns, int) and burns >= 0, f"players[{i}].burns: целое ≥ 0")
            g["burns"][i] = burns
        _need(sum(g["alive"]) >= 2, "нужно хотя бы два живых игрока")
        _need(g["alive"][g["totem"]], "тотем у выбывшего игрока")
        used = data.get("spell_discard", [])
        deck = Counter(self.cat.spell_deck())
        for cid in used:
            _need(deck[cid] > 0, f"spell_discard: лишняя карта {cid!r}")
            deck[cid] -= 1
        g["spell_discard"] = list(used)
        g["spells"] = [c for c in self.cat.spells for _ in range(deck[c])]
        g["log"] = []
        g["agenda"] = [{"k": "start"}]
        self.table.state = self.rules.runner.start(g)
        self.table.knowledge = {s: Knowledge(s) for s in range(self.n)}
        self.table.sync()
        self.start_turn = g["turn"]

    def _chance(self, decision: Decision) -> int:
        remaining = self.table.state["g"]["spells"]
        if self.spells:
            cid = self.spells.pop(0)
            _need(cid in remaining, f"spells: {cid!r} нет в колоде заклинаний")
            return int(remaining.index(cid))
        return self.rng.randrange(decision.chance_range)

    def _race(self) -> None:
        """The next scripted play (or a settle); bots or a settle when the script is over."""
        if not self.plays:
            if self.bots:
                self.table.step({s: b.choose for s, b in self.helpers.items()})
            else:
                self.table.apply({"type": "settle"})
            return
        entry = self.plays.pop(0)
        if entry.get("settle"):
            self.table.apply({"type": "settle"})
            return
        seat: Any = entry.get("seat")
        _need(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.n,
            f"plays: неверное место в {entry}",
        )
        card = self._card(entry.get("card"), "plays")
        state = self.table.state["g"]
        know = self.table.knowledge[seat]
        slot = next((s for s in state["hands"][seat] if know.cards.get(s) == card), None)
        _need(slot is not None, f"plays: у места {seat} нет карты {card}")
        action: Action = {
            "type": "play",
            "seat": seat,
            "slot": slot,
            "show": [slot],
            "step": entry.get("step", state["spell"]["step"]),
        }
        if "target" in entry:
            action["target"] = entry["target"]
        try:
            self.table.apply(self.table.public(seat, action, "scramble"))
        except IllegalAction as exc:
            _need("step" in entry, f"plays: {entry} невозможно ({exc})")
            self.refused.append({**entry, "reason": str(exc)})

    def done(self) -> bool:
        g = self.table.state["g"]
        if self.table.decision().kind == Kind.TERMINAL:
            return True
        return bool(self.stop == "turn" and g["turn"] > self.start_turn)

    def play(self) -> dict[str, Any]:
        for _ in range(MAX_STEPS):
            if self.done():
                break
            if self.table.decision().kind == Kind.RACE:
                self._race()
            else:
                self.table.step({})
        return self.summary()

    def summary(self) -> dict[str, Any]:
        g = self.table.state["g"]
        view = self.rules.view(self.table.state, Knowledge(None))
        return {
            "turn": g["turn"],
            "names": g["names"],
            "life": g["life"],
            "alive": g["alive"],
            "hand_sizes": [len(h) for h in g["hands"]],
            "hands": [[self.table.slot_card[s] for s in h] for h in g["hands"]],
            "totem": g["totem"],
            "burns": g["burns"],
            "spell": view["spell"],
            "piles": view["piles"],
            "spell_discard": g["spell_discard"],
            "winner": g["winner"],
            "result": g["result"],
            "waiting": view["phase"],
            "log": [dict(e) for e in g["log"]],
            "seats": self.seat_views(),
            "refused": self.refused,
            "unused_plays": self.plays,
        }

    def seat_views(self) -> list[dict[str, Any]]:
        """What each seat sees now: the cards of its hand it knows, its view without the log."""
        return scenario.seat_views(
            self.table, lambda state, seat: {"hand": state["g"]["hands"][seat]}
        )


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scenario dict and return the resulting summary."""
    return ScenarioRun(data).play()


def main(argv: list[str] | None = None) -> int:
    """Command line: play FILE.json and print the result."""
    errors = (CatalogError, IllegalAction)
    return scenario.run_cli(
        "engine.games.circle.scenario", run_scenario, argv, errors, __doc__ or ""
    )


if __name__ == "__main__":
    sys.exit(main())
