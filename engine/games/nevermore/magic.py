"""The Light and Shadow magic cards in play: when one may be played and what playing it does.

Each card is one ``spell.Spell`` entry (``light.CARDS``, ``shadow.CARDS``); ``Magic`` plays them.
A played card is public (the table reveals its slot); ``resolve`` runs the entry's effect for the
player's form (human or raven) when the card was played. Cards that wait for a later moment
(«Кара», «Господство», «Иссушение»...) are recorded in ``g["fx"]["passive"]``; round-long effects
live in ``g["fx"]``. Choices a card needs are public moves (``Flow.ask``), random picks are CHANCE;
the steps that continue them are the entry's ``steps`` or the shared ones here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from . import light, shadow
from .cards import TOKENS
from .spell import Flow, Play, Spell, Step
from .state import PileName, Task
from .table import G, draw, log

SPELLS: dict[str, Spell] = {**light.CARDS, **shadow.CARDS}
STEPS: dict[str, Step] = {name: step for s in SPELLS.values() for name, step in s.steps.items()}


class Magic:
    """The Light and Shadow cards of one game."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.cat = flow.cat

    def step(self, name: str) -> Step:
        """A card's own step (``a_``, ``t_``, ``r_``, ``c_`` + what), or a shared one here."""
        own = STEPS.get(name)
        if own is not None:
            return partial(own, self)
        found: Step = getattr(self, name)
        return found

    # ----- when a card may be played -----------------------------------------------------------

    def playable(self, g: G, seat: int, cid: str, w: str) -> bool:
        """Whether ``seat`` may play ``cid`` in window ``w`` in its current form."""
        info = self.cat.magic.get(cid)
        spell = SPELLS.get(cid)
        if info is None or spell is None:
            return False
        if info["deck"] == "light" and g["entombed"] == g["round"]:
            return False
        raven = bool(g["raven"][seat])
        return spell.may(g, seat, w, self.cat.window(cid, raven), raven)

    # ----- resolution ------------------------------------------------------------------------

    def resolve(self, g: G, task: Task) -> None:
        cid, seat, slot = task["card"], task["seat"], task["slot"]
        spell = SPELLS[cid]
        if spell.kind == "add":
            g["placed"][seat].remove(slot)
            g["extra"][seat].append(slot)
            log(g, "add_self", seat=seat, card=cid)
            return
        if spell.kind == "passive":
            g["fx"]["passive"].append([seat, cid])
            return
        effect = spell.effect_for(bool(task["raven"]))
        if effect is not None:
            effect(self, g, Play(seat, slot, task["w"]))

    # ----- steps several cards share -----------------------------------------------------------

    def t_discard_pick(self, g: G, task: Task) -> None:
        seat = task["seat"]
        if g["hand"][seat]:
            self.flow.ask(g, seat, "discard_pick", list(g["hand"][seat]), {})

    def a_discard_pick(self, g: G, ctx: dict[str, Any], seat: int, slot: int) -> None:
        g["hand"][seat].remove(slot)
        g["discard"].append(slot)
        log(g, "discard_one", seat=seat)

    def t_draw_main(self, g: G, task: Task) -> None:
        if self.flow.restock_first(g, task, "main", task["count"]):
            return
        self.draw_main(g, task["seat"], task["count"])

    def draw_main(self, g: G, seat: int, count: int) -> None:
        got = 0
        for _ in range(count):
            slot = draw(g, "main")
            if slot is not None:
                g["hand"][seat].append(slot)
                got += 1
        log(g, "draw_main", seat=seat, count=got)

    def move_hands(self, g: G, shift: int) -> None:
        """Every hand (and added suit cards) goes to the seat ``shift`` places on."""
        n = g["n"]
        for zone in ("hand", "extra"):
            old = g[zone]
            g[zone] = [old[(s - shift) % n] for s in range(n)]

    def c_take(self, g: G, ctx: dict[str, Any], value: int) -> None:
        slot = g["hand"][ctx["from"]].pop(value)
        g["hand"][ctx["to"]].append(slot)
        log(g, "take", seat=ctx["to"], source=ctx["from"])

    def t_take_random(self, g: G, task: Task) -> None:
        if g["hand"][task["from"]]:
            self.flow.chance(g, "take", len(g["hand"][task["from"]]), dict(task))

    def t_fill_hand(self, g: G, task: Task) -> None:
        seat = task["seat"]
        missing = task["size"] - len(g["hand"][seat])
        if missing > 0 and not self.flow.restock_first(g, task, "main", missing):
            self.draw_main(g, seat, missing)

    # ----- what the flow asks of the cards later -----------------------------------------------

    def check_foretell(self, g: G, suit: str) -> None:
        light.check_foretell(self, g, suit)

    def drain(self, g: G, seat: int, amount: int) -> None:
        shadow.drain_after_healing(self, g, seat, amount)

    def draw_magic(self, g: G, seat: int, pile: PileName, count: int) -> list[int]:
        got: list[int] = []
        for _ in range(count):
            slot = draw(g, pile)
            if slot is not None:
                g["magic"][seat].append(slot)
                got.append(slot)
        log(g, "draw_magic", seat=seat, pile=pile, count=len(got))
        return got

    def light_gain(self, g: G, seat: int, amount: int, radiance: bool = False) -> None:
        """Light cards for ``seat``; «Дань» of other players reacts, and «Тусклый свет» when the
        cards come from the Radiance majority (``radiance``: the seat has the most Radiance)."""
        slots = self.draw_magic(g, seat, "light", amount)
        tasks: list[Task] = []
        for holder, cid in g["fx"]["passive"]:
            if holder == seat or not slots:
                continue
            if cid == "tax":
                tasks.append({"k": "tax", "seat": holder, "from": seat, "slots": slots})
            if cid == "waning_light" and radiance:
                tasks.append({"k": "waning", "seat": holder, "target": seat, "count": len(slots)})
        self.flow.push(g, *tasks)

    def reversed_strike(self, g: G, seat: int, suit: str, amount: int) -> None:
        shadow.reversed_strike(self, g, seat, suit, amount)

    def reversed_radiance(self, g: G, seat: int, count: int) -> None:
        shadow.reversed_radiance(self, g, seat, count)


__all__ = ["SPELLS", "TOKENS", "Magic"]
