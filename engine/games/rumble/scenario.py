"""Scripted positions: ``python -m engine.games.rumble.scenario FILE.json``.

A scenario sets up a round at its assembly (life, hands, spells to seal, treasures, diseases,
creatures, the Palace, the deck's top cards), then plays it with the given dice and choices and
prints the resulting public state as JSON. The format is documented in ``docs/scenarios.md``.
Bad input gives a clear message and exit code 2.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

from engine.core import scenario
from engine.core.local_table import LocalTable
from engine.core.model import Action, Decision, IllegalAction, Kind, Knowledge
from engine.core.scenario import ScenarioError
from engine.core.scenario import need as _need

from .cards import SLOTS, WILD, Catalog, CatalogError, load_catalog
from .rules import RumbleRules
from .state import Pile

PILES: dict[str, Pile] = {"disease": "bag", "treasure": "t_pile", "ghost": "ghost_pile"}
MAX_STEPS = 20_000
MAX_STEP_INPUTS = 1_000  # one engine step waiting for more inputs than this never ends


class ScenarioRun:
    """One scripted position being played."""

    def __init__(self, data: dict[str, Any], catalog: Catalog | None = None) -> None:
        _need(isinstance(data, dict), "сценарий должен быть объектом JSON")
        base = catalog or load_catalog()
        extra = data.get("extra_cards") or {}
        _need(isinstance(extra, dict), "extra_cards — объект с разделами каталога")
        self.cat = base.extended(extra) if extra else base
        self.rules = RumbleRules(self.cat)
        players = data.get("players")
        _need(isinstance(players, list) and 2 <= len(players or []) <= 6, "players: 2–6 магов")
        self.players: list[dict[str, Any]] = list(players or [])
        self.n = len(self.players)
        self.dice = list(data.get("dice", []))
        _need(all(isinstance(d, int) and 1 <= d <= 6 for d in self.dice), "dice: числа 1..6")
        self.draws = {k: list(v) for k, v in (data.get("draws") or {}).items()}
        _need(all(k in PILES for k in self.draws), f"draws: разделы {', '.join(PILES)}")
        self.choices: list[dict[str, Any]] = list(data.get("choices", []))
        self.stop = data.get("stop", "round")
        _need(self.stop in ("round", "fight", "game"), "stop: round, fight или game")
        config = {
            "seats": self.n,
            "mode": data.get("mode", "tournament"),
            "names": [p.get("name", f"Маг {i + 1}") for i, p in enumerate(self.players)],
        }
        order, layout = self._deck_order(data)
        self.table = LocalTable(
            self.rules, config, deck_orders={"spells": order}, chance=self._chance
        )
        self._setup(data, layout)

    # ----- set-up --------------------------------------------------------------------------

    def _card(self, card_id: Any, where: str) -> str:
        _need(
            isinstance(card_id, str) and card_id in self.cat.spells,
            f"{where}: нет карты {card_id!r}",
        )
        return str(card_id)

    def _deck_order(self, data: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """Slots in order: hands, creatures, the discard, the deck's top, then the rest of the
        deck (``deck_size`` cuts it: the cards beyond go face up to the discard)."""
        order: list[str] = []
        layout: dict[str, Any] = {"hands": [], "creatures": []}
        for i, p in enumerate(self.players):
            _need(isinstance(p, dict), f"players[{i}] — объект")
            hand = [self._card(c, f"players[{i}].hand") for c in p.get("hand", [])]
            _need(len(hand) <= 8, f"players[{i}].hand: не больше 8 карт")
            layout["hands"].append(list(range(len(order), len(order) + len(hand))))
            order += hand
        for i, p in enumerate(self.players):
            creatures = [self._card(c, f"players[{i}].creatures") for c in p.get("creatures", [])]
            for c in creatures:
                _need(bool(self.cat.spells[c].get("creature")), f"{c} — не тварь")
            layout["creatures"].append(list(range(len(order), len(order) + len(creatures))))
            order += creatures
        for key in ("discard", "deck_top"):
            cards = [self._card(c, key) for c in data.get(key, [])]
            layout[key] = list(range(len(order), len(order) + len(cards)))
            order += cards
        rest = Counter(self.cat.spell_deck())
        rest.subtract(Counter(order))
        short = [c for c, k in rest.items() if k < 0]
        _need(not short, f"в колоде не хватает копий карты {short[0] if short else ''}")
        rest_slots = list(range(len(order), len(order) + sum(rest.values())))
        for card in self.cat.spell_deck():
            if rest[card] > 0:
                order.append(card)
                rest[card] -= 1
        deck_size = data.get("deck_size")
        if deck_size is not None:
            _need(
                isinstance(deck_size, int)
                and not isinstance(deck_size, bool)
                and len(layout["deck_top"]) <= deck_size,
                "deck_size: целое, не меньше числа карт deck_top",
            )
            keep = deck_size - len(layout["deck_top"])
            layout["discard"] += rest_slots[keep:]
            rest_slots = rest_slots[:keep]
        layout["rest"] = rest_slots
        return order, layout

    def _setup(self, data: dict[str, Any], layout: dict[str, Any]) -> None:
        state = self.table.state
        _need(state["need"].get("phase") == "assembly", "игра не дошла до сборки")
        g = json.loads(json.dumps(state["g"]))
        g["hand"] = layout["hands"]
        g["creatures"] = [
            [{"slot": s, "card": self.table.slot_card[s]} for s in slots]
            for slots in layout["creatures"]
        ]
        for slots in layout["creatures"]:
            for s in slots:
                g["known"][str(s)] = self.table.slot_card[s]
        g["draw"] = layout["deck_top"] + layout["rest"]
        g["discard"] = list(layout["discard"])
        for s in layout["discard"]:
            g["known"][str(s)] = self.table.slot_card[s]
        g["log"] = []
        bag = sorted(self.cat.disease_bag())
        t_pile = sorted(self.cat.treasure_pile())
        for i, p in enumerate(self.players):
            life = p.get("life", 20)
            _need(isinstance(life, int) and 1 <= life <= 25, f"players[{i}].life: 1..25")
            g["life"][i] = life
            g["alive"][i] = bool(p.get("alive", True))
            if not g["alive"][i]:
                _need(not layout["hands"][i], f"players[{i}]: у мёртвого мага нет руки")
                g["life"][i] = 0
                g["dead_order"].append(i)
            g["treasures"][i] = []
            for t in p.get("treasures", []):
                _need(t in t_pile, f"players[{i}].treasures: нет свободного сокровища {t!r}")
                t_pile.remove(t)
                g["treasures"][i].append(t)
            g["diseases"][i] = []
            for kind in p.get("diseases", []):
                token = next((x for x in bag if x.split("#")[0] == kind), None)
                _need(token is not None, f"players[{i}].diseases: нет жетона {kind!r} в мешке")
                bag.remove(str(token))
                g["diseases"][i].append(token)
            g["ghost_next"][i] = list(p.get("ghost_cards", []))
            g["ghost_active"][i] = list(p.get("ghost_signs", []))
            for gid in g["ghost_next"][i] + g["ghost_active"][i]:
                _need(gid in g["ghost_pile"], f"players[{i}]: нет призрачной карты {gid!r}")
                g["ghost_pile"].remove(gid)
            kills = p.get("kills", 0)
            survivals = p.get("survivals", 0)
            _need(isinstance(kills, int) and isinstance(survivals, int), "медали — целые")
            g["kills"][i], g["survivals"][i] = kills, survivals
        g["bag"], g["t_pile"] = bag, t_pile
        palace = data.get("palace")
        _need(palace is None or palace in range(self.n), "palace: номер места или null")
        g["palace"] = palace
        # a dead wizard can only hold the Palace as a ghost: it stays with them in the next fight
        g["palace_ghost"] = palace is not None and not g["alive"][palace]
        fight = data.get("fight", 1)
        _need(isinstance(fight, int) and 1 <= fight <= 3, "fight: 1..3")
        g["fight"] = fight
        living = [s for s in range(self.n) if g["alive"][s]]
        _need(len(living) >= 2, "нужно хотя бы два живых мага")
        self.table.state = self.rules.run({"g": g, "inputs": [], "need": None})
        self.table.knowledge = {s: Knowledge(s) for s in range(self.n)}
        self.table.sync()
        self.start_round = g["round"]
        self.start_fight = g["fight"]

    # ----- answers -------------------------------------------------------------------------

    def _chance(self, decision: Decision) -> int:
        if decision.chance_range == 6:
            if not self.dice:
                raise ScenarioError(f"в сценарии кончились кубики (бросок: {decision.phase})")
            return int(self.dice.pop(0)) - 1
        pile_name = PILES.get(decision.phase)
        if pile_name is not None:
            pile = self.rules.current(self.table.state)[pile_name]
            wanted = self.draws.get(decision.phase) or []
            if wanted:
                card = wanted.pop(0)
                names = [x.split("#")[0] for x in pile]
                _need(card in names, f"draws.{decision.phase}: {card!r} нет среди оставшихся")
                return names.index(card)
        return 0

    def _seal(self, seat: int, knowledge: Knowledge) -> Action:
        spec = self.players[seat].get("seal")
        if spec is None:
            return self.rules.auto_action(self.table.state, seat, knowledge)
        if spec == []:  # seals nothing: no spell this round, the hand stays
            return {"type": "skip", "seat": seat}
        _need(isinstance(spec, list) and 1 <= len(spec) <= 3, f"players[{seat}].seal: 1–3 карты")
        free = list(self.rules.current(self.table.state)["hand"][seat])
        items: list[dict[str, Any]] = []
        entries = []
        for item in spec:
            card = self._card(item.get("card") if isinstance(item, dict) else item, "seal")
            slot = next((s for s in free if knowledge.cards[s] == card), None)
            _need(slot is not None, f"players[{seat}].seal: {card} нет в руке")
            free.remove(int(str(slot)))
            place = item.get("as") if isinstance(item, dict) else None
            place = place or (None if card == WILD else self.cat.spells[card]["slot"])
            _need(place in SLOTS, f"players[{seat}].seal: шальной магии нужно поле as")
            items.append({"slot": slot, "as": place})
            entries.append({"as": place, "card": card})
        _need(len({i["as"] for i in items}) == len(items), "в заклинании типы не повторяются")
        items.append({"initiative": self.rules.flow.initiative_of(entries)})
        return {"type": "seal", "seat": seat, "secret": {"items": items}}

    def _choice(self, rules: Any, state: Any, seat: int, knowledge: Knowledge) -> Action:
        decision = self.rules.decision(state)
        if decision.phase == "assembly":
            return self._seal(seat, knowledge)
        legal = self.rules.legal_actions(state, seat, knowledge)
        for i, choice in enumerate(self.choices):
            if scenario.same(choice.get("seat"), seat) and choice.get("phase") == decision.phase:
                del self.choices[i]
                return self._match(choice, legal, knowledge)
        return self.rules.auto_action(state, seat, knowledge)

    def _match(self, choice: dict[str, Any], legal: list[Action], knowledge: Knowledge) -> Action:
        for action in legal:
            if self._fits(choice, action, knowledge):
                return action
        raise ScenarioError(f"выбор {choice} невозможен сейчас")

    def _fits(self, choice: dict[str, Any], action: Action, knowledge: Knowledge) -> bool:
        phase = choice["phase"]
        if phase == "absorb":
            slot = action["creature"]
            card = None if slot is None else self.table.slot_card[slot]
            return bool(card == choice.get("creature"))
        if phase == "target":
            return scenario.same(action["target"], choice.get("target"))
        if phase == "treasure":
            if action["use"] != choice.get("use"):
                return False
            paid = sorted(knowledge.cards[s] for s in action.get("slots", []))
            return action["use"] is None or paid == sorted(choice.get("cards", []))
        if phase == "drop":
            return bool(knowledge.cards[action["slot"]] == choice.get("card"))
        if phase == "surprise":
            return bool(action["open"]) == bool(choice.get("reveal"))
        if phase in ("cure", "transfer"):
            return bool(action["disease"] == choice.get("disease"))
        return False

    # ----- play ----------------------------------------------------------------------------

    def done(self) -> bool:
        decision = self.table.decision()
        if decision.kind == Kind.TERMINAL:
            return True
        g = self.table.state["g"]
        if self.stop == "round":
            return decision.phase == "assembly" and (
                g["round"] > self.start_round or g["fight"] > self.start_fight
            )
        if self.stop == "fight":
            return bool(g["fight"] > self.start_fight)
        return False

    def play(self) -> dict[str, Any]:
        for _ in range(MAX_STEPS):
            if self.done():
                break
            self.table.step(self._choice)
            if len(self.table.state["inputs"]) > MAX_STEP_INPUTS:
                phase = self.table.decision().phase
                raise ScenarioError(f"шаг игры не заканчивается (ждёт «{phase}» снова и снова)")
        else:
            raise ScenarioError(f"сценарий не закончился за {MAX_STEPS} шагов")
        result: dict[str, Any] = self.rules.summary(self.table.state)
        result["names"] = self.rules.current(self.table.state)["names"]
        result["seats"] = self.seat_views()
        result["unused_dice"] = list(self.dice)
        result["unused_choices"] = list(self.choices)
        return result

    def seat_views(self) -> list[dict[str, Any]]:
        """What each seat sees now: its hand (card ids) and its view without the public log."""
        current = self.rules.current
        return scenario.seat_views(self.table, lambda g, seat: {"hand": current(g)["hand"][seat]})


def run_scenario(data: dict[str, Any], catalog: Catalog | None = None) -> dict[str, Any]:
    """Play a scenario dict and return the resulting public summary."""
    return ScenarioRun(data, catalog).play()


def main(argv: list[str] | None = None) -> int:
    """Command line: play FILE.json and print the result."""
    errors = (CatalogError, IllegalAction)
    return scenario.run_cli(
        "engine.games.rumble.scenario", run_scenario, argv, errors, __doc__ or ""
    )


if __name__ == "__main__":
    sys.exit(main())
