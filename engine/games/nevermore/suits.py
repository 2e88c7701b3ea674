"""«Невермор» flow, part 5: scoring a called suit — victory, steals, attacks and their hits,
pecks, radiance."""

from __future__ import annotations

from typing import Any

from .draft import Draft
from .scoring import (
    damage,
    finish,
    gain_health,
    gain_vp,
    majority,
    to_human,
)
from .shadow import STEALS
from .state import Task
from .table import (
    REASON_OF,
    REASONS,
    G,
    card,
    humans,
    log,
    priority,
)


class Suits(Draft):
    """scoring a called suit — victory, steals, attacks and their hits,"""

    # ----- scoring a suit --------------------------------------------------------------------

    def extra_count(self, g: G, seat: int, suit: str) -> int:
        """Cards of ``suit`` added to ``seat``'s face-up cards by magic."""
        return sum(1 for slot in g["extra"][seat] if self.cat.suit_of(card(g, slot) or "") == suit)

    def counts(self, g: G, suit: str) -> list[int]:
        """Cards of ``suit`` each seat has face up now (extras included, banned suits zero)."""
        if suit in g["fx"]["banned"]:
            return [0] * g["n"]
        out = []
        for s in range(g["n"]):
            shown = sum(1 for slot in g["shown"][s] if card(g, slot) == suit)
            out.append(shown + self.extra_count(g, s, suit))
        return out

    def t_score(self, g: G, task: Task) -> None:
        suit = g["revealed"][-1]
        if not task.get("stolen"):
            task["stolen"] = True
            self.push(g, task)
            steal = STEALS.get(suit)
            holders = [s for s in priority(g) if [s, steal] in g["fx"]["passive"]]
            for s in reversed(holders):
                self.push(g, {"k": "steal", "seat": s, "suit": suit})
            return
        self.magic.check_foretell(g, suit)
        counts = self.counts(g, suit)
        leaders, top, second = majority(counts)
        amount = top - second
        if not leaders:
            return
        winners = [s for s in priority(g) if s in leaders]
        log(g, "majority", suit=suit, seats=winners, top=top, second=second, amount=amount)
        if suit == "radiance":
            self.score_radiance(g, winners, amount, counts)
            return
        # tied leaders score at the same moment: no win is checked until all of them have scored
        # (attackers act one after another in priority order, as the seed says)
        hold = suit != "attack"
        if hold:
            g["hold_win"] = True
        tasks: list[Task] = [
            {
                "k": "strike",
                "seat": s,
                "suit": suit,
                "amount": amount,
                "second": second,
                "counts": counts,
            }
            for s in winners
        ]
        self.push(g, *tasks, *([Task(k="scored")] if hold else []))

    def t_scored(self, g: G, task: Task) -> None:
        g.pop("hold_win", None)

    def t_strike(self, g: G, task: Task) -> None:
        seat, suit, amount = task["seat"], task["suit"], task["amount"]
        if g["raven"][seat]:
            self.peck_offer(g, task)
            return
        if amount <= 0:
            return
        if g.get("betrayed"):  # «Предательство»: the suit works the other way
            self.magic.reversed_strike(g, seat, suit, amount)
            return
        if suit == "attack":
            targets = [s for s in humans(g) if s != seat]
            if g["fx"]["no_attack"]:
                log(g, "attack_banned")
                return
            picks: list[Any] = list(targets)
            if amount >= 4:
                picks.append("all")
            if picks:
                self.ask(g, seat, "attack", picks, {"amount": amount})
        elif suit == "healing":
            at_max = g["hp"][seat] >= g["max_hp"]
            gain_health(g, seat, amount)
            if at_max and amount >= 3:
                gain_vp(g, seat, 1, "full_heal")
            if [seat, "drain"] in g["fx"]["passive"]:
                self.magic.drain(g, seat, amount)
        elif suit == "victory":
            gain_vp(g, seat, amount, "victory")

    def a_attack(self, g: G, ctx: dict[str, Any], seat: int, pick: Any) -> None:
        amount = ctx["amount"]
        if pick == "all":
            targets = list(humans(g))
            log(g, "strike_all", seat=seat)
            amount = 1
        else:
            targets = [pick]
            log(g, "attack", seat=seat, to=pick, amount=amount)
        self.open_hit(g, seat, targets, [amount] * len(targets), "attack", attack=True)
        g["attack"]["all"] = pick == "all"
        order = priority(g)
        self.push(
            g,
            {"k": "window", "w": "attacked", "order": order, "i": 0},
            {"k": "hit", "i": 0},
        )

    def open_hit(
        self,
        g: G,
        source: int | None,
        targets: list[int],
        amounts: list[int],
        why: str,
        attack: bool = False,
    ) -> None:
        """Start a damage event (``g["attack"]``; an event already open is kept underneath);
        ``why`` is its reason code, recorded by its label (``table.REASONS``)."""
        if g.get("attack") is not None:
            g.setdefault("outer_hits", []).append(g["attack"])
        g["attack"] = {
            "attacker": source,
            "targets": targets,
            "amounts": amounts,
            "amount": amounts[0] if amounts else 0,
            "why": REASONS[why],
            "is_attack": attack,
            "all": False,
            "bolster": [],
            "retribution": [],
            "blooding": [],
        }

    def harm(self, hits: list[tuple[int, int]], source: int | None, why: str) -> Task:
        """The task of a damage event that is not an attack: opponents' damage opens a window
        for «Кровотечение» (everyone but the dealer of the damage), and any damage that would turn
        a player into a raven a window for «Исцеление» (``t_hit``)."""
        hit = [[t, a] for t, a in hits]
        return {"k": "harm", "hits": hit, "source": source, "why": REASONS[why]}

    def t_harm(self, g: G, task: Task) -> None:
        hits = [(t, a) for t, a in task["hits"] if a > 0 and not g["raven"][t]]
        if not hits:
            return
        source = task["source"]
        self.open_hit(g, source, [t for t, _ in hits], [a for _, a in hits], REASON_OF[task["why"]])
        tasks: list[Task] = []
        if source is not None:
            order = [s for s in priority(g) if s != source]
            tasks.append({"k": "window", "w": "damaged", "order": order, "i": 0})
        self.push(g, *tasks, {"k": "hit", "i": 0})

    def t_hit(self, g: G, task: Task) -> None:
        att = g["attack"]
        i = task["i"]
        if i >= len(att["targets"]):
            self.finish_attack(g)
            return
        target = att["targets"][i]
        if target in att["bolster"]:
            log(g, "bolstered", seat=target)
            gain_health(g, target, att["amount"])
            self.push(g, {"k": "hit", "i": i + 1})
            return
        extra = 0 if att["all"] else sum(1 for _, t in att["blooding"] if t == target)
        total = att["amounts"][i] + extra
        after = g["hp"][target] - total
        self.push(g, {"k": "hit_apply", "i": i, "total": total, "extra": extra})
        if after <= 0 and not g["raven"][target] and g["magic"][target] and not g["fx"]["no_heal"]:
            g["rescue_hp"] = after
            self.push(g, {"k": "window", "w": "rescue", "order": [target], "i": 0})
            g["rescue"] = 0

    def t_hit_apply(self, g: G, task: Task) -> None:
        att = g["attack"]
        i = task["i"]
        target = att["targets"][i]
        healed = g.pop("rescue", 0)
        g.pop("rescue_hp", None)
        if healed:
            g["hp"][target] += healed
        total, extra = task["total"], task["extra"]
        source = att["attacker"]
        if extra and g["hp"][target] - att["amounts"][i] > 0 >= g["hp"][target] - total:
            source = next(s for s, t in att["blooding"] if t == target)  # its point was lethal
        damage(g, target, total, source, REASON_OF[att["why"]])
        self.push(g, {"k": "hit", "i": i + 1})

    def finish_attack(self, g: G) -> None:
        att = g.pop("attack")
        outer = g.get("outer_hits")
        if outer:
            g["attack"] = outer.pop()
        if not outer:
            g.pop("outer_hits", None)
        attacker = att["attacker"]
        if not att["is_attack"]:
            return
        if attacker is None:
            raise KeyError("an attack has no attacker")
        self.push(g, *[self.harm([(attacker, 2)], s, "retribution") for s in att["retribution"]])
        if att["all"]:
            gain_vp(g, attacker, 2, "strike_all")

    def peck_offer(self, g: G, task: Task) -> None:
        seat, suit, second = task["seat"], task["suit"], task["second"]
        if suit not in ("attack", "healing", "victory") or (
            suit == "attack" and g["fx"]["no_attack"]
        ):
            return
        counts = task["counts"]
        if any(counts[s] for s in range(g["n"]) if s != seat):
            # someone else has the suit: only the second place is pecked (none if the others
            # tie the raven for the most)
            targets = [s for s in humans(g) if s != seat and second > 0 and counts[s] == second]
        else:
            targets = [s for s in humans(g) if s != seat]
        if targets:
            self.ask(g, seat, "peck", [True, False], {"targets": targets})

    def a_peck(self, g: G, ctx: dict[str, Any], seat: int, pick: Any) -> None:
        if not pick:
            log(g, "no_peck", seat=seat)
            return
        targets = [s for s in ctx["targets"] if not g["raven"][s]]
        log(g, "peck", seat=seat, targets=targets)
        if targets:
            self.push(
                g,
                self.harm([(s, 1) for s in targets], seat, "peck"),
                {"k": "peck_end", "seat": seat},
            )

    def t_peck_end(self, g: G, task: Task) -> None:
        seat = task["seat"]
        if not humans(g):
            to_human(g, seat)
            finish(g, seat, "win_peck", seat=seat)

    def score_radiance(self, g: G, winners: list[int], amount: int, counts: list[int]) -> None:
        betrayed = g.get("betrayed")
        draws: list[Task] = []
        for s in winners:  # in priority order: nearest the dealer draws first, as in every tie
            if betrayed:
                self.magic.reversed_radiance(g, s, amount)
            elif amount > 0:
                draws.append({"k": "light_gain", "seat": s, "amount": amount, "radiance": True})
        self.push(g, *draws)
        for s in priority(g):
            if counts[s] >= 5 and not betrayed:
                log(g, "five_radiance", seat=s)
                gain_health(g, s, 2)
                gain_vp(g, s, 1, "five_radiance")

    def t_light_gain(self, g: G, task: Task) -> None:
        if self.restock_first(g, task, "light", task["amount"]):
            return
        self.magic.light_gain(g, task["seat"], task["amount"], bool(task.get("radiance")))
