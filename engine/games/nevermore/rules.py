"""``NevermoreRules``: «Невермор» behind the ``engine.core.model.Rules`` contract.

Secret choices (see ``docs/nevermore-rules-map.md``):

- ``pass`` (draft): ``{"type": "pass", "seat", "secret": {"items": [{"slot": s}...]}}`` — the
  table turns it into ``"commit"`` (one digest per passed card); then ``pass_open`` (a MOVE, seat
  after seat) opens them one card per move, ``{"type": "pass_open", "seat", "index": i, "slot": s}``
  (a top-level opening: the fair-play table checks it against the commitment without unmasking the
  card, so the receiver alone learns it, by the private delivery of a newly visible slot).
- ``seal`` (before the resolution): one item per hand card, sorted by slot,
  ``{"slot": s, "doom": bool}`` (``doom``: destroyed by a raven), plus for the «Видение» player
  four ``{"token": suit}`` items (the order of the resolution tokens they chose).
- ``flock`` / ``show`` / ``rest``: ``"open": [{"index", "slot", "card", "doom"}...]`` — five
  ravens; the called suit's cards with the ravens destroying them; the ravens left at the end.
- ``token`` (scryer): ``"open": [{"index": k, "token": suit}]``.
- ``play`` a magic card in a window: ``{"type": "play", "seat", "slot"}`` (the table then reveals
  the slot); ``pass`` ends the seat's turn in the window; public choices are
  ``{"type": "choose", "seat", "pick"}``.

Hidden decks: ``main`` (60), ``light`` and ``shadow`` (25 each), ``tokens`` (the four resolution
tokens). Table steps: REVEAL phases ``dealer``, ``played``, ``brilliance``, ``token`` (the next
face-down token), ``aid_tokens`` («Помощь»: all the rest); RESHUFFLE phases ``new_deck`` (the main
deck between rounds), ``new_tokens`` (the tokens laid face down at the start of a round after the
first) and ``restock`` (a pile topped up with its discards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import combinations, permutations
from typing import Any, cast

from engine.core.game import State, StepRules
from engine.core.model import JSON, Action, IllegalAction, Knowledge
from engine.core.runner import G as Data
from engine.core.runner import Runner, StepFn
from engine.core.view_schema import Pick

from .agenda import CHOICES
from .cards import TOKENS, Catalog, load_catalog
from .flow import Flow
from .shapes import SHAPES
from .state import Need
from .table import G, deck_layout, draw, log, new_state

DEFAULT_MAX_ROUNDS = (
    0  # no round limit at the table (the seed has none); bots and tests may set one
)


END = {"kind": "terminal", "phase": "over", "seats": []}


class Tasks(Mapping[str, StepFn]):
    """Every task name runs as ``Flow.task`` (the task's own handler is ``t_<k>``)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def __getitem__(self, key: str) -> StepFn:
        return cast(StepFn, self.flow.task)  # the runner handles any game's data

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def choice_picks(need: dict[str, Any]) -> Pick | None:
    """What a public choice's options pick (None for any other need)."""
    return CHOICES[need["what"]] if need.get("phase") == "choose" else None


class NevermoreRules(StepRules):
    """The rules of «Невермор» on the step runner; the data ``g`` is one JSON dict (see
    ``state.State``, set up by ``state.new_state``)."""

    game_id = "nevermore"
    shapes = SHAPES

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.cat = catalog or load_catalog()
        self.flow = Flow(self.cat)
        after = cast(Callable[[Data], None], self.flow.after)  # the runner's generic data
        self.runner = Runner(Tasks(self.flow), after, end=END, early=True)

    # ----- set-up ------------------------------------------------------------------------------

    @staticmethod
    def max_rounds(config: Mapping[str, JSON]) -> int:
        value = config.get("max_rounds", DEFAULT_MAX_ROUNDS)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 200:
            raise IllegalAction("max_rounds: от 1 до 200, или 0 — без предела")
        return value

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        """The main deck (60 cards, re-shuffled by the table between rounds), Light and Shadow."""
        self.max_rounds(config)
        return {
            deck: list(TOKENS) if deck == "tokens" else self.cat.deck(deck)
            for deck, _ in deck_layout()
        }

    def new_game(self, config: Mapping[str, JSON]) -> State:
        n = config.get("seats", 4)
        if not isinstance(n, int) or not 3 <= n <= 6:
            raise IllegalAction("в «Невермор» играют от 3 до 6 игроков")
        names = list(config.get("names") or [f"Игрок {i + 1}" for i in range(n)])
        if len(names) != n:
            raise IllegalAction("имён должно быть столько же, сколько игроков")
        g = new_state(n, names, self.max_rounds(config))
        for seat in range(n):
            slot = draw(g, "shadow")
            if slot is not None:
                g["magic"][seat].append(slot)
        log(g, "start")
        g["agenda"] = [{"k": "dealer"}]
        return self.runner.start(cast(Data, g))

    # ----- the contract ------------------------------------------------------------------------

    def game(self, state: State, peek: bool = False) -> G:
        """The game data as it stands now (``peek``: a live step's own data, to read at once)."""
        data = self.runner.peek(state) if peek else self.runner.partial(state)
        return cast(G, data)

    def visible_slots(self, state: State, seat: int) -> frozenset[int]:
        g = self.game(state, peek=True)
        return frozenset(g["hand"][seat] + g["magic"][seat] + g["look"][seat] + g["peek"][seat])

    # ----- legal actions -----------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        need = state["need"]
        if need["kind"] not in ("move", "simultaneous") or seat not in need["seats"]:
            return []
        return self.legal(self.game(state, peek=True), need, seat, knowledge)

    def legal(self, state: G, need: Need, seat: int, knowledge: Knowledge) -> list[Action]:
        """``legal_actions`` over the game data as it is now (``state``) and its ``need``."""
        phase = need["phase"]
        cards = knowledge.cards if knowledge.seat == seat else {}
        secrets = knowledge.secrets if knowledge.seat == seat else {}
        if phase == "choose":
            return self.choices(need, cards)
        if phase == "window":
            plays: list[Action] = [{"type": "pass", "seat": seat}]
            for slot in state["magic"][seat]:
                cid = cards.get(slot)
                if cid and self.flow.magic.playable(state, seat, cid, need["w"]):
                    plays.append({"type": "play", "seat": seat, "slot": slot})
            return plays
        if phase == "pass_commit":
            return self.pass_choices(state, seat, need["ctx"]["count"], cards)
        items = list((secrets.get("seal") or {}).get("items", []))
        if phase == "pass_open":
            chosen = (secrets.get("pass_commit") or {}).get("items", [])
            if not state["pass_sealed"].get(str(seat)):
                return [{"type": "pass_open", "seat": seat, "open": []}]
            done = len(need["ctx"]["part"])
            if done >= len(chosen):
                return []
            return [
                {"type": "pass_open", "seat": seat, "index": done, "slot": chosen[done]["slot"]}
            ]
        if phase == "seal":
            return self.seal_choices(state, seat, cards)
        if phase == "scry_token":
            k = len(state["items"][seat]) + len(state["revealed"])
            if k < len(items) and "token" in items[k]:
                return [
                    {
                        "type": "token",
                        "seat": seat,
                        "open": [{"index": k, "token": items[k]["token"]}],
                    }
                ]
            return [{"type": "token", "seat": seat, "open": []}]
        if phase in ("flock", "show", "rest"):
            return [
                {
                    "type": phase,
                    "seat": seat,
                    "open": self.openings(state, seat, phase, items, cards),
                }
            ]
        return []

    @staticmethod
    def choices(need: Need, cards: dict[int, str]) -> list[Action]:
        options = [dict(o) for o in need["options"]]
        if need.get("private") == "raven":
            ravens = [
                o for o in options if o["pick"] is not None and cards.get(o["pick"]) == "raven"
            ]
            return ravens or [o for o in options if o["pick"] is None]
        return options

    @staticmethod
    def pass_choices(state: G, seat: int, count: int, cards: dict[int, str]) -> list[Action]:
        hand = state["hand"][seat]
        k = min(count, len(hand))
        seen: set[tuple[str, ...]] = set()
        out: list[Action] = []
        for combo in combinations(sorted(hand), k):
            key = tuple(sorted(cards.get(s, str(s)) for s in combo))
            if key in seen:
                continue
            seen.add(key)
            items = [{"slot": s} for s in combo]
            out.append({"type": "pass", "seat": seat, "secret": {"items": items}})
        return out

    def doom_sets(self, state: G, seat: int, cards: dict[int, str]) -> list[set[int]]:
        """Which hand cards the seat's ravens may destroy (deduplicated by suit)."""
        fx = state["fx"]
        hand = sorted(state["hand"][seat])
        ravens = sum(1 for s in hand if cards.get(s) == "raven")
        ravens += self.flow.extra_count(state, seat, "raven")
        if "raven" in fx["banned"] or seat in fx["darkening"]:
            ravens = 0
        others = [
            s for s in hand if cards.get(s) not in (None, "raven") and cards[s] not in fx["banned"]
        ]
        if fx["punish"]:
            suits = sorted({cards[s] for s in others})
            return [
                {s for s in others if cards[s] in chosen}
                for chosen in combinations(suits, min(ravens, len(suits)))
            ]
        out: list[set[int]] = []
        seen: set[tuple[str, ...]] = set()
        for combo in combinations(others, min(ravens, len(others))):
            key = tuple(sorted(cards[s] for s in combo))
            if key not in seen:
                seen.add(key)
                out.append(set(combo))
        return out

    def seal_choices(self, state: G, seat: int, cards: dict[int, str]) -> list[Action]:
        hand = sorted(state["hand"][seat])
        orders: list[list[dict[str, str]]] = [[]]
        if state["scry"] == seat:
            orders = [[{"token": t} for t in p] for p in permutations(TOKENS)]
        out: list[Action] = []
        for doomed in self.doom_sets(state, seat, cards):
            base = [{"slot": s, "doom": s in doomed} for s in hand]
            for order in orders:
                out.append({"type": "seal", "seat": seat, "secret": {"items": base + order}})
        return out

    def openings(
        self, state: G, seat: int, phase: str, items: list[dict[str, Any]], cards: dict[int, str]
    ) -> list[dict[str, Any]]:
        """The honest opening of the sealed cards for the flock check, a suit call or the end."""
        sealed = state["items"][seat]
        opened = set(state["opened"][seat])
        if len(items) < len(sealed):
            return []
        todo = [i for i in range(len(sealed)) if i not in opened and sealed[i] in cards]

        def entry(i: int) -> dict[str, Any]:
            slot = sealed[i]
            return {"index": i, "slot": slot, "card": cards[slot], "doom": bool(items[i]["doom"])}

        ravens = [i for i in todo if cards[sealed[i]] == "raven" and not items[i]["doom"]]
        if phase == "rest":
            return [entry(i) for i in todo]
        if phase == "flock":
            extra = self.flow.extra_count(state, seat, "raven")
            return [entry(i) for i in ravens] if len(ravens) + extra >= 5 else []
        suit = state["revealed"][-1]
        mine = [i for i in todo if cards[sealed[i]] == suit]
        doomed = [cards[sealed[i]] for i in mine if items[i]["doom"]]
        need = self.flow.ravens_needed(state, seat, doomed)
        return [entry(i) for i in mine + ravens[:need]]

    def auto_action(self, state: State, seat: int, knowledge: Knowledge | None) -> Action:
        """The first legal option; without the seat's knowledge, a choice needing no secret."""
        need = state["need"]
        if knowledge is not None:
            actions = self.legal_actions(state, seat, knowledge)
            if actions:
                return actions[0]
        phase = need["phase"]
        blind: dict[str, Action] = {
            "window": {"type": "pass", "seat": seat},
            "pass_commit": {"type": "pass", "seat": seat, "commit": []},
            "pass_open": {"type": "pass_open", "seat": seat, "open": []},
            "seal": {"type": "seal", "seat": seat, "commit": []},
            "scry_token": {"type": "token", "seat": seat, "open": []},
        }
        if phase in blind:
            return blind[phase]
        if phase in ("flock", "show", "rest"):
            return {"type": phase, "seat": seat, "open": []}
        return dict(need["options"][0])

    # ----- views ---------------------------------------------------------------------------------

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        """Public state plus the seat's own hand, magic cards and sealed choices."""
        g = self.game(state)
        known = g["known"]

        def public(slots: list[int]) -> list[str | None]:
            return [known.get(str(s)) for s in slots]

        need = state["need"]
        out: dict[str, Any] = {
            "game": "nevermore",
            "names": g["names"],
            "round": g["round"],
            "dealer": g["dealer"],
            "direction": "left" if g["dir"] == 1 else "right",
            "health": g["hp"],
            "max_health": g["max_hp"],
            "vp": g["vp"],
            "raven": g["raven"],
            "hand_size": [len(h) for h in g["hand"]],
            "magic_size": [len(m) for m in g["magic"]],
            "magic_decks": [
                ["light" if s < g["piles"]["shadow"]["base"] else "shadow" for s in m]
                for m in g["magic"]
            ],
            "added": [public(x) for x in g["extra"]],
            "placed": [public(x) for x in g["placed"]],
            "shown": [public(x) for x in g["shown"]],
            "killed": [len(x) for x in g["killed"]],
            "tokens_revealed": g["revealed"],
            "tokens_planned": g["plan"],
            "effects": g["fx"],
            "winner": g["winner"],
            "over": g["over"],
            "result": g["result"],
            "need": {k: v for k, v in need.items() if k in ("kind", "phase", "seats", "w", "what")},
            "log": g["log"],
        }
        seat = knowledge.seat
        if seat is not None:
            mine = set(self.visible_slots(state, seat))
            out["me"] = {
                "seat": seat,
                "hand": {str(s): knowledge.cards.get(s) for s in g["hand"][seat] if s in mine},
                "magic": {str(s): knowledge.cards.get(s) for s in g["magic"][seat]},
                "look": {str(s): knowledge.cards.get(s) for s in g["look"][seat] + g["peek"][seat]},
                "sealed": (knowledge.secrets.get("seal") or {}).get("items", []),
                "legal": self.legal_actions(state, seat, knowledge),
            }
        from engine.core import view_schema as vs  # the part every game's view shares

        marks: list[list[vs.Mark]] = [[] for _ in g["names"]]
        for s in range(g["n"]):
            marks[s] += ["dealer"] if g["dealer"] == s else []
            marks[s] += ["raven"] if g["raven"][s] else []
            marks[s] += ["winner"] if g["winner"] == s else []
        top = known.get(str(g["discard"][-1])) if g["discard"] else None
        piles = [vs.pile(p, len(g["piles"][p]["draw"])) for p in ("main", "light", "shadow")]
        out[vs.KEY] = {
            "seats": [
                vs.seat(s, name, len(g["hand"][s]), life=g["hp"][s], score=g["vp"][s], marks=mark)
                for s, (name, mark) in enumerate(zip(g["names"], marks, strict=True))
            ],
            "turn": None,
            "prompt": vs.prompt(need, seat, choice_picks(need)),
            "piles": [*piles, vs.pile("discard", len(g["discard"]), top)],
            "over": bool(g["over"]),
            "winners": [] if g["winner"] is None else [g["winner"]],
        }
        return out
