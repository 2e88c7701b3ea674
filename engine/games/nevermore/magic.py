"""Every Light and Shadow magic card: when it may be played and what it does.

A played card is public (the table reveals its slot); ``resolve`` runs ``e_<card id>`` with the
text for the player's form (human or raven). Cards that wait for a later moment («Кара»,
«Господство», «Иссушение»...) are recorded in ``g["fx"]["passive"]``; round-long effects live in
``g["fx"]``. Choices a card needs are public moves (``Flow.ask``), random picks are CHANCE.
"""

from __future__ import annotations

from typing import Any, Protocol

from .cards import TOKENS, Catalog
from .scoring import damage, gain_health, gain_vp, to_human
from .table import G, card, draw, humans, log, pile_of, priority


class Flow(Protocol):
    """What the cards ask of the game's flow (``flow.Flow``; typed here, so magic imports no flow
    module and the flow imports magic one way)."""

    cat: Catalog

    @staticmethod
    def push(g: G, *tasks: dict[str, Any]) -> None: ...

    def ask(
        self,
        g: G,
        seat: int,
        what: str,
        options: list[Any],
        ctx: dict[str, Any],
        private: str = "",
    ) -> None: ...

    def chance(self, g: G, what: str, size: int, ctx: dict[str, Any]) -> None: ...

    def reveal(self, g: G, slots: list[int], what: str, ctx: dict[str, Any]) -> None: ...

    def counts(self, g: G, suit: str) -> list[int]: ...

    def harm(self, hits: list[tuple[int, int]], source: int | None, why: str) -> dict[str, Any]: ...

    def restock_first(self, g: G, task: dict[str, Any], pile: str, count: int) -> bool: ...


PASSIVE = {"penance", "dominate", "drain", "enrage", "syphon", "tax", "waning_light"}
ADD_SELF = {"add_healing", "add_radiance", "add_victory", "add_attack"}


class Magic:
    """The Light and Shadow cards of one game."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.cat = flow.cat

    # ----- when a card may be played -----------------------------------------------------------

    def playable(self, g: G, seat: int, cid: str, w: str) -> bool:
        """Whether ``seat`` may play ``cid`` in window ``w`` in its current form."""
        info = self.cat.magic.get(cid)
        if info is None:
            return False
        raven = bool(g["raven"][seat])
        if info["deck"] == "light" and g["entombed"] == g["round"]:
            return False
        if cid == "heal":
            if raven:
                return w == "light_played"
            if w == "rescue":
                return bool(g.get("rescue_hp", 0) + 2 > 0)
            return w != "light_played"
        if w in ("rescue", "light_played"):
            return False
        window = self.cat.window(cid, raven)
        if w == "damaged":  # an opponent's damage that is not an attack: only «Кровотечение»
            hit = g.get("attack")
            return cid == "blooding" and hit is not None and seat != hit["attacker"]
        if w == "attacked":
            att = g.get("attack")
            if window != "attacked" or att is None:
                return False
            if cid == "bolster":
                return seat in att["targets"]
            if cid == "retribution":
                return seat != att["attacker"] if raven else seat in att["targets"]
            return bool(seat != att["attacker"] and not att["all"])
        if cid == "passthrough":
            return w == "draft_pass" and seat not in g["through"] and bool(g["hand"][seat])
        if cid in ADD_SELF or cid == "add_raven":
            # a magic card that looks like a suit card may be added before any resolution turn
            return w in ("before_resolution", "before_token")
        return window == w

    # ----- resolution ------------------------------------------------------------------------

    def resolve(self, g: G, task: dict[str, Any]) -> None:
        cid, seat, slot = task["card"], task["seat"], task["slot"]
        if cid in ADD_SELF:
            g["placed"][seat].remove(slot)
            g["extra"][seat].append(slot)
            log(g, "add_self", seat=seat, card=cid)
            return
        if cid in PASSIVE:
            g["fx"]["passive"].append([seat, cid])
            return
        getattr(self, "e_" + cid)(g, seat, slot, bool(task["raven"]), task["w"])

    def e_add_raven(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        self.flow.ask(g, seat, "add_raven", list(range(g["n"])), {"slot": slot})

    def a_add_raven(self, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
        g["placed"][seat].remove(ctx["slot"])
        g["extra"][target].append(ctx["slot"])
        log(g, "add_raven", seat=seat, to=target)

    def e_aid(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if raven:
            g["fx"]["no_heal"] = True
            log(g, "no_heal")
        else:
            gain_health(g, seat, 1)
        self.flow.push(g, {"k": "aid_tokens"}, {"k": "show_plan"})

    def t_aid_tokens(self, g: G, task: dict[str, Any]) -> None:
        """The face-down tokens still to come are turned face up, in their order."""
        slots = list(g["piles"]["tokens"]["draw"]) if not g["plan"] else []
        if slots:
            self.flow.reveal(g, slots, "aid_tokens", {"slots": slots})

    def r_aid_tokens(self, g: G, ctx: dict[str, Any]) -> None:
        for slot in ctx["slots"]:
            g["piles"]["tokens"]["draw"].remove(slot)
            g["discard"].append(slot)
            suit = card(g, slot)
            if suit not in g["revealed"]:
                g["plan"].append(suit)

    def t_show_plan(self, g: G, task: dict[str, Any]) -> None:
        log(g, "plan", tokens=list(g["plan"]))

    def e_bolster(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if raven:
            g["fx"]["no_attack"] = True
            log(g, "no_attack")
        else:
            g["attack"]["bolster"].append(seat)

    def e_brilliance(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if g["hand"][seat]:
            self.flow.ask(g, seat, "brilliance", [None, *g["hand"][seat]], {}, private="raven")

    def a_brilliance(self, g: G, ctx: dict[str, Any], seat: int, pick: Any) -> None:
        if pick is None:
            return
        if card(g, pick) is None:
            self.flow.reveal(g, [pick], "brilliance", {"seat": seat, "slot": pick})
        else:
            self.r_brilliance(g, {"seat": seat, "slot": pick})

    def r_brilliance(self, g: G, ctx: dict[str, Any]) -> None:
        seat, slot = ctx["seat"], ctx["slot"]
        if card(g, slot) == "raven" and slot in g["hand"][seat]:
            g["hand"][seat].remove(slot)
            g["discard"].append(slot)
            log(g, "raven_dropped", seat=seat)
        else:
            log(g, "not_raven", seat=seat)

    def e_empower(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        self.flow.push(g, {"k": "draw_main", "seat": seat, "count": 1})

    def e_foretell(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        self.flow.ask(g, seat, "foretell", ["attack", "healing", "radiance"], {"raven": raven})

    def a_foretell(self, g: G, ctx: dict[str, Any], seat: int, suit: str) -> None:
        g["fx"]["foretell"].append([seat, suit, ctx["raven"]])
        log(g, "foretell", seat=seat, suit=suit)

    def check_foretell(self, g: G, suit: str) -> None:
        counts = self.flow.counts(g, suit)
        for entry in [e for e in g["fx"]["foretell"] if e[1] == suit]:
            g["fx"]["foretell"].remove(entry)
            seat, _, raven = entry
            if any(counts[o] >= 2 for o in range(g["n"]) if o != seat):
                log(g, "foretold_not", seat=seat)
                continue
            log(g, "foretold", seat=seat)
            if raven:
                if g["raven"][seat]:
                    to_human(g, seat)
            else:
                gain_vp(g, seat, 1, "foretell")
                self.flow.push(g, {"k": "light_gain", "seat": seat, "amount": 1})

    def e_fortune(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        self.flow.push(
            g,
            {"k": "discard_pick", "seat": seat},
            {"k": "discard_pick", "seat": seat},
            {"k": "draw_main", "seat": seat, "count": 2},
        )

    def t_discard_pick(self, g: G, task: dict[str, Any]) -> None:
        seat = task["seat"]
        if g["hand"][seat]:
            self.flow.ask(g, seat, "discard_pick", list(g["hand"][seat]), {})

    def a_discard_pick(self, g: G, ctx: dict[str, Any], seat: int, slot: int) -> None:
        g["hand"][seat].remove(slot)
        g["discard"].append(slot)
        log(g, "discard_one", seat=seat)

    def t_draw_main(self, g: G, task: dict[str, Any]) -> None:
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

    def e_freeze(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["freeze"] = True

    def e_heal(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if raven:
            g["cancel"] = True
        elif w == "rescue":
            g["rescue"] = 2
            log(g, "rescue", seat=seat)
        else:
            gain_health(g, seat, 2)

    def e_illuminate(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["banned"].append("raven")
        log(g, "illuminate")

    def move_hands(self, g: G, shift: int) -> None:
        """Every hand (and added suit cards) goes to the seat ``shift`` places on."""
        n = g["n"]
        for zone in ("hand", "extra"):
            old = g[zone]
            g[zone] = [old[(s - shift) % n] for s in range(n)]

    def e_justice(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        self.move_hands(g, -g["dir"])
        log(g, "justice")

    def e_reap(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        self.move_hands(g, g["dir"])
        log(g, "reap")

    def e_passthrough(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["through"].append(seat)

    def e_punish(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["punish_raven" if raven else "punish"] = True

    def e_renew(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if raven:
            self.flow.push(
                g, {"k": "draw_main", "seat": seat, "count": 2}, {"k": "discard_pick", "seat": seat}
            )
        else:
            gain_health(g, seat, 1)
            self.flow.push(
                g, {"k": "discard_pick", "seat": seat}, {"k": "draw_main", "seat": seat, "count": 1}
            )

    def e_acquire(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        targets = [s for s in range(g["n"]) if s != seat and g["hand"][s]]
        if targets:
            self.flow.ask(g, seat, "acquire", targets, {})

    def a_acquire(self, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
        self.flow.chance(g, "take", len(g["hand"][target]), {"to": seat, "from": target})

    def c_take(self, g: G, ctx: dict[str, Any], value: int) -> None:
        slot = g["hand"][ctx["from"]].pop(value)
        g["hand"][ctx["to"]].append(slot)
        log(g, "take", seat=ctx["to"], source=ctx["from"])

    def e_betrayal(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["betray"] = True

    def e_blooding(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        targets = [t for t in g["attack"]["targets"] if not g["raven"][t]]
        if len(targets) == 1:
            self.a_blooding(g, {}, seat, targets[0])
        elif targets:  # damage to several players: the extra point goes to the one it chooses
            self.flow.ask(g, seat, "blooding", targets, {})

    def a_blooding(self, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
        g["attack"]["blooding"].append([seat, target])
        log(g, "blooding", seat=seat, to=target)

    def e_entomb(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["entombed"] = g["round"] + 1
        log(g, "entomb")

    def e_entrap(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        giver = (seat - g["dir"]) % g["n"]
        for zone in ("hand", "extra"):
            g[zone][seat], g[zone][giver] = g[zone][giver], g[zone][seat]
        log(g, "entrap", seat=seat, to=giver)

    def e_extinguish(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["banned"].append("radiance")
        log(g, "extinguish")

    def e_impair(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["banned"].append("healing")
        log(g, "impair")

    def e_gambit(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["gambit"] = True

    def e_nightmare(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        targets = [s for s in range(g["n"]) if s != seat]
        self.flow.ask(g, seat, "nightmare", targets, {})

    def a_nightmare(self, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
        g["discard"].extend(g["hand"][target])
        g["hand"][target] = []
        log(g, "nightmare", seat=target)
        tasks: list[dict[str, Any]] = [
            {"k": "take_random", "to": target, "from": o}
            for o in priority(g)
            if o not in (seat, target)
        ]
        tasks.append({"k": "fill_hand", "seat": target, "size": 4})
        self.flow.push(g, *tasks)

    def t_take_random(self, g: G, task: dict[str, Any]) -> None:
        if g["hand"][task["from"]]:
            self.flow.chance(g, "take", len(g["hand"][task["from"]]), dict(task))

    def t_fill_hand(self, g: G, task: dict[str, Any]) -> None:
        seat = task["seat"]
        missing = task["size"] - len(g["hand"][seat])
        if missing > 0 and not self.flow.restock_first(g, task, "main", missing):
            self.draw_main(g, seat, missing)

    def e_retribution(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["attack"]["retribution"].append(seat)

    def e_scrye(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        hidden = [s for s in g["piles"]["tokens"]["draw"] if card(g, s) is None]
        if hidden and not g["plan"]:  # the face-down order: the scryer alone sees it
            g["peek"][seat].extend(hidden)
            log(g, "scry_look", seat=seat)
        picks: list[Any] = ["none"]
        if g["hp"][seat] > 1:
            picks.append("hp")
        if g["vp"][seat] >= 1:
            picks.append("vp")
        self.flow.ask(g, seat, "scrye", picks, {})

    def a_scrye(self, g: G, ctx: dict[str, Any], seat: int, pick: str) -> None:
        if pick == "none":
            log(g, "scry_free", seat=seat)
            return
        if pick == "hp":
            g["hp"][seat] -= 1
        else:
            gain_vp(g, seat, -1, "scrye")
        g["scry"] = seat
        log(g, "scry_set", seat=seat)

    def e_spite(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if raven:
            hits = [(s, 1) for s in priority(g) if s != seat]
            self.flow.push(g, self.flow.harm(hits, seat, "spite"))
            return
        gain_vp(g, seat, -1, "spite")
        targets = [s for s in humans(g) if s != seat]
        if targets:
            self.flow.ask(g, seat, "spite", targets, {})

    def a_spite(self, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
        self.flow.push(g, self.flow.harm([(target, 2)], seat, "spite"))

    def e_summon(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        if raven:
            self.flow.push(g, {"k": "draw_main", "seat": seat, "count": 2})
            return
        damage(g, seat, 1, None, "summon")
        self.flow.push(g, {"k": "summon_look", "seat": seat})

    def t_summon_look(self, g: G, task: dict[str, Any]) -> None:
        """Three cards from the main deck, seen by the summoner alone; one is kept."""
        seat = task["seat"]
        if self.flow.restock_first(g, task, "main", 3):
            return
        for _ in range(3):
            drawn = draw(g, "main")
            if drawn is not None:
                g["look"][seat].append(drawn)
        if g["look"][seat]:
            self.flow.ask(g, seat, "summon", list(g["look"][seat]), {})

    def a_summon(self, g: G, ctx: dict[str, Any], seat: int, keep: int) -> None:
        g["look"][seat].remove(keep)
        g["hand"][seat].append(keep)
        g["discard"].extend(g["look"][seat])
        g["look"][seat] = []
        log(g, "summon_keep", seat=seat)

    def e_darkening(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        g["fx"]["darkening"].append(seat)

    def e_withering(self, g: G, seat: int, slot: int, raven: bool, w: str) -> None:
        hits = [(s, 1) for s in priority(g) if s != seat]
        self.flow.push(g, self.flow.harm(hits, seat, "withering"))

    # ----- cards that act later ----------------------------------------------------------------

    def draw_magic(self, g: G, seat: int, pile: str, count: int) -> list[int]:
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
        tasks: list[dict[str, Any]] = []
        for holder, cid in g["fx"]["passive"]:
            if holder == seat or not slots:
                continue
            if cid == "tax":
                tasks.append({"k": "tax", "seat": holder, "from": seat, "slots": slots})
            if cid == "waning_light" and radiance:
                tasks.append({"k": "waning", "seat": holder, "target": seat, "count": len(slots)})
        self.flow.push(g, *tasks)

    def t_tax(self, g: G, task: dict[str, Any]) -> None:
        seat = task["seat"]
        left = [s for s in task["slots"] if s in g["magic"][task["from"]]]
        if left:
            g["peek"][seat].extend(left)
            self.flow.ask(g, seat, "tax", left, {"from": task["from"]})

    def a_tax(self, g: G, ctx: dict[str, Any], seat: int, slot: int) -> None:
        g["magic"][ctx["from"]].remove(slot)
        g["magic"][seat].append(slot)
        g["peek"][seat] = []
        log(g, "tax", seat=seat, source=ctx["from"])

    def t_waning(self, g: G, task: dict[str, Any]) -> None:
        self.flow.push(
            g, self.flow.harm([(task["target"], task["count"])], task["seat"], "waning_light")
        )

    def discard_light(self, g: G, seat: int, count: int) -> None:
        light = sorted(s for s in g["magic"][seat] if pile_of(g, s) == "light")[:count]
        for slot in light:
            g["magic"][seat].remove(slot)
            g["discard"].append(slot)
        log(g, "light_lost", seat=seat, count=len(light))

    def drain(self, g: G, seat: int, amount: int) -> None:
        victims = [s for s in priority(g) if s != seat and not g["raven"][s]]
        if not victims:
            return
        most = max(g["hp"][s] for s in victims)
        victim = next(s for s in victims if g["hp"][s] == most)
        self.flow.push(g, self.flow.harm([(victim, amount)], seat, "drain"))


__all__ = ["TOKENS", "Magic"]
