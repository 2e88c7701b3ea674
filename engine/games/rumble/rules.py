"""``RumbleRules``: «Схватка» behind the ``engine.core.model.Rules`` contract.

Secret choices (see ``docs/rumble-rules-map.md``):

- assembly: ``legal_actions`` offers *private* seal choices
  ``{"type": "seal", "seat": s, "secret": {"items": [{"slot", "as"}..., {"initiative": v}]}}``.
  The table keeps ``secret`` in the seat's ``knowledge.secrets["assembly"]`` and sends the public
  move ``{"type": "seal", "seat": s, "commit": [digest of each item, in order]}`` — one digest per
  card, the last one commits to the initiative value.
- ``initiative``: ``{"type": "initiative", "seat": s, "open": [{"index": k, "initiative": v}]}``
  (k = number of cards), asked only of seats whose card count ties.
- ``open``: ``{"type": "open", "seat": s, "open": [{"index", "slot", "card", "as"}...]}``.
- ``drop`` («Гепатит Ы»): ``{"type": "drop", "seat": s, "index": i, "slot": slot}`` — the slot
  leaves the hand face down; the table checks the slot against commitment ``i``.
- ``surprise`` (death with a closed spell): ``{"type": "surprise", "seat": s, "open": []}`` or one
  opened entry holding a «Нежданчик» card.
- ``{"type": "skip", "seat": s}``: issued by the table for an absent player where only that
  player's secrets could answer (assembly, initiative, open, drop, surprise): no spell this round,
  or the sealed spell is forfeited (never cast, its cards stay in the hand). Not offered by
  ``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, cast

from engine.core import view_schema
from engine.core.game import StepRules
from engine.core.model import JSON, Action, IllegalAction, Knowledge
from engine.core.runner import Quiet, Runner

from .cards import WILD, Catalog, load_catalog
from .flow import Flow
from .runner import CTX, Data, clone_game, copied
from .seals import SealChoices, enumerate_seals
from .shapes import SHAPES
from .state import Mode, new_state
from .state import State as GameData
from .view import discard_top, table

State = dict[str, Any]
MODES: tuple[Mode, ...] = ("tournament", "two_wins")
SECRET_PHASES = ("assembly", "initiative", "open", "drop", "surprise")


class RumbleRules(StepRules):
    """The rules of «Схватка» on the shared step runner; the state is a JSON dict
    ``{"g", "inputs", "need"}``."""

    game_id = "rumble"
    shapes = SHAPES

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.cat = catalog or load_catalog()
        self.flow = Flow(self.cat)
        self._steps = self.flow.steps()
        self.runner = Runner(
            self._steps,
            cast(Callable[[Data], None], self.flow.after),  # the runner's data is this game's
            copy=clone_game,
            in_place=self.flow.IN_PLACE,
            quiet=cast(Mapping[str, Quiet], self.flow.quiet()),
            ctx=CTX,
            need_copy=copied,
        )

    # ----- set-up --------------------------------------------------------------------------

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        return {"spells": self.cat.spell_deck()}

    def new_game(self, config: Mapping[str, JSON]) -> State:
        n = config.get("seats", 4)
        if not isinstance(n, int) or not 2 <= n <= 6:
            raise IllegalAction("в «Схватке» от 2 до 6 магов")
        mode = config.get("mode", "tournament")
        if mode not in MODES:
            raise IllegalAction(f"режим: {' или '.join(MODES)}")
        names = config.get("names") or [f"Маг {i + 1}" for i in range(n)]
        if not isinstance(names, list) or len(names) != n:
            raise IllegalAction("names: по имени на каждое место")
        heroes = config.get("heroes") or list(self.cat.heroes)[:n]
        if not isinstance(heroes, list) or len(heroes) != n:
            raise IllegalAction("heroes: по герою на каждое место")
        fights = config.get("fights", 3)
        if not isinstance(fights, int) or not 1 <= fights <= 3:
            raise IllegalAction("fights: от 1 до 3 схваток в турнире")
        g = new_state(
            n, mode, fights, names, heroes, len(self.cat.spell_deck()),
            self.cat.treasure_pile(), self.cat.ghost_pile(), self.cat.disease_bag(),
        )  # fmt: skip
        return self.run({"g": g, "inputs": [], "need": None})

    def run(self, state: State) -> State:
        """Advance a state until it waits for an input."""
        return self.runner.advance(state)

    # ----- the contract --------------------------------------------------------------------

    def visible_slots(self, state: State, seat: int) -> frozenset[int]:
        g = state["g"]
        return frozenset(g["hand"][seat])

    def visible_key(self, state: State) -> list[list[int]]:
        """All that ``visible_slots`` reads, seat by seat: the hands (``LocalTable``). A state's
        data is never changed once the state is made, so its own lists serve as the value."""
        hands: list[list[int]] = state["g"]["hand"]
        return hands

    def current(self, state: State) -> GameData:
        """The game data including what the pending step has already done (for views)."""
        return cast(GameData, self.runner.partial(state))

    def peek(self, state: State) -> GameData:
        """``current`` without a copy: to read at once, never to keep or change."""
        return cast(GameData, self.runner.peek(state))

    # ----- legal actions -------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        need = state["need"]
        if need["kind"] not in ("move", "simultaneous") or seat not in need["seats"]:
            return []
        if "options" in need:
            return [dict(o) for o in need["options"]]
        phase = need["phase"]
        secret = knowledge.secrets.get("assembly") or {}
        items = secret.get("items", [])
        if phase == "assembly":
            return self.seal_choices(self.peek(state), seat, knowledge)
        if phase == "initiative":
            if not items:
                return []
            k = len(items) - 1
            value = items[k].get("initiative", 0)
            return [
                {
                    "type": "initiative",
                    "seat": seat,
                    "open": [{"index": k, "initiative": value}],
                }
            ]
        if phase == "open":
            entries = []
            for i in need["closed"]:
                if i >= len(items) - 1 or items[i]["slot"] not in knowledge.cards:
                    return []
                slot = items[i]["slot"]
                entries.append(
                    {"index": i, "slot": slot, "card": knowledge.cards[slot], "as": items[i]["as"]}
                )
            return [{"type": "open", "seat": seat, "open": entries}]
        if phase == "drop":
            return [
                {"type": "drop", "seat": seat, "index": i, "slot": items[i]["slot"]}
                for i in need["closed"]
                if i < len(items) - 1
            ]
        if phase == "surprise":
            out: list[Action] = [{"type": "surprise", "seat": seat, "open": []}]
            for i in self.flow.closed_indices(self.peek(state), seat):
                if i >= len(items) - 1:
                    continue
                slot = items[i]["slot"]
                card = knowledge.cards.get(slot)
                if card in self.cat.spells and self.cat.spells[card].get("surprise"):
                    entry = {"index": i, "slot": slot, "card": card, "as": items[i]["as"]}
                    out.append({"type": "surprise", "seat": seat, "open": [entry]})
            return out
        if phase == "treasure":
            out = [{"type": "treasure", "seat": seat, "use": None}]
            hand = sorted(self.peek(state)["hand"][seat])
            for tid in need["usable"]:
                cost = self.cat.treasures[tid]["cost"]
                for combo in combinations(hand, cost):
                    out.append({"type": "treasure", "seat": seat, "use": tid, "slots": list(combo)})
            return out
        return []

    def seal_choices(self, g: GameData, seat: int, knowledge: Knowledge) -> list[Action]:
        """Every legal spell from the hand (``seals.enumerate_seals``): 1–3 cards, one per type,
        wild magic fills a gap. Items are in the order of their places' names (delivery, quality,
        source), then the initiative."""
        return list(self.lazy_seals(g, seat, knowledge))

    def lazy_seals(self, g: GameData, seat: int, knowledge: Knowledge) -> SealChoices:
        """``seal_choices`` built only as they are read."""
        known = knowledge.cards
        hand = [s for s in sorted(g["hand"][seat]) if s in known]
        return SealChoices(seat, enumerate_seals(hand, [known[s] for s in hand], self.cat.spells))

    def legal_choices(self, state: State, seat: int, knowledge: Knowledge) -> Sequence[Action]:
        """``legal_actions``, the assembly's seal choices built only as they are read."""
        need = state["need"]
        if (
            need["kind"] in ("move", "simultaneous")
            and need["phase"] == "assembly"
            and seat in need["seats"]
            and "options" not in need
        ):
            return self.lazy_seals(self.peek(state), seat, knowledge)
        return self.legal_actions(state, seat, knowledge)

    def auto_action(self, state: State, seat: int, knowledge: Knowledge | None) -> Action:
        """The automatic choice when a timer ends (seed): seal one card, a delivery where
        possible; take the hit and keep the creature; otherwise the first legal option.

        With ``knowledge=None`` (the log choosing for an absent player) a choice that needs the
        player's secrets becomes ``{"type": "skip"}``: no spell this round, or a forfeited one.
        """
        need = state["need"]
        if need["kind"] == "move" and need["phase"] == "absorb":
            return {"type": "absorb", "seat": seat, "creature": None}
        secret_phase = need["phase"] in SECRET_PHASES
        if knowledge is None and secret_phase:
            return {"type": "skip", "seat": seat}
        actions = self.legal_actions(state, seat, knowledge or Knowledge(seat))
        if need["kind"] == "simultaneous" and need["phase"] == "assembly":
            singles = [a for a in actions if len(a["secret"]["items"]) == 2]
            for wanted in ("delivery", "source", "quality"):
                for a in singles:
                    first = a["secret"]["items"][0]
                    card = knowledge.cards.get(first["slot"]) if knowledge else None
                    if card != WILD and first["as"] == wanted:
                        return a
            for a in singles:
                if a["secret"]["items"][0]["as"] == "delivery":
                    return a
        if need["kind"] == "move" and need["phase"] == "surprise" and len(actions) > 1:
            return actions[1]
        if not actions:
            if secret_phase:
                return {"type": "skip", "seat": seat}
            raise IllegalAction("нет законного хода")
        return actions[0]

    # ----- views ---------------------------------------------------------------------------

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        g = self.current(state)
        seat = knowledge.seat
        need = state["need"]
        seats = []
        for s in range(g["n"]):
            spell = g["spell"][s]
            cast = g["cast"] if g["cast"] is not None and g["cast"]["seat"] == s else None
            seats.append(
                {
                    "seat": s,
                    "name": g["names"][s],
                    "hero": g["heroes"][s] if s < len(g["heroes"]) else None,
                    "life": g["life"][s],
                    "alive": g["alive"][s],
                    "kills": g["kills"][s],
                    "survivals": g["survivals"][s],
                    "hand_count": len(g["hand"][s]),
                    "sealed": None if spell is None else spell["count"] - len(spell["dropped"]),
                    "queue_place": g["queue"].index(s) + 1 if s in g["queue"] else None,
                    "initiative": cast["init"] if cast else None,
                    "spell": [c["card"] for c in cast["cards"]] if cast else [],
                    "spell_name": cast.get("name") if cast else None,
                    "creatures": [c["card"] for c in g["creatures"][s]],
                    "creature_slots": [c["slot"] for c in g["creatures"][s]],
                    "treasures": list(g["treasures"][s]),
                    "diseases": [t.split("#")[0] for t in g["diseases"][s]],
                    "ghost_cards": list(g["ghost_next"][s]) + list(g["ghost_active"][s]),
                    "palace": g["palace"] == s,
                }
            )
        hand = []
        if seat is not None:
            hand = [{"slot": s, "card": knowledge.cards.get(s)} for s in g["hand"][seat]]
        return {
            "game": self.game_id,
            "mode": g["mode"],
            "fight": g["fight"],
            "round": g["round"],
            "turn": g["turn"],
            "seats": seats,
            "hand": hand,
            "palace": g["palace"],
            "queue": list(g["queue"]),
            "cast": None
            if g["cast"] is None
            else {
                "seat": g["cast"]["seat"],
                "name": g["cast"].get("name"),
                "initiative": g["cast"]["init"],
                "cards": [
                    {"card": c["card"], "as": c["as"], "done": c["done"]}
                    for c in g["cast"]["cards"]
                ],
            },
            "discard_top": discard_top(g),
            "deck": len(g["draw"]),
            "discard": len(g["discard"]),
            "treasure_pile": len(g["t_pile"]),
            "ghost_pile": len(g["ghost_pile"]),
            "bag": len(g["bag"]),
            "winners": g["winners"],
            "waiting": {
                "kind": need["kind"],
                "seats": need.get("seats", []),
                "phase": need.get("phase", ""),
                "hit": need.get("hit"),
            },
            "log": list(g["log"]),
            view_schema.KEY: table(g, need, seat),
        }

    def summary(self, state: State) -> JSON:
        """The public result used by the scenario runner and tests."""
        g = self.current(state)
        return {
            "fight": g["fight"],
            "round": g["round"],
            "life": list(g["life"]),
            "alive": list(g["alive"]),
            "medals": {"kills": list(g["kills"]), "survivals": list(g["survivals"])},
            "treasures": [list(t) for t in g["treasures"]],
            "diseases": [[t.split("#")[0] for t in d] for d in g["diseases"]],
            "creatures": [[c["card"] for c in cr] for cr in g["creatures"]],
            "ghost_cards": [
                {"next_fight": list(g["ghost_next"][s]), "this_fight": list(g["ghost_active"][s])}
                for s in range(g["n"])
            ],
            "palace": g["palace"],
            "piles": {
                "deck": len(g["draw"]),
                "discard": len(g["discard"]),
                "treasures": len(g["t_pile"]),
                "treasure_discard": len(g["t_discard"]),
                "ghosts": len(g["ghost_pile"]),
                "ghost_discard": len(g["ghost_discard"]),
                "bag": len(g["bag"]),
            },
            "winners": g["winners"],
            "fight_results": list(g["results"]),
            "waiting": state["need"].get("phase", state["need"]["kind"]),
            "log": list(g["log"]),
        }
