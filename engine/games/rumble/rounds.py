"""«Схватка» flow, part 1: fights and rounds — the start of a fight, ghosts, the draw, the
assembly of secret spells, «Гепатит Ы» and the queue by initiative (roll-offs)."""

from __future__ import annotations

from engine.core.model import IllegalAction

from .base import HAND_SIZE, MAX_LIFE, START_LIFE, Src
from .effects import Effects
from .runner import Ask, Ctx, G
from .state import Step, sealed

MAX_INITIATIVE = 99


def push(g: G, steps: list[Step]) -> None:
    """Put ``steps`` at the front of the agenda, in the given order."""
    g["agenda"][0:0] = steps


class Rounds(Effects):
    """The steps of fights and rounds (the turns are ``flow.Flow``'s)."""

    # ----- fights and rounds ---------------------------------------------------------------

    def st_fight_start(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        g["fight"] += 1
        g["round"] = 0
        g["in_fight"] = True
        self.log(g, "fight", fight=g["fight"])
        for s in range(g["n"]):
            g["alive"][s] = True
            g["life"][s] = START_LIFE
            self.own_list(g, "ghost_discard").extend(g["ghost_active"][s])
            g["ghost_active"][s] = []
        if not g["palace_ghost"]:
            g["palace"] = None
        elif g["palace"] is not None:
            self.log(g, "ghost_palace", seat=g["palace"])
        g["palace_ghost"] = False
        for s in range(g["n"]):
            for gid in g["ghost_next"][s]:
                card = self.cat.ghosts[gid]
                if card.get("life"):
                    g["life"][s] = min(MAX_LIFE, g["life"][s] + card["life"])
                    self.log(g, "ghost_life", seat=s, ghost=gid, life=g["life"][s])
                if card.get("treasure"):
                    yield from self.gain_treasure(g, ctx, s)
                if card.get("sign"):
                    self.own_seat_list(g, "ghost_active", s).append(gid)
                    self.log(g, "ghost_sign", seat=s, ghost=gid)
                else:
                    self.own_list(g, "ghost_discard").append(gid)
            g["ghost_next"][s] = []
        g["dead_order"] = []
        g["last_standing"] = None
        push(g, [{"k": "round_start"}])

    def st_round_start(self, g: G, ctx: Ctx, step: Step) -> None:
        g["round"] += 1
        g["spell"] = [None] * g["n"]
        g["queue"] = []  # this round's queue is ordered after the assembly; no old places shown
        self.log(g, "round", round=g["round"])
        ghosts: list[Step] = [
            {"k": "ghost", "seat": s} for s in g["dead_order"] if not g["alive"][s]
        ]
        push(g, [*ghosts, {"k": "draw"}, {"k": "assembly"}, {"k": "hepatitis"}, {"k": "order"}])

    def st_ghost(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat = step["seat"]
        gid = yield from self.blind_pick(g, ctx, "ghost_pile", "ghost_discard", "ghost")
        if gid is None:
            return
        card = self.cat.ghosts[gid]
        self.log(g, "ghost_draw", seat=seat, ghost=gid)
        if card["when"] == "now":
            yield from self.run_ops(g, ctx, Src(seat, "ghost"), card["effect"], [])
            self.own_list(g, "ghost_discard").append(gid)
        else:
            self.own_seat_list(g, "ghost_next", seat).append(gid)

    def st_draw(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        for s in self.living(g):
            while len(g["hand"][s]) < HAND_SIZE:
                slot = yield from self.draw_slot(g, ctx)
                if slot is None:
                    break
                g["hand"][s].append(slot)
        self.log(g, "refill")

    def quiet_draw(self, g: G, step: Step) -> bool:
        """The deck holds every card the hands need: no reshuffle."""
        wanted = sum(max(0, HAND_SIZE - len(g["hand"][s])) for s in self.living(g))
        return wanted <= len(g["draw"])

    def st_assembly(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        pending = [s for s in self.living(g) if g["hand"][s]]
        for s in self.living(g):
            if not g["hand"][s]:
                self.log(g, "empty_hand", seat=s)
        while pending:
            action = yield from ctx.ask(
                {"kind": "simultaneous", "seats": list(pending), "phase": "assembly"}
            )
            seat = action["seat"]
            if action.get("type") == "skip":
                pending.remove(seat)
                self.log(g, "no_seal", seat=seat)
                continue
            commit = action.get("commit")
            if action.get("type") != "seal" or not isinstance(commit, list):
                raise IllegalAction("ожидалась печать заклинания (seal с commit)")
            count = len(commit) - 1
            if not 1 <= count <= min(3, len(g["hand"][seat])):
                raise IllegalAction("запечатать можно 1–3 карты из руки и обязательство инициативы")
            if not all(isinstance(d, str) for d in commit):
                raise IllegalAction("обязательства — строки")
            g["spell"][seat] = {
                "count": count,
                "commit": commit[:count],
                "init_commit": commit[count],
                "init": None,
                "dropped": {},
                "revealed": {},
                "opened": False,
            }
            pending.remove(seat)
            self.log(g, "seal", seat=seat, count=count)

    def st_hepatitis(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        for s in self.living(g):
            if g["spell"][s] is not None and self.has_special(g, s, "hepatitis"):
                yield from self.hepatitis(g, ctx, s)

    def st_order(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        living = self.living(g)
        count = {s: 0 if (spell := g["spell"][s]) is None else spell["count"] for s in living}
        groups: dict[int, list[int]] = {}
        for s in living:
            groups.setdefault(count[s], []).append(s)
        need_init = [s for c, seats in groups.items() if c > 0 and len(seats) > 1 for s in seats]
        pending = list(need_init)
        while pending:
            action = yield from ctx.ask(
                {"kind": "simultaneous", "seats": list(pending), "phase": "initiative"}
            )
            seat = action["seat"]
            if action.get("type") == "skip":
                self.forfeit(g, seat)
                self.own_spell(g, seat)["init"] = -1
                pending.remove(seat)
                continue
            entries = action.get("open")
            if action.get("type") != "initiative" or not isinstance(entries, list):
                raise IllegalAction("ожидалось открытие инициативы")
            if len(entries) != 1 or entries[0].get("index") != count[seat]:
                raise IllegalAction("инициатива открывается одной записью с индексом после карт")
            value = entries[0].get("initiative")
            if not isinstance(value, int) or not 0 <= value <= MAX_INITIATIVE:
                raise IllegalAction("инициатива — целое 0..99")
            self.own_spell(g, seat)["init"] = value
            pending.remove(seat)
        queue: list[int] = []
        for c in sorted(groups):
            seats = groups[c]
            if c == 0:
                queue += seats
                continue
            by_init: dict[int, list[int]] = {}
            for s in seats:
                by_init.setdefault(sealed(g, s)["init"] or 0, []).append(s)
            for init in sorted(by_init, reverse=True):
                tied = by_init[init]
                queue += tied if len(tied) == 1 else (yield from self.rolloff(g, ctx, tied))
        g["queue"] = queue
        self.log(g, "queue", queue=[[s, count[s]] for s in queue])
        turns: list[Step] = [{"k": "turn", "seat": s} for s in queue]
        push(g, [*turns, {"k": "round_start"}])

    def rolloff(self, g: G, ctx: Ctx, seats: list[int]) -> Ask[list[int]]:
        """Roll-off among tied seats: higher d6 first, ties roll again."""
        rolls: dict[int, int] = {}
        for s in seats:
            rolls[s] = yield from ctx.die("rolloff")
        self.log(g, "rolloff", rolls=[[s, rolls[s]] for s in seats])
        out: list[int] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in seats if rolls[s] == value]
            out += tied if len(tied) == 1 else (yield from self.rolloff(g, ctx, tied))
        return out
