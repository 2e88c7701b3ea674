"""The effect interpreter: the target vocabulary and every operation a card can hold."""

from __future__ import annotations

from engine.core.model import Action, IllegalAction

from .base import Src
from .cards import WILD, Op
from .life import Life
from .runner import Ask, Ctx, G
from .state import DiseasePhase


class Effects(Life):
    """Targets and operations (``op_<name>`` for each op of the catalog's vocabulary)."""

    # ----- targets -------------------------------------------------------------------------

    def pick(self, g: G, ctx: Ctx, seat: int, among: list[int], why: str) -> Ask[int]:
        options: list[Action] = [{"type": "target", "seat": seat, "target": t} for t in among]
        chosen = yield from ctx.choose(seat, "target", options)
        self.log(g, "target", seat=seat, why=why, target=chosen["target"])
        target: int = chosen["target"]
        return target

    def targets(self, g: G, ctx: Ctx, src: Src, spec: str, it: list[int]) -> Ask[list[int]]:
        """Resolve a target spec to seats (choices and dice go through ``ctx``)."""
        if spec == "it":
            return [t for t in it if g["alive"][t]]
        seat = src.seat
        if spec == "self":
            return [seat] if seat is not None and g["alive"][seat] else []
        foes = self.enemies(g, seat)
        if not foes:
            return []
        if (
            spec in ("all_enemies", "all_players")
            and seat is not None
            and self.has_special(g, seat, "warts")
        ):
            return [(yield from self.pick(g, ctx, seat, foes, "warts"))]
        if spec == "all_enemies":
            return foes
        if spec == "all_players":
            return foes + ([seat] if seat is not None and g["alive"][seat] else [])
        if spec in ("left", "right", "neighbours"):
            assert seat is not None
            left = self.neighbour(g, seat, +1)
            right = self.neighbour(g, seat, -1)
            if spec == "left":
                return [left] if left is not None else []
            if spec == "right":
                return [right] if right is not None else []
            return sorted({s for s in (left, right) if s is not None})
        if spec in ("weakest", "strongest"):
            lives = [g["life"][s] for s in foes]
            best = min(lives) if spec == "weakest" else max(lives)
            tied = [s for s in foes if g["life"][s] == best]
            if len(tied) == 1 or seat is None:
                return [tied[0]]
            return [(yield from self.pick(g, ctx, seat, tied, spec))]
        if spec == "random":
            return [(yield from self.random_enemy(g, ctx, foes))]
        raise IllegalAction(f"неизвестная цель {spec}")

    def random_enemy(self, g: G, ctx: Ctx, foes: list[int]) -> Ask[int]:
        """A d6 shared equally among living enemies; leftover values are re-rolled."""
        share = 6 // len(foes)
        while True:
            roll = yield from ctx.die("random_target")
            index = (roll - 1) // share
            if index < len(foes):
                self.log(g, "victim", roll=roll, seat=foes[index])
                return foes[index]
            self.log(g, "victim", roll=roll, seat=None)

    # ----- operations ----------------------------------------------------------------------

    def run_ops(self, g: G, ctx: Ctx, src: Src, ops: list[Op], it: list[int]) -> Ask[None]:
        for op in ops:
            if not self.acting(g, src):
                return
            run = getattr(self, "op_" + op["op"])(g, ctx, src, op, it)
            if run is not None:  # an operation that never asks is a plain method
                yield from run

    def op_damage(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        for target in (yield from self.targets(g, ctx, src, op["target"], it)):
            yield from self.hurt(g, ctx, src, target, op["amount"])

    def op_heal(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> None:
        if src.seat is not None:
            self.heal(g, src.seat, op["amount"])

    def op_power(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        targets = yield from self.targets(g, ctx, src, op["target"], it)
        seat = src.seat
        dice_n = self.signs(g, seat, src.school) if seat is not None else 0
        bonus = self.bonus(g, seat) if seat is not None else 0
        dice: list[int] = []
        for _ in range(dice_n):
            dice.append((yield from ctx.die("power")))
        total = sum(dice) + bonus
        src.total = total
        self.log(g, "power", seat=seat, n=dice_n, dice=list(dice), bonus=bonus, total=total)
        band = 0 if total <= 4 else 1 if total <= 9 else 2
        yield from self.run_ops(g, ctx, src, op["bands"][band], targets)

    def op_infect(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        for target in (yield from self.targets(g, ctx, src, op["target"], it)):
            yield from self.infect(g, ctx, src, target)

    def op_infect_roll(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        for target in (yield from self.targets(g, ctx, src, op["target"], it)):
            if g["palace"] == target and src.seat != target:
                # the Palace owner cannot catch it from others: nothing to roll for
                self.log(g, "guard_infect", seat=target)
                continue
            roll = yield from ctx.die("infect_roll")
            sick = roll <= op["upto"]
            self.log(g, "infect_roll", seat=target, roll=roll, sick=sick)
            if sick:
                yield from self.infect(g, ctx, src, target)

    def op_cure(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        if src.seat is None:
            return
        for _ in range(op.get("amount", 1)):
            ordinary = [
                t for t in g["diseases"][src.seat] if not self.disease_kind(t).get("eternal")
            ]
            if not ordinary:
                return
            token = yield from self.pick_disease(g, ctx, src.seat, ordinary, "cure")
            self.lose_disease(g, src.seat, token)
            self.log(g, "cure", seat=src.seat, disease=token)

    def pick_disease(
        self, g: G, ctx: Ctx, seat: int, tokens: list[str], phase: DiseasePhase
    ) -> Ask[str]:
        """The player chooses which of ``tokens`` to cure or pass on (phase ``cure`` /
        ``transfer``): one option per kind, the most recently caught first (the timer's pick)."""
        options: list[Action] = []
        kinds: set[str] = set()
        for token in reversed(tokens):
            kind = token.split("#")[0]
            if kind not in kinds:
                kinds.add(kind)
                options.append({"type": phase, "seat": seat, "disease": kind, "token": token})
        chosen: str = (yield from ctx.choose(seat, phase, options))["token"]
        return chosen

    def op_transfer(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        seat = src.seat
        if seat is None:
            return
        ordinary = [t for t in g["diseases"][seat] if not self.disease_kind(t).get("eternal")]
        if not ordinary:
            self.log(g, "nothing_to_pass", seat=seat)
            return
        for target in (yield from self.targets(g, ctx, src, op["target"], it))[:1]:
            if g["palace"] == target and target != seat:
                self.log(g, "guard_transfer", seat=target)
                return
            token = yield from self.pick_disease(g, ctx, seat, ordinary, "transfer")
            self.own_seat_list(g, "diseases", seat).remove(token)
            self.own_seat_list(g, "diseases", target).append(token)
            self.log(g, "transfer", seat=seat, disease=token, target=target)
            yield from self.after_infection(g, ctx, target, token)

    def op_treasure(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        if src.seat is None or not g["alive"][src.seat]:
            return
        for _ in range(op.get("count", 1)):
            yield from self.gain_treasure(g, ctx, src.seat)

    def op_palace(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> None:
        if src.seat is None:
            return
        g["palace"] = src.seat
        g["palace_ghost"] = not g["alive"][src.seat]
        self.log(g, "palace", seat=src.seat)

    def op_add_card(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        cast = g["cast"]
        if cast is None or cast["seat"] != src.seat:
            return
        runs_out = 0
        while True:
            runs_out += not g["draw"]  # as for wild magic: the discard comes back at most once
            slot = (yield from self.draw_slot(g, ctx)) if runs_out < 2 else None
            if slot is None:
                self.log(g, "no_component")
                return
            card_id = (yield from ctx.reveal([slot], "add_card"))[slot]
            self.check_card(card_id)
            self.own_known(g)[str(slot)] = card_id
            if card_id == WILD:
                g["discard"].append(slot)
                self.log(g, "wild_drawn")
                continue
            card = self.spell(card_id)
            cast["cards"].append({"slot": slot, "card": card_id, "as": card["slot"], "done": False})
            self.log(g, "component", card=card_id)
            return

    def op_copy(self, g: G, ctx: Ctx, src: Src, op: Op, it: list[int]) -> Ask[None]:
        cast = g["cast"]
        if cast is None or cast["seat"] != src.seat or src.depth >= 2:
            return
        for c in cast["cards"]:
            if c["as"] == op["slot"]:
                card = self.spell(c["card"])
                self.log(g, "copy", slot=op["slot"], card=c["card"])
                copy_src = Src(src.seat, src.via, card["school"], copy=True, depth=src.depth + 1)
                yield from self.run_ops(g, ctx, copy_src, card["effect"], it)
                return
        self.log(g, "copy_none", slot=op["slot"])

    def check_card(self, card_id: str) -> None:
        if card_id not in self.cat.spells:
            raise IllegalAction(f"неизвестная карта {card_id}")
