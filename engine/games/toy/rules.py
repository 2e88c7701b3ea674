"""«Проба» — a tiny game that exercises every primitive of the table protocol, on the step runner.

Each seat is dealt two hidden cards (private deal), seals one of them with a commitment
(simultaneous secret choice), passes another to the next seat (private pass), opens its seal
(commitment opening + public card), then the table rolls a die (chance), reveals the top of the
deck (public reveal), draws a token blindly from a public bag (uniform pick), and each seat bids in
turn (public move with legal actions). Score: the sealed card's value, plus the die and the token
for the highest bidder (ties to the lower seat), minus each seat's own bid; the revealed top card
adds its value to every seat whose sealed card has the same rank.

With ``{"reshuffle": true}`` in the config the deck is recycled before the bids: every publicly
revealed slot (the opened seals and the top card) goes back face down in two re-shuffles one after
the other (``RESHUFFLE``, first half then second half of the slots, ascending), then the recycled
slots are dealt again: the i-th (ascending) to seat i + 1 (mod seats, as far as they go; so a
seat's own opened card goes to its neighbour), the last stays on the table.
Each seat seals its new card and opens it (it scores its value too), and the table reveals the
last one publicly.

This module is the whole game's flow: one step per phase (``STEPS``), each asking the runner for
one input and then changing the data (a step that has more to ask puts itself back on the
agenda); ``moves`` holds what each move does. It is the example of
``docs/how-to-add-a-game.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from engine.core import view_schema
from engine.core.game import State, StepRules
from engine.core.model import JSON, Action, IllegalAction, Knowledge
from engine.core.runner import Ask, Ctx, Runner, StepFn
from engine.core.runner import G as Data

from . import moves
from .moves import BIDS, CARD_VALUES, TOKENS, G, check_card, redeal, scores
from .shapes import SHAPES
from .state import HAND, Phase, Step, StepName, new_state

__all__ = ["CARD_VALUES", "TOKENS", "ToyRules", "deck_cards"]

Move = Callable[[G, int, Action], None]


def deck_cards(seats: int) -> list[str]:
    """Card ids of the hidden deck: names cycle, so bigger tables hold copies."""
    names = list(CARD_VALUES)
    return [names[i % len(names)] for i in range(HAND * seats + 3)]


def again(g: G, step: Step, phase: Phase) -> None:
    """Ask again in the next step while the phase goes on."""
    if g["phase"] == phase:
        g["agenda"].insert(0, step)


def call(g: G, ctx: Ctx, step: Step, kind: str, move: Move) -> Ask[None]:
    """A simultaneous call of the current phase: every seat answers once, in any order (one
    answer per step)."""
    phase = g["phase"]
    waiting = [s for s in range(g["seats"]) if not g["acted"][s]]
    action = yield from ctx.ask({"kind": "simultaneous", "phase": phase, "seats": waiting})
    if action["type"] != kind:
        raise IllegalAction(f"{action['type']!r} is not a move of phase {phase!r}")
    move(g, action["seat"], action)
    again(g, step, phase)


def roll(g: G, ctx: Ctx, step: Step) -> Ask[None]:
    g["die"] = (yield from ctx.chance(6, "die")) + 1
    g["phase"] = "reveal"


def reveal_top(g: G, ctx: Ctx, step: Step) -> Ask[None]:
    slot = g["next_slot"]
    card = check_card((yield from ctx.reveal([slot], "reveal"))[slot])
    g["revealed"][str(slot)] = card
    g["top"] = card
    g["next_slot"] += 1
    g["phase"] = "draw"


def draw_token(g: G, ctx: Ctx, step: Step) -> Ask[None]:
    g["token"] = g["bag"].pop((yield from ctx.chance(len(g["bag"]), "draw")))
    g["phase"] = "bid"
    if g.get("reshuffle"):
        recycled = sorted(int(slot) for slot in g["revealed"])
        half = len(recycled) // 2
        g["recycled"] = recycled
        g["recycle"] = [c for c in (recycled[:half], recycled[half:]) if c]
        g["phase"] = "recycle"
        g["agenda"][0:0] = [{"k": k} for k in ("recycle", "reseal", "reopen", "reveal2")]


def recycle(g: G, ctx: Ctx, step: Step) -> Ask[None]:
    """One re-shuffle of the next chunk: those slots are unknown again; after the last, the
    re-deal."""
    slots = g["recycle"][0]
    yield from ctx.reshuffle(slots, "recycle")
    for slot in slots:
        g["revealed"].pop(str(slot), None)
    g["recycle"].pop(0)
    if g["recycle"]:
        g["agenda"].insert(0, step)
    else:
        redeal(g)


def reveal_last(g: G, ctx: Ctx, step: Step) -> Ask[None]:
    slot = g["top2_slot"]
    if slot is None:
        raise KeyError("no card is left on the table to reveal")
    card = check_card((yield from ctx.reveal([slot], "reveal2"))[slot])
    g["revealed"][str(slot)] = card
    g["top2"] = card
    g["phase"] = "bid"


def bids(g: G, ctx: Ctx, step: Step) -> Ask[None]:
    """The next seat bids."""
    action = yield from ctx.ask({"kind": "move", "phase": "bid", "seats": [g["turn"]]})
    if action["type"] != "bid":
        raise IllegalAction(f"{action['type']!r} is not a move of phase 'bid'")
    moves.bid(g, action["seat"], action)
    again(g, step, "bid")


TypedStep = Callable[[G, Ctx, Step], Ask[None]]


def _call(kind: str, move: Move) -> TypedStep:
    return lambda g, ctx, step: call(g, ctx, step, kind, move)


_STEPS: dict[StepName, TypedStep] = {
    "seal": _call("seal", moves.seal),
    "pass": _call("pass", moves.pass_card),
    "open": _call("open", moves.open_seal),
    "die": roll,
    "reveal": reveal_top,
    "draw": draw_token,
    "recycle": recycle,
    "reseal": _call("seal", moves.reseal),
    "reopen": _call("open", moves.reopen),
    "reveal2": reveal_last,
    "bid": bids,
}
STEPS = cast(dict[str, StepFn], _STEPS)
"""The steps for the runner (which handles any game's data; this game's is ``state.State``)."""


class ToyRules(StepRules):
    """Rules of «Проба» on the step runner. Every step asks before it changes anything, so the
    state is flat: the game data of ``new_game`` with the runner's ``agenda``, ``inputs`` and
    ``need`` beside it."""

    game_id = "toy"
    shapes = SHAPES

    def __init__(self) -> None:
        end = {"kind": "terminal", "phase": "over"}
        self.runner = Runner(STEPS, ctx=Ctx(deck="main"), end=end, flat=True)

    def new_game(self, config: Mapping[str, JSON]) -> State:
        """Hands of two slots each; the rest of the deck stays undealt."""
        seats = int(config.get("seats", 3))
        if not 2 <= seats <= 8:
            raise ValueError("«Проба» seats 2 to 8")
        g = new_state(seats, TOKENS, bool(config.get("reshuffle")))
        return self.runner.start(cast(Data, g))  # the runner handles any game's data

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        """One hidden deck."""
        return {"main": deck_cards(int(config.get("seats", 3)))}

    def game(self, state: State, peek: bool = False) -> G:
        """The game data as it stands now (``peek``: a live step's own data, to read at once)."""
        data = self.runner.peek(state) if peek else self.runner.partial(state)
        return cast(G, data)

    def visible_slots(self, state: State, seat: int) -> frozenset[int]:
        """The seat's hand."""
        return frozenset(self.game(state, peek=True)["hands"][seat])

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        """Moves open to ``seat``; sealing and opening use the table's ``seal``/``open`` forms."""
        if seat not in self.decision(state).seats:
            return []
        g = self.game(state, peek=True)
        phase = g["phase"]
        hand = g["hands"][seat]
        sealed_slot = _sealed_slot(g, seat, knowledge)
        if phase == "seal":
            return [{"type": "seal", "seat": seat, "seal": [slot]} for slot in hand]
        if phase == "pass":
            return [
                {"type": "pass", "seat": seat, "slot": slot} for slot in hand if slot != sealed_slot
            ]
        if phase == "open":
            index = g["sealed"][seat]
            if index is None or sealed_slot not in hand:
                return [{"type": "open", "seat": seat, "open": []}]
            return [{"type": "open", "seat": seat, "open": [{"index": index}]}]
        if phase == "reseal":
            new_card = g["redealt"][seat]
            return [{"type": "seal", "seat": seat, "seal": [] if new_card is None else [new_card]}]
        if phase == "reopen":
            # The only commitment of the seat's latest batch: index 0 within it.
            opened = [{"index": 0}] if g["resealed"][seat] else []
            return [{"type": "open", "seat": seat, "open": opened}]
        return [{"type": "bid", "seat": seat, "amount": amount} for amount in BIDS]

    def auto_action(self, state: State, seat: int, knowledge: Knowledge | None) -> Action:
        """First legal choice; without knowledge, skip the seal and the opening."""
        g = self.game(state, peek=True)
        phase = g["phase"]
        if knowledge is None:
            if phase in ("seal", "reseal"):
                return {"type": "seal", "seat": seat, "commit": []}
            if phase in ("open", "reopen"):
                return {"type": "open", "seat": seat, "open": []}
            if phase == "pass":
                return {"type": "pass", "seat": seat, "slot": g["hands"][seat][-1]}
            return {"type": "bid", "seat": seat, "amount": 0}
        return self.legal_actions(state, seat, knowledge)[0]

    def scores(self, state: State) -> list[int]:
        """Final scores (meaningful once the game is over)."""
        return scores(self.game(state, peek=True))

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        """The public game data plus the identities of the seat's own hand slots."""
        g = self.game(state)
        public = {k: v for k, v in g.items() if k != "agenda"}  # the data: inputs, need are out
        hand: dict[str, str] = {}
        if knowledge.seat is not None:
            for slot in g["hands"][knowledge.seat]:
                if slot in knowledge.cards:
                    hand[str(slot)] = knowledge.cards[slot]
        public["my_cards"] = hand
        if g["phase"] == "over":
            public["scores"] = scores(g)
        public[view_schema.KEY] = table(g, state["need"], knowledge.seat)
        return public


def table(g: G, need: dict[str, Any], viewer: int | None) -> view_schema.TableView:
    """The shared part: hands and (at the end) scores per seat, the bidder's turn, two piles."""
    over = g["phase"] == "over"
    final = scores(g) if over else None
    bidder = g["turn"] if g["phase"] == "bid" else None
    seats = [
        view_schema.seat(
            s,
            "",
            len(g["hands"][s]),
            score=None if final is None else final[s],
            marks=["turn"] if s == bidder else [],
        )
        for s in range(g["seats"])
    ]
    deck = len(deck_cards(g["seats"])) - g["next_slot"]
    return {
        "seats": seats,
        "turn": bidder,
        "prompt": view_schema.prompt(need, viewer),
        "piles": [view_schema.pile("deck", deck), view_schema.pile("bag", len(g["bag"]))],
        "over": over,
        "winners": [],
    }


def _sealed_slot(g: G, seat: int, knowledge: Knowledge) -> int | None:
    index = g["sealed"][seat]
    if index is None or knowledge.seat != seat:
        return None
    sealed = knowledge.secrets.get("sealed", {})
    choice = sealed.get(str(index)) if isinstance(sealed, dict) else None
    return choice if isinstance(choice, int) else None
