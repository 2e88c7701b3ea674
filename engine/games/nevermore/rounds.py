"""«Невермор» flow, part 3: the first dealer, the round's set-up and deal, and the windows in
which magic cards are played."""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, IllegalAction

from .cards import TOKENS
from .decks import Decks
from .scoring import (
    finish,
)
from .state import Need, Task
from .table import (
    G,
    card,
    draw,
    log,
    priority,
)


class Rounds(Decks):
    """the first dealer, the round's set-up and deal, and the windows in"""

    # ----- set-up: the first dealer --------------------------------------------------------

    def t_dealer(self, g: G, task: Task) -> None:
        slot = draw(g, "main")
        if slot is None:
            g["dealer"] = 0
            return
        g["discard"].append(slot)
        self.reveal(g, [slot], "dealer", {"slot": slot})

    def r_dealer(self, g: G, ctx: dict[str, Any]) -> None:
        drawer = g["drawer"]
        cid = card(g, ctx["slot"])
        log(g, "dealer_draw", seat=drawer, card=cid)
        if cid == "raven":
            g["dealer"] = drawer
            log(g, "first_dealer", seat=drawer)
        else:
            g["drawer"] = (drawer + 1) % g["n"]
            self.push(g, {"k": "dealer"})

    # ----- the round -------------------------------------------------------------------------

    def t_round(self, g: G, task: Task) -> None:
        g["round"] += 1
        if g["max_rounds"] and g["round"] > g["max_rounds"]:
            self.end_by_limit(g)
            return
        r = g["round"]
        log(g, "round", round=r, dealer=g["dealer"], dir=g["dir"])
        # a scenario may start at a later round with the deck and the token order arranged
        preset = g.pop("preset", None)
        if r == 1:
            g["plan"] = list(g["first_plan"])  # face up in the very first round
        g["pool"] = []
        order = priority(g)
        # Round one deals from the deck the first dealer was found with; later rounds from the
        # whole main deck, gathered and re-shuffled, and the four tokens are laid face down in a
        # secret order before the draft (so «Видение» has an order to look at). A scenario's later
        # round comes with both arranged.
        fresh = r > 1 and not preset
        tasks: list[Task] = [{"k": "new_deck"}] if fresh else []
        tasks += [
            {"k": "deal"},
            *([Task(k="new_tokens")] if fresh else []),
            {"k": "window", "w": "before_draft", "order": order, "i": 0},
            {"k": "draft"},
            {"k": "window", "w": "before_resolution", "order": order, "i": 0},
            {"k": "seal"},
            {"k": "flock"},
        ]
        for _ in TOKENS:
            tasks += [
                {"k": "window", "w": "before_token", "order": order, "i": 0},
                {"k": "token"},
                {"k": "show"},
                {"k": "score"},
            ]
        tasks += [
            {"k": "rest"},
            {"k": "skulk"},
            {"k": "window", "w": "end_resolution", "order": order, "i": 0},
            {"k": "end_round"},
        ]
        self.push(g, *tasks)

    def t_deal(self, g: G, task: Task) -> None:
        """Five cards each, one at a time in priority order."""
        if self.restock_first(g, task, "main", 5 * g["n"]):
            return
        for _ in range(5):
            for seat in priority(g):
                slot = draw(g, "main")
                if slot is not None:
                    g["hand"][seat].append(slot)

    def end_by_limit(self, g: G) -> None:
        """A round limit (bots, tests; off at the table) is not a way to win: nobody wins."""
        finish(g, None, "round_limit", rounds=g["max_rounds"])

    # ----- windows for magic cards -----------------------------------------------------------

    def t_window(self, g: G, task: Task) -> None:
        order, i = task["order"], task["i"]
        while i < len(order) and not g["magic"][order[i]]:
            i += 1
        if i >= len(order):
            return
        task["i"] = i
        self.push(g, task)
        g["need"] = {"kind": "move", "phase": "window", "seats": [order[i]], "w": task["w"]}

    def i_window(self, g: G, need: Need, seat: int, action: Action) -> None:
        task = g["agenda"][0]
        typ = action.get("type")
        if typ == "pass":
            # a new entry: the one on the agenda may be the data's the step started from
            g["agenda"][0] = {**task, "i": task["i"] + 1}
            g["need"] = None
            return
        slot = action.get("slot")
        if typ != "play" or not isinstance(slot, int) or slot not in g["magic"][seat]:
            raise IllegalAction("сыграть можно только свою карту магии или спасовать")
        g["magic"][seat].remove(slot)
        g["placed"][seat].append(slot)
        g["need"] = None
        self.push(g, {"k": "played", "seat": seat, "slot": slot, "w": need["w"]})
        if card(g, slot) is None:
            self.reveal(g, [slot], "played", {})

    def r_played(self, g: G, ctx: dict[str, Any]) -> None:
        """The played card is now public; its task runs next."""

    def t_played(self, g: G, task: Task) -> None:
        seat, slot, w = task["seat"], task["slot"], task["w"]
        cid = card(g, slot) or ""
        raven = bool(g["raven"][seat])
        log(g, "play", seat=seat, card=cid)
        if not self.magic.playable(g, seat, cid, w):
            log(g, "unplayable", card=cid)
            return
        effect: Task = {
            "k": "effect",
            "seat": seat,
            "slot": slot,
            "card": cid,
            "raven": raven,
            "w": w,
        }
        others = [s for s in priority(g) if s != seat and g["raven"][s] and g["magic"][s]]
        if self.cat.magic[cid]["deck"] == "light" and others and w != "light_played":
            g["cancel"] = False
            self.push(g, {"k": "window", "w": "light_played", "order": others, "i": 0}, effect)
        else:
            self.push(g, effect)

    def t_effect(self, g: G, task: Task) -> None:
        if self.cat.magic[task["card"]]["deck"] == "light" and g.pop("cancel", False):
            log(g, "cancelled", card=task["card"])
            return
        self.magic.resolve(g, task)
