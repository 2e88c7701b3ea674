"""«Проба» — a tiny game that exercises every primitive of the table protocol.

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
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.core.model import (
    JSON,
    Action,
    Decision,
    IllegalAction,
    Kind,
    Knowledge,
    Rules,
)

CARD_VALUES = {"ember": 1, "frost": 2, "gale": 3, "thorn": 4, "void": 5}
TOKENS = ["coin", "gem", "crown"]
TOKEN_VALUES = {"coin": 1, "gem": 2, "crown": 3}
HAND = 2
BIDS = (0, 1, 2)

ToyState = dict[str, Any]


def deck_cards(seats: int) -> list[str]:
    """Card ids of the hidden deck: names cycle, so bigger tables hold copies."""
    names = list(CARD_VALUES)
    return [names[i % len(names)] for i in range(HAND * seats + 3)]


class ToyRules(Rules[ToyState]):
    """Rules of «Проба»; the state is a JSON dict copied on every ``apply``."""

    game_id = "toy"

    def new_game(self, config: Mapping[str, JSON]) -> ToyState:
        """Hands of two slots each; the rest of the deck stays undealt."""
        seats = int(config.get("seats", 3))
        if not 2 <= seats <= 8:
            raise ValueError("«Проба» seats 2 to 8")
        state: ToyState = {
            "seats": seats,
            "phase": "seal",
            "hands": [[HAND * s + i for i in range(HAND)] for s in range(seats)],
            "next_slot": HAND * seats,
            "commits": [0] * seats,
            "sealed": [None] * seats,
            "acted": [False] * seats,
            "passes": [None] * seats,
            "opened": [None] * seats,
            "revealed": {},
            "die": None,
            "top": None,
            "bag": list(TOKENS),
            "token": None,
            "bids": [None] * seats,
            "turn": 0,
        }
        if config.get("reshuffle"):
            state.update(
                reshuffle=True,
                recycle=[],
                recycled=[],
                redealt=[None] * seats,
                resealed=[False] * seats,
                opened2=[None] * seats,
                top2_slot=None,
                top2=None,
            )
        return state

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        """One hidden deck."""
        return {"main": deck_cards(int(config.get("seats", 3)))}

    def visible_slots(self, state: ToyState, seat: int) -> frozenset[int]:
        """The seat's hand."""
        return frozenset(state["hands"][seat])

    def decision(self, state: ToyState) -> Decision:
        """Where the game stands."""
        phase = state["phase"]
        waiting = tuple(s for s in range(state["seats"]) if not state["acted"][s])
        if phase in ("seal", "pass", "open", "reseal", "reopen"):
            return Decision(Kind.SIMULTANEOUS, seats=waiting, phase=phase)
        if phase == "recycle":
            chunk = tuple(state["recycle"][0])
            return Decision(Kind.RESHUFFLE, phase=phase, slots=chunk, deck="main")
        if phase == "reveal2":
            return Decision(Kind.REVEAL, phase=phase, slots=(state["top2_slot"],), deck="main")
        if phase == "die":
            return Decision(Kind.CHANCE, phase=phase, chance_range=6)
        if phase == "reveal":
            return Decision(Kind.REVEAL, phase=phase, slots=(state["next_slot"],), deck="main")
        if phase == "draw":
            return Decision(Kind.CHANCE, phase=phase, chance_range=len(state["bag"]))
        if phase == "bid":
            return Decision(Kind.MOVE, seats=(state["turn"],), phase=phase)
        return Decision(Kind.TERMINAL, phase="over")

    def legal_actions(self, state: ToyState, seat: int, knowledge: Knowledge) -> list[Action]:
        """Moves open to ``seat``; sealing and opening use the table's ``seal``/``open`` forms."""
        decision = self.decision(state)
        if seat not in decision.seats:
            return []
        phase = state["phase"]
        hand = state["hands"][seat]
        sealed_slot = _sealed_slot(state, seat, knowledge)
        if phase == "seal":
            return [{"type": "seal", "seat": seat, "seal": [slot]} for slot in hand]
        if phase == "pass":
            return [
                {"type": "pass", "seat": seat, "slot": slot} for slot in hand if slot != sealed_slot
            ]
        if phase == "open":
            index = state["sealed"][seat]
            if index is None or sealed_slot not in hand:
                return [{"type": "open", "seat": seat, "open": []}]
            return [{"type": "open", "seat": seat, "open": [{"index": index}]}]
        if phase == "reseal":
            new_card = state["redealt"][seat]
            return [{"type": "seal", "seat": seat, "seal": [] if new_card is None else [new_card]}]
        if phase == "reopen":
            # The only commitment of the seat's latest batch: index 0 within it.
            opened = [{"index": 0}] if state["resealed"][seat] else []
            return [{"type": "open", "seat": seat, "open": opened}]
        return [{"type": "bid", "seat": seat, "amount": amount} for amount in BIDS]

    def auto_action(self, state: ToyState, seat: int, knowledge: Knowledge | None) -> Action:
        """First legal choice; without knowledge, skip the seal and the opening."""
        phase = state["phase"]
        if knowledge is None:
            if phase in ("seal", "reseal"):
                return {"type": "seal", "seat": seat, "commit": []}
            if phase in ("open", "reopen"):
                return {"type": "open", "seat": seat, "open": []}
            if phase == "pass":
                return {"type": "pass", "seat": seat, "slot": state["hands"][seat][-1]}
            return {"type": "bid", "seat": seat, "amount": 0}
        return self.legal_actions(state, seat, knowledge)[0]

    def apply(self, state: ToyState, action: Action) -> ToyState:
        """Pure transition; ``IllegalAction`` leaves ``state`` as it was."""
        kind = action.get("type")
        decision = self.decision(state)
        new = copy.deepcopy(state)
        if kind == "chance":
            value = action.get("value")
            if decision.kind != Kind.CHANCE or not isinstance(value, int):
                raise IllegalAction("no chance event pending")
            if not 0 <= value < decision.chance_range:
                raise IllegalAction("chance value out of range")
            if new["phase"] == "die":
                new["die"] = value + 1
                new["phase"] = "reveal"
            else:
                new["token"] = new["bag"].pop(value)
                new["phase"] = "bid"
                if new.get("reshuffle"):
                    recycled = sorted(int(slot) for slot in new["revealed"])
                    half = len(recycled) // 2
                    new["recycled"] = recycled
                    new["recycle"] = [c for c in (recycled[:half], recycled[half:]) if c]
                    new["phase"] = "recycle"
            return new
        if kind == "reshuffled":
            return self._reshuffled(new, decision, action)
        if kind == "reveal":
            cards = action.get("cards")
            slot = str(new["next_slot"] if new["phase"] == "reveal" else new["top2_slot"])
            if decision.kind != Kind.REVEAL or not isinstance(cards, dict) or set(cards) != {slot}:
                raise IllegalAction("reveal does not match the pending slot")
            card = cards[slot]
            _check_card(card)
            new["revealed"][slot] = card
            if new["phase"] == "reveal2":
                new["top2"] = card
                new["phase"] = "bid"
                return new
            new["top"] = card
            new["next_slot"] += 1
            new["phase"] = "draw"
            return new
        seat = action.get("seat")
        if not isinstance(seat, int) or seat not in decision.seats:
            raise IllegalAction(f"seat {seat} may not act now")
        handler = {
            "seal": self._seal,
            "pass": self._pass,
            "open": self._open,
            "bid": self._bid,
            "reseal": self._reseal,
            "reopen": self._reopen,
        }.get(new["phase"])
        expected = {"reseal": "seal", "reopen": "open"}.get(new["phase"], new["phase"])
        if handler is None or kind != expected:
            raise IllegalAction(f"{kind!r} is not a move of phase {new['phase']!r}")
        handler(new, seat, action)
        return new

    @staticmethod
    def _reshuffled(new: ToyState, decision: Decision, action: Action) -> ToyState:
        """The table re-shuffled the pending chunk: those slots are unknown again."""
        slots = action.get("slots")
        if (
            decision.kind != Kind.RESHUFFLE
            or not isinstance(slots, list)
            or sorted(slots) != sorted(decision.slots)
        ):
            raise IllegalAction("reshuffled does not match the pending re-shuffle")
        for slot in slots:
            new["revealed"].pop(str(slot), None)
        new["recycle"].pop(0)
        if not new["recycle"]:
            recycled = new["recycled"]
            seats = new["seats"]
            for i in range(min(seats, len(recycled) - 1)):
                new["hands"][(i + 1) % seats].append(recycled[i])
                new["redealt"][(i + 1) % seats] = recycled[i]
            new["top2_slot"] = recycled[-1]
            new["phase"] = "reseal"
        return new

    def _reseal(self, new: ToyState, seat: int, action: Action) -> None:
        commits = action.get("commit")
        limit = 0 if new["redealt"][seat] is None else 1
        if not isinstance(commits, list) or len(commits) > limit:
            raise IllegalAction("reseal carries at most one commitment, for a redealt card")
        new["resealed"][seat] = bool(commits)
        self._acted(new, seat, "reopen")

    def _reopen(self, new: ToyState, seat: int, action: Action) -> None:
        opened = action.get("open")
        if not isinstance(opened, list) or len(opened) > 1:
            raise IllegalAction("open carries at most one opening")
        if opened:
            entry = opened[0]
            slot = new["redealt"][seat]
            if not isinstance(entry, dict) or entry.get("index") != 0 or not new["resealed"][seat]:
                raise IllegalAction("that is not the seat's resealed commitment")
            if entry.get("slot") != slot or slot not in new["hands"][seat]:
                raise IllegalAction("the resealed card is not the redealt one")
            card = entry.get("card")
            _check_card(card)
            new["hands"][seat].remove(slot)
            new["opened2"][seat] = card
            new["revealed"][str(slot)] = card
        self._acted(new, seat, "reveal2")

    def _seal(self, new: ToyState, seat: int, action: Action) -> None:
        commits = action.get("commit")
        if not isinstance(commits, list) or len(commits) > 1:
            raise IllegalAction("seal carries at most one commitment")
        if commits:
            new["sealed"][seat] = new["commits"][seat]
            new["commits"][seat] += 1
        self._acted(new, seat, "pass")

    def _pass(self, new: ToyState, seat: int, action: Action) -> None:
        slot = action.get("slot")
        if slot not in new["hands"][seat]:
            raise IllegalAction("that slot is not in the seat's hand")
        new["passes"][seat] = slot
        if self._acted(new, seat, "open"):
            seats = new["seats"]
            for giver, given in enumerate(new["passes"]):
                new["hands"][giver].remove(given)
            for giver, given in enumerate(new["passes"]):
                new["hands"][(giver + 1) % seats].append(given)

    def _open(self, new: ToyState, seat: int, action: Action) -> None:
        opened = action.get("open")
        if not isinstance(opened, list) or len(opened) > 1:
            raise IllegalAction("open carries at most one opening")
        if opened:
            entry = opened[0]
            if not isinstance(entry, dict) or entry.get("index") != new["sealed"][seat]:
                raise IllegalAction("that is not the seat's sealed commitment")
            slot = entry.get("slot")
            if slot not in new["hands"][seat]:
                raise IllegalAction("the sealed card is no longer in hand")
            card = entry.get("card")
            _check_card(card)
            new["hands"][seat].remove(slot)
            new["opened"][seat] = card
            new["revealed"][str(slot)] = card
        self._acted(new, seat, "die")

    def _bid(self, new: ToyState, seat: int, action: Action) -> None:
        amount = action.get("amount")
        if amount not in BIDS or isinstance(amount, bool):
            raise IllegalAction("bid must be 0, 1 or 2")
        new["bids"][seat] = amount
        new["turn"] += 1
        if new["turn"] == new["seats"]:
            new["phase"] = "over"

    @staticmethod
    def _acted(new: ToyState, seat: int, next_phase: str) -> bool:
        new["acted"][seat] = True
        if all(new["acted"]):
            new["acted"] = [False] * new["seats"]
            new["phase"] = next_phase
            return True
        return False

    def scores(self, state: ToyState) -> list[int]:
        """Final scores (meaningful once the game is over)."""
        bids = [b or 0 for b in state["bids"]]
        winner = max(range(state["seats"]), key=lambda s: (bids[s], -s))
        top = state["top"]
        out = []
        for seat in range(state["seats"]):
            card = state["opened"][seat]
            score = CARD_VALUES.get(card, 0) - bids[seat]
            if card is not None and card == top:
                score += CARD_VALUES[top]
            if seat == winner:
                score += (state["die"] or 0) + TOKEN_VALUES.get(state["token"] or "", 0)
            if state.get("reshuffle"):
                score += CARD_VALUES.get(state["opened2"][seat] or "", 0)
            out.append(score)
        return out

    def view(self, state: ToyState, knowledge: Knowledge) -> JSON:
        """Public state plus the identities of the seat's own hand slots."""
        public = self.to_json(state)
        hand: dict[str, str] = {}
        if knowledge.seat is not None:
            for slot in state["hands"][knowledge.seat]:
                if slot in knowledge.cards:
                    hand[str(slot)] = knowledge.cards[slot]
        public["my_cards"] = hand
        if state["phase"] == "over":
            public["scores"] = self.scores(state)
        return public

    def to_json(self, state: ToyState) -> JSON:
        """The state is JSON already."""
        return copy.deepcopy(state)


def _check_card(card: object) -> None:
    if card not in CARD_VALUES:
        raise IllegalAction(f"{card!r} is not a card of «Проба»")


def _sealed_slot(state: ToyState, seat: int, knowledge: Knowledge) -> int | None:
    index = state["sealed"][seat]
    if index is None or knowledge.seat != seat:
        return None
    sealed = knowledge.secrets.get("sealed", {})
    choice = sealed.get(str(index)) if isinstance(sealed, dict) else None
    return choice if isinstance(choice, int) else None
