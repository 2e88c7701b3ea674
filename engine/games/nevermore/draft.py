"""«Невермор» flow, part 4: the draft — passes of three, two and one, sealed then opened card
by card."""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, IllegalAction

from .rounds import Rounds
from .state import Need, Task
from .table import (
    G,
    log,
    priority,
)


class Draft(Rounds):
    """the draft — passes of three, two and one, sealed then opened card"""

    # ----- the draft -------------------------------------------------------------------------

    def t_draft(self, g: G, task: Task) -> None:
        fx = g["fx"]
        if fx["freeze"]:
            log(g, "frozen")
            return
        counts = [2] if fx["gambit"] else [3, 2, 1]
        order = priority(g)
        tasks: list[Task] = []
        for k in counts:
            tasks += [
                {"k": "window", "w": "draft_pass", "order": order, "i": 0},
                {"k": "pass", "count": k},
            ]
        self.push(g, *tasks)

    def t_pass(self, g: G, task: Task) -> None:
        k = task["count"]
        seats = [s for s in range(g["n"]) if s not in g["through"] and g["hand"][s]]
        self.simultaneous(g, "pass_commit", seats, count=k)

    def i_pass_commit(self, g: G, need: Need, seat: int, action: Action) -> None:
        commit = action.get("commit")
        k = min(need["ctx"]["count"], len(g["hand"][seat]))
        if action.get("type") != "pass" or not isinstance(commit, list):
            raise IllegalAction("передача — обязательство из выбранных карт")
        if commit and len(commit) != k:
            raise IllegalAction(f"нужно передать {k} карт(ы)")
        self.got(g, need, seat, len(commit))

    def done_pass_commit(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        seats = sorted(int(s) for s in got)
        g["pass_sealed"] = {str(s): got[str(s)] for s in seats}
        passes: dict[str, list[int]] = {}
        for s in seats:
            if not got[str(s)]:
                passes[str(s)] = g["hand"][s][: min(ctx["count"], len(g["hand"][s]))]
        order = [s for s in seats if got[str(s)]]
        self.next_pass_open(g, {"count": ctx["count"], "order": order, "got": passes, "part": []})

    def next_pass_open(self, g: G, ctx: dict[str, Any]) -> None:
        """The sealed passes are opened one card per move, seat after seat (every pass is already
        committed, so the order gives nobody anything); then the cards change hands."""
        for seat in ctx["order"]:
            if str(seat) not in ctx["got"]:
                g["need"] = {"kind": "move", "phase": "pass_open", "seats": [seat], "ctx": ctx}
                return
        self.done_pass_open(g, ctx["got"], ctx)

    def i_pass_open(self, g: G, need: Need, seat: int, action: Action) -> None:
        """One passed card a move: ``{"index": i, "slot": s}`` opens commitment ``i`` by its slot
        alone (the fair-play table checks it without showing the card, so only the receiver
        learns it); ``"open": []`` gives up, and the first cards of the hand are passed."""
        ctx = need["ctx"]
        hand = g["hand"][seat]
        k = min(ctx["count"], len(hand))
        part: list[int] = ctx["part"]
        if action.get("type") != "pass_open":
            raise IllegalAction("ожидается раскрытие передачи")
        if "index" in action:
            slot = action.get("slot")
            if action.get("index") != len(part) or len(part) >= k:
                raise IllegalAction("раскрытие не по порядку обязательства")
            if not isinstance(slot, int) or slot not in hand or slot in part:
                raise IllegalAction("передавать можно только свои разные карты")
            part.append(slot)
        elif action.get("open") == []:
            part += [s for s in hand if s not in part][: k - len(part)]
        else:
            raise IllegalAction("передаваемые карты раскрываются по одной")
        if len(part) == k:
            ctx["got"][str(seat)] = list(part)
            ctx["part"] = []
        g["need"] = None
        self.next_pass_open(g, ctx)

    def done_pass_open(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        n, d = g["n"], g["dir"]
        through = g["through"]
        moves = []
        for giver_key, slots in got.items():
            giver = int(giver_key)
            to = (giver + d) % n
            while to in through and to != giver:
                to = (to + d) % n
            moves.append((giver, to, slots))
        for giver, _, slots in moves:
            for slot in slots:
                g["hand"][giver].remove(slot)
        for _, to, slots in moves:
            g["hand"][to].extend(slots)
        log(g, "passed", count=ctx["count"])
        g["through"] = []
