"""An omniscient in-process table for any ``Rules``: tests, scenarios, fuzzing and bots.

It plays the part of the fair-play layer without its cryptography: it shuffles each hidden deck
with a seeded generator (or takes a given order), answers CHANCE from a scripted dice list or the
generator, answers REVEAL from the known order, answers RESHUFFLE by permuting the cards among the
listed slots with the generator (every seat forgets those slots), keeps every seat's ``Knowledge``
in step with ``visible_slots`` (a game that offers ``visible_key(state)``, a sequence with one
value per seat, equal from one state to the next only when ``visible_slots`` gives that seat the
same slots, is looked at only for the seats whose value changed), and turns a private choice
carrying ``"secret": {"items": [...]}`` into the public move with one opaque digest per item (kept
in ``knowledge.secrets[phase]``), and turns ``"show": [slot, ...]`` into ``"open": [{"slot",
"card"}...]`` as the fair-play table does.
At a RACE node it asks every seat in turn (starting from a seeded random one); a policy returning
``None`` lets the moment pass, and when nobody acts the table settles.
Openings are checked against the recorded items and the deck, so a mistaken bot or engine is caught
here.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .model import (
    JSON,
    Action,
    Decision,
    IllegalAction,
    Kind,
    Knowledge,
    Rules,
    canonical_json,
    compact_text,
)

Policy = Callable[[Rules[Any], Any, int, Knowledge], Action | None]


_ENCODE = compact_text
_PLAIN = frozenset((int, str, bool, type(None)))


def _plain_records(items: list[Any]) -> bool:
    """Whether ``items`` are records of plain values only (so hold no float): a seal's items."""
    for item in items:
        if type(item) is not dict:
            return False
        for value in item.values():
            if type(value) not in _PLAIN:
                return False
    return True


def _commitments(seat: int, phase: str, items: list[Any]) -> list[str]:
    """The digest of each sealed item: SHA-256 of the canonical JSON of ``{"seat", "phase", "i",
    "item"}``, written out here in its key order for a plain seat number (the same text)."""
    if type(seat) is not int:
        return [
            hashlib.sha256(
                _ENCODE({"seat": seat, "phase": phase, "i": i, "item": item}).encode()
            ).hexdigest()
            for i, item in enumerate(items)
        ]
    tail = f',"phase":{_ENCODE(phase)},"seat":{seat}}}'
    return [
        hashlib.sha256(f'{{"i":{i},"item":{_ENCODE(item)}{tail}'.encode()).hexdigest()
        for i, item in enumerate(items)
    ]


_CHANCE, _TERMINAL, _REVEAL = Kind.CHANCE, Kind.TERMINAL, Kind.REVEAL
_RESHUFFLE, _RACE = Kind.RESHUFFLE, Kind.RACE


class LocalTable:
    """Drives one game of ``rules`` in process, seeing everything."""

    def __init__(
        self,
        rules: Rules[Any],
        config: Mapping[str, JSON],
        seed: int = 0,
        *,
        deck_orders: Mapping[str, list[str]] | None = None,
        dice: list[int] | None = None,
        chance: Callable[[Decision], int] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.dice = list(dice or [])
        self.chance_fn = chance
        self.slot_card: dict[int, str] = {}
        base = 0
        for name, cards in rules.hidden_decks(config).items():
            if deck_orders is not None and name in deck_orders:
                order = list(deck_orders[name])
                if Counter(order) != Counter(cards):
                    raise ValueError(f"deck order for {name} is not a permutation of its cards")
            else:
                order = self.rng.sample(list(cards), len(cards))
            for i, card in enumerate(order):
                self.slot_card[base + i] = card
            base += len(cards)
        seats = config.get("seats", 0)
        self.knowledge = {s: Knowledge(s) for s in range(seats if isinstance(seats, int) else 0)}
        self.committed: dict[int, list[JSON]] = {}
        self.history: list[Action] = []
        self._visible_key: Callable[[Any], Sequence[Any]] | None = getattr(
            rules, "visible_key", None
        )
        self._delivered: tuple[Sequence[Any], object] | None = None
        """The game's ``visible_key`` at the last delivery and the knowledge it went to."""
        self.state = rules.new_game(config)
        self.sync()

    def sync(self) -> None:
        """Deliver every newly visible slot to its seat's knowledge (call it after setting
        ``state`` or ``knowledge`` from outside).

        A slot a seat already knows keeps its card: only this table fills ``knowledge`` and
        changes ``slot_card``, and a reshuffle makes every seat forget the slots it moves.
        """
        if self._visible_key is not None:
            self._delivered = (self._visible_key(self.state), self.knowledge)
        self._deliver(self.knowledge)

    def _deliver(self, seats: Iterable[int]) -> None:
        """Deliver the newly visible slots of ``seats``."""
        state, visible_slots = self.state, self.rules.visible_slots
        for seat in seats:
            visible = visible_slots(state, seat)
            cards = self.knowledge[seat].cards
            if not cards.keys() >= visible:
                for slot in visible:
                    if slot not in cards:
                        cards[slot] = self.slot_card[slot]

    def decision(self) -> Decision:
        return self.rules.decision(self.state)

    def chance_value(self, decision: Decision) -> int:
        """A scripted d6 when the game rolls one, otherwise the seeded generator."""
        if self.chance_fn is not None:
            return self.chance_fn(decision)
        if decision.chance_range == 6 and self.dice:
            return self.dice.pop(0) - 1
        return self.rng.randrange(decision.chance_range)

    def apply(self, action: Action) -> None:
        self.state = self.rules.apply(self.state, action)
        self.history.append(action)
        delivered, key_of = self._delivered, self._visible_key
        if key_of is None or delivered is None or delivered[1] is not self.knowledge:
            self.sync()
            return
        key, was = key_of(self.state), delivered[0]
        if key == was:
            return
        if len(key) != len(was):
            self.sync()
            return
        self._delivered = (key, self.knowledge)
        changed = [seat for seat in range(len(key)) if key[seat] != was[seat]]
        self._deliver([seat for seat in changed if seat in self.knowledge])

    def public(self, seat: int, action: Action, phase: str) -> Action:
        """Replace a private ``secret`` by commitments; check openings against what was sealed."""
        if "secret" in action:
            secret = action["secret"]
            items = list(secret.get("items", []))
            self.knowledge[seat].secrets[phase] = secret
            self.committed[seat] = items
            out = {k: v for k, v in action.items() if k != "secret"}
            if not _plain_records(items):
                canonical_json(items)  # refuses floats once for all items
            out["commit"] = _commitments(seat, phase, items)
            return out
        if "show" in action and "open" not in action:
            return self.shown(seat, action)
        self.check_openings(seat, action)
        return action

    def shown(self, seat: int, action: Action) -> Action:
        """A card played face up from the hand: ``show`` becomes the table's checked ``open``."""
        shown = action["show"]
        if not isinstance(shown, list) or len(set(map(str, shown))) != len(shown):
            raise IllegalAction("shown slots are malformed")
        visible = self.rules.visible_slots(self.state, seat)
        if any(slot not in visible for slot in shown):
            raise IllegalAction("a shown card is not in the seat's hand")
        out = {k: v for k, v in action.items() if k != "show"}
        out["open"] = [{"slot": slot, "card": self.slot_card[slot]} for slot in shown]
        return out

    def check_openings(self, seat: int, action: Action) -> None:
        items = self.committed.get(seat, [])
        entries = list(action.get("open") or [])
        if "index" in action and "slot" in action:
            entries.append({"index": action["index"], "slot": action["slot"]})
        for entry in entries:
            index = entry.get("index")
            if not isinstance(index, int) or not 0 <= index < len(items):
                raise IllegalAction("opening of an unknown commitment")
            item = items[index]
            shared = False
            for key in item:
                if key in entry:
                    if entry[key] != item[key]:
                        raise IllegalAction("opening does not match the commitment")
                    shared = True
            if not shared:
                raise IllegalAction("opening does not match the commitment")
            if "card" in entry and self.slot_card.get(entry["slot"]) != entry["card"]:
                raise IllegalAction("opening names the wrong card")

    def reshuffle(self, slots: tuple[int, ...]) -> None:
        """A fresh seeded order of the cards among ``slots``; every seat forgets those slots."""
        ordered = sorted(slots)
        if len(set(ordered)) != len(ordered) or any(s not in self.slot_card for s in ordered):
            raise IllegalAction("reshuffle names unknown or repeated slots")
        cards = [self.slot_card[s] for s in ordered]
        self.rng.shuffle(cards)
        for slot, card in zip(ordered, cards, strict=True):
            self.slot_card[slot] = card
        for know in self.knowledge.values():
            for slot in ordered:
                know.cards.pop(slot, None)
        self._delivered = None  # forgotten slots: the next delivery looks at every seat
        self.apply({"type": "reshuffled", "slots": ordered})

    def step(self, policy: Policy | Mapping[int, Policy]) -> bool:
        """Make the game advance by one action; False once it is over."""
        return self._step(policy, isinstance(policy, Mapping))

    def _step(self, policy: Policy | Mapping[int, Policy], by_seat: bool) -> bool:
        """``step`` with ``policy`` known to be one per seat (``by_seat``) or one for all."""
        decision = self.rules.decision(self.state)
        kind = decision.kind
        if kind == _CHANCE:
            self.apply({"type": "chance", "value": self.chance_value(decision)})
        elif kind == _TERMINAL:
            return False
        elif kind == _REVEAL:
            cards = {str(s): self.slot_card[s] for s in decision.slots}
            self.apply({"type": "reveal", "cards": cards})
        elif kind == _RESHUFFLE:
            self.reshuffle(decision.slots)
        elif kind == _RACE:
            self.race(decision, policy)
        else:
            seat = decision.seats[0]
            chooser: Policy = policy[seat] if by_seat else policy  # type: ignore[index,assignment]
            action = chooser(self.rules, self.state, seat, self.knowledge[seat])
            if action is None:
                raise IllegalAction(f"seat {seat} must move at {decision.phase!r}")
            self.apply(self.public(seat, action, decision.phase))
        return True

    def race(self, decision: Decision, policy: Policy | Mapping[int, Policy]) -> None:
        """Ask every racing seat, from a random first one; the first action wins, else settle."""
        seats = list(decision.seats)
        if seats:
            first = self.rng.randrange(len(seats))
            seats = seats[first:] + seats[:first]
        for seat in seats:
            chooser = policy[seat] if isinstance(policy, Mapping) else policy
            action = chooser(self.rules, self.state, seat, self.knowledge[seat])
            if action is not None:
                self.apply(self.public(seat, action, decision.phase))
                return
        self.apply({"type": "settle"})

    def play(self, policy: Policy | Mapping[int, Policy], max_steps: int = 200_000) -> int:
        """Play until the end (or ``max_steps``); returns the number of actions applied."""
        steps = 0
        by_seat = isinstance(policy, Mapping)
        while steps < max_steps and self._step(policy, by_seat):
            steps += 1
        return steps
