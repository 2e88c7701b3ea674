"""Scripted positions: ``python -m engine.games.nevermore.scenario FILE.json``.

A scenario names the players (health, VP, raven form, the five cards each holds, magic cards),
the dealer, whether the draft is played, the order of the resolution tokens, the next cards of
each deck, and the moves to make (matched against the legal actions; anything not scripted takes
the first legal option, i.e. passing). It plays one round (or the game) and prints the result as
JSON. The format is documented in ``docs/scenarios.md``. Bad input: a clear message, exit code 2.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from engine.core import scenario
from engine.core.game import State as TableState
from engine.core.local_table import LocalTable
from engine.core.model import Action, Decision, IllegalAction, Knowledge
from engine.core.scenario import ScenarioError
from engine.core.scenario import need as _need

from .cards import SUITS, TOKENS, Catalog, load_catalog
from .rules import NevermoreRules
from .table import G, draw

MAX_STEPS = 20_000
IN_FORCE = ("entomb",)  # magic from the previous round still in force («Погребение»)


class ScenarioRun:
    """One scripted position being played."""

    def __init__(self, data: dict[str, Any], catalog: Catalog | None = None) -> None:
        _need(isinstance(data, dict), "сценарий должен быть объектом JSON")
        self.cat = catalog or load_catalog()
        self.rules = NevermoreRules(self.cat)
        players = data.get("players")
        _need(isinstance(players, list) and 3 <= len(players) <= 6, "players: от 3 до 6 игроков")
        self.players: list[dict[str, Any]] = list(players or [])
        _need(all(isinstance(p, dict) for p in self.players), "каждый игрок — объект")
        self.n = len(self.players)
        self.dealer = data.get("dealer", 0)
        _need(isinstance(self.dealer, int) and 0 <= self.dealer < self.n, "dealer: номер игрока")
        self.moves: list[dict[str, Any]] = list(data.get("moves", []))
        _need(all(isinstance(m, dict) for m in self.moves), "moves: список объектов")
        self.chances: list[int] = list(data.get("chance", []))
        _need(all(isinstance(c, int) for c in self.chances), "chance: список чисел")
        self.stop = data.get("stop", "round")
        _need(self.stop in ("round", "game"), "stop: round или game")
        tokens = data.get("tokens")
        _need(
            tokens is None or sorted(tokens) == sorted(TOKENS),
            "tokens: порядок четырёх жетонов attack, healing, radiance, victory",
        )
        self.tokens = tokens
        self.round = data.get("round", 1)
        _need(
            isinstance(self.round, int) and not isinstance(self.round, bool) and self.round >= 1,
            "round: номер раунда, с 1",
        )
        direction = data.get("direction", "left" if self.round % 2 else "right")
        _need(direction in ("left", "right"), "direction: left или right")
        self.direction = 1 if direction == "left" else -1
        self.in_force = data.get("in_force", [])
        _need(
            isinstance(self.in_force, list) and all(x in IN_FORCE for x in self.in_force),
            f"in_force: список из {', '.join(IN_FORCE)}",
        )
        config = {
            "seats": self.n,
            "names": [p.get("name", f"Игрок {i + 1}") for i, p in enumerate(self.players)],
            "max_rounds": data.get("max_rounds", 5),
        }
        orders = self._orders(data)
        self.table = LocalTable(self.rules, config, deck_orders=orders, chance=self._chance)
        self._setup(data)

    # ----- set-up ----------------------------------------------------------------------------

    def _cards(self, value: Any, allowed: set[str] | dict[str, Any], where: str) -> list[str]:
        _need(isinstance(value, list), f"{where}: список карт")
        for cid in value:
            _need(isinstance(cid, str) and cid in allowed, f"{where}: нет карты {cid!r}")
        return list(value)

    def _orders(self, data: dict[str, Any]) -> dict[str, list[str]]:
        hands = [self._cards(p.get("hand", []), set(SUITS), "hand") for p in self.players]
        _need(all(len(h) == 5 for h in hands), "hand: по пять карт у каждого игрока")
        first = ["attack"] * self.dealer + ["raven"]
        deal: list[str] = []
        order = [(self.dealer + self.direction * k) % self.n for k in range(1, self.n + 1)]
        for j in range(5):
            deal += [hands[s][j] for s in order]
        top = self._cards(data.get("main_top", []), set(SUITS), "main_top")
        main = self._complete(first + deal + top, self.cat.deck("main"), "основной колоде")
        light: list[str] = []
        shadow: list[str] = []
        self.magic = [
            self._cards(p.get("magic", []), self.cat.magic, "magic") for p in self.players
        ]
        self.initial: list[str] = []
        spare = Counter(self.cat.deck("shadow"))
        for cards in self.magic:
            spare.subtract(c for c in cards if self.cat.magic[c]["deck"] == "shadow")
        for cards in self.magic:
            shadows = [c for c in cards if self.cat.magic[c]["deck"] == "shadow"]
            if shadows:
                self.initial.append(shadows[0])
            else:
                filler = next(c for c, k in sorted(spare.items()) if k > 0)
                spare[filler] -= 1
                self.initial.append(filler)
        shadow += self.initial
        for seat, cards in enumerate(self.magic):
            rest = list(cards)
            if self.initial[seat] in rest:
                rest.remove(self.initial[seat])
            light += [c for c in rest if self.cat.magic[c]["deck"] == "light"]
            shadow += [c for c in rest if self.cat.magic[c]["deck"] == "shadow"]
        light += self._cards(data.get("light_top", []), self.cat.magic, "light_top")
        shadow += self._cards(data.get("shadow_top", []), self.cat.magic, "shadow_top")
        later = self.round > 1 and self.tokens is not None
        return {
            "main": main,
            "light": self._complete(light, self.cat.deck("light"), "колоде Света"),
            "shadow": self._complete(shadow, self.cat.deck("shadow"), "колоде Тени"),
            # a later round's face-down tokens lie in the order given (round one's are face up)
            "tokens": list(self.tokens) if later and self.tokens else list(TOKENS),
        }

    @staticmethod
    def _complete(head: list[str], deck: list[str], where: str) -> list[str]:
        rest = Counter(deck)
        rest.subtract(head)
        _need(all(k >= 0 for k in rest.values()), f"в {where} не хватает таких карт: {head}")
        return head + sorted(rest.elements())

    def _setup(self, data: dict[str, Any]) -> None:
        g = self.table.state["g"]  # the data before the first task: it runs again on the edits
        for seat, p in enumerate(self.players):
            hp = p.get("health", g["max_hp"])
            _need(isinstance(hp, int) and 0 <= hp <= g["max_hp"], "health: от 0 до максимума")
            g["hp"][seat] = hp
            g["vp"][seat] = int(p.get("vp", 0))
            g["raven"][seat] = bool(p.get("raven", False)) or hp == 0
            if g["raven"][seat]:
                g["hp"][seat] = 0
            cards = self.magic[seat]
            own = self.initial[seat]
            if own not in cards:
                slot = g["magic"][seat].pop()
                g["discard"].append(slot)
            for cid in cards:
                if cid == own:
                    own = ""
                    continue
                slot = draw(g, self.cat.magic[cid]["deck"])
                _need(slot is not None, "колода магии пуста")
                g["magic"][seat].append(slot)
        if not data.get("draft", False):
            g["fx"]["freeze"] = True
        if self.tokens is not None and self.round == 1:
            g["first_plan"] = list(self.tokens)
        g["dir"] = self.direction
        if self.round > 1:
            g["round"] = self.round - 1
            g["preset"] = True
        if "entomb" in self.in_force:
            g["entombed"] = self.round
        self.table.state = {**self.table.state, "g": g}  # a new state: the first task replays
        self.table.sync()

    # ----- playing ---------------------------------------------------------------------------

    def _chance(self, decision: Decision) -> int:
        if self.chances:
            value = self.chances.pop(0)
            _need(0 <= value < decision.chance_range, f"chance: {value} вне диапазона")
            return value
        return 0

    def _matches(self, spec: dict[str, Any], action: Action, know: Knowledge) -> bool:
        cards = know.cards
        if "play" in spec:
            return bool(action["type"] == "play" and cards.get(action["slot"]) == spec["play"])
        if "pick" in spec:
            pick = action.get("pick")
            wanted = spec["pick"]
            if isinstance(pick, int) and not isinstance(pick, bool) and isinstance(wanted, str):
                return bool(self.table.slot_card.get(pick) == wanted)
            return bool(action["type"] == "choose" and scenario.same(pick, wanted))
        if "doom" in spec:
            items = action.get("secret", {}).get("items", [])
            doomed = sorted(cards[i["slot"]] for i in items if i.get("doom"))
            order = [i["token"] for i in items if "token" in i]
            if "order" in spec and order != spec["order"]:
                return False
            return bool(action["type"] == "seal" and doomed == sorted(spec["doom"]))
        if "give" in spec:
            items = action.get("secret", {}).get("items", [])
            return action["type"] == "pass" and sorted(cards[i["slot"]] for i in items) == sorted(
                spec["give"]
            )
        return bool(spec.get("type") == action["type"])

    def policy(self, rules: Any, state: TableState, seat: int, know: Knowledge) -> Action:
        actions = self.rules.legal_actions(state, seat, know)
        _need(bool(actions), f"нет допустимых ходов для игрока {seat}")
        for i, spec in enumerate(self.moves):
            if not scenario.same(spec.get("seat"), seat):
                continue
            if "phase" in spec and spec["phase"] != self.table.decision().phase:
                continue
            need = state["need"]
            if "window" in spec and spec["window"] != (need.get("w") if need else None):
                continue
            for action in actions:
                if self._matches(spec, action, know):
                    self.moves.pop(i)
                    return action
            if spec.get("strict", True) and self._applies(spec):
                raise ScenarioError(f"ход {spec} сейчас невозможен")
        return actions[0]

    def _applies(self, spec: dict[str, Any]) -> bool:
        phase = self.table.decision().phase
        want = {"play": "window", "pick": "choose", "doom": "seal", "give": "pass_commit"}
        return any(key in spec and want[key] == phase for key in want) and "phase" in spec

    def run(self) -> dict[str, Any]:
        steps = 0
        start_round = max(self.round, self.rules.game(self.table.state)["round"])
        while steps < MAX_STEPS:
            g = self.rules.game(self.table.state, peek=True)
            if self.stop == "round" and g["round"] > start_round:
                break
            if not self.table.step(self.policy):
                break
            steps += 1
        _need(not self.moves, f"не сыграны ходы: {self.moves}")
        out = result(self.rules.game(self.table.state), self.table)
        out["seats"] = self.seat_views()
        return out

    def seat_views(self) -> list[dict[str, Any]]:
        """What each seat sees now: its hand and magic cards, and its view without the log."""
        return scenario.seat_views(
            self.table,
            lambda state, seat: {
                "hand": self.rules.game(state, peek=True)["hand"][seat],
                "magic": self.rules.game(state, peek=True)["magic"][seat],
            },
        )


def result(g: G, table: LocalTable) -> dict[str, Any]:
    """The scenario's outcome: the public figures, each seat's magic cards and the log."""
    return {
        "round": g["round"],
        "health": g["hp"],
        "vp": g["vp"],
        "raven": g["raven"],
        "magic": [sorted(table.slot_card[s] for s in m) for m in g["magic"]],
        "winner": g["winner"],
        "over": g["over"],
        "log": g["log"],
    }


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scenario given as a dict; raises ``ScenarioError`` on bad input."""
    try:
        return ScenarioRun(data).run()
    except IllegalAction as exc:
        raise ScenarioError(f"недопустимый ход: {exc}") from exc


def main(argv: list[str] | None = None) -> int:
    """Command line: play FILE.json and print the result."""
    return scenario.run_cli(
        "engine.games.nevermore.scenario", run_scenario, argv, (), __doc__ or ""
    )


if __name__ == "__main__":
    sys.exit(main())
