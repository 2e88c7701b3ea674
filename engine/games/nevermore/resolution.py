"""«Невермор» flow, part 6: the resolution — sealing, the flock check, the tokens and the suit
calls — and the end of the round (skulking ravens)."""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, IllegalAction

from .agenda import SUIT_WORDS
from .cards import SUITS, TOKENS
from .scoring import (
    gain_vp,
    majority,
    to_human,
)
from .state import Need, Task, Token, as_token, fresh_effects, new_round
from .suits import Suits
from .table import (
    ZONES,
    G,
    card,
    dealer,
    draw,
    log,
    priority,
)


class Resolution(Suits):
    """the resolution — sealing, the flock check, the tokens and the suit"""

    # ----- resolution: the seal, the flock, the tokens ----------------------------------------

    def t_seal(self, g: G, task: Task) -> None:
        seats = [s for s in range(g["n"]) if g["hand"][s]]
        for s in range(g["n"]):
            g["items"][s] = sorted(g["hand"][s])
        self.simultaneous(g, "seal", seats)

    def seal_size(self, g: G, seat: int) -> int:
        size = len(g["items"][seat])
        if g["scry"] == seat:
            size += len(TOKENS)
        return size

    def i_seal(self, g: G, need: Need, seat: int, action: Action) -> None:
        commit = action.get("commit")
        if action.get("type") != "seal" or not isinstance(commit, list):
            raise IllegalAction("ожидается обязательство о картах")
        if commit and len(commit) != self.seal_size(g, seat):
            raise IllegalAction("обязательство на каждую карту руки")
        self.got(g, need, seat, bool(commit))

    def done_seal(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        for s in range(g["n"]):
            g["sealed"][s] = bool(got.get(str(s)))
            if not g["sealed"][s]:
                g["discard"].extend(g["hand"][s])
                g["hand"][s] = []
                g["items"][s] = []
                if g["scry"] == s:
                    g["scry"] = None
        log(g, "sealed")

    def open_entries(
        self, g: G, seat: int, action: Action, typ: str
    ) -> list[tuple[int, int, str, bool]]:
        """Checked ``(index, slot, card, doom)`` openings of the seat's sealed cards."""
        opened = action.get("open")
        if action.get("type") != typ or not isinstance(opened, list):
            raise IllegalAction(f"ожидается ход {typ} с раскрытием")
        items = g["items"][seat]
        out: list[tuple[int, int, str, bool]] = []
        seen: set[int] = set()
        for entry in opened:
            if not isinstance(entry, dict):
                raise IllegalAction("раскрытие — объект")
            i, slot, cid, doom = (entry.get(k) for k in ("index", "slot", "card", "doom"))
            if not isinstance(i, int) or not 0 <= i < len(items) or i in g["opened"][seat]:
                raise IllegalAction("раскрытие неизвестного или уже раскрытого обязательства")
            if i in seen or slot != items[i] or cid not in SUITS or not isinstance(doom, bool):
                raise IllegalAction("раскрытие не совпадает с картой руки")
            seen.add(i)
            out.append((i, slot, str(cid), doom))
        return out

    def record_open(self, g: G, seat: int, i: int, slot: int, cid: str) -> None:
        g["known"][str(slot)] = cid
        g["opened"][seat].append(i)
        g["hand"][seat].remove(slot)
        g["collected"][seat].append(cid)

    def t_flock(self, g: G, task: Task) -> None:
        seats = [
            s
            for s in range(g["n"])
            if g["sealed"][s] and len(g["items"][s]) + self.extra_count(g, s, "raven") >= 5
        ]
        if "raven" in g["fx"]["banned"]:
            seats = []
        self.simultaneous(g, "flock", seats)

    def i_flock(self, g: G, need: Need, seat: int, action: Action) -> None:
        entries = self.open_entries(g, seat, action, "flock")
        if entries and (
            any(c != "raven" for _, _, c, _ in entries)
            or len(entries) + self.extra_count(g, seat, "raven") < 5
        ):
            raise IllegalAction("стая — это пять воронов")
        for i, slot, cid, _ in entries:
            self.record_open(g, seat, i, slot, cid)
            g["shown"][seat].append(slot)
        self.got(g, need, seat, bool(entries))

    def done_flock(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        flocks = [s for s in priority(g) if got.get(str(s))]
        if not flocks:
            return
        hits: list[Task] = []
        for s in flocks:
            log(g, "flock", seat=s)
            g["collected"][s] += ["raven"] * (5 - len(g["collected"][s]))
            hits.append(self.harm([(o, 1) for o in priority(g) if o != s], s, "flock"))
            gain_vp(g, s, 1, "flock")
        while g["agenda"] and g["agenda"][0]["k"] != "end_round":
            g["agenda"].pop(0)
        shadow: list[Task] = [
            {"k": "draw_magic", "seat": s, "pile": "shadow", "count": 1} for s in flocks
        ]
        self.push(g, *hits, *shadow)

    def t_draw_magic(self, g: G, task: Task) -> None:
        if self.restock_first(g, task, task["pile"], task["count"]):
            return
        self.magic.draw_magic(g, task["seat"], task["pile"], task["count"])

    def t_token(self, g: G, task: Task) -> None:
        if g["scry"] is not None:
            seat = g["scry"]
            g["need"] = {"kind": "move", "phase": "scry_token", "seats": [seat]}
        elif g["plan"]:
            self.set_token(g, g["plan"].pop(0))
        else:
            slot = draw(g, "tokens")
            if slot is None:  # four tokens for four calls: an engine fault
                raise KeyError("the resolution tokens ran out")
            g["discard"].append(slot)
            self.reveal(g, [slot], "token", {"slot": slot})

    def r_token(self, g: G, ctx: dict[str, Any]) -> None:
        suit = as_token(card(g, ctx["slot"]))
        if suit in g["revealed"]:  # already called by a «Видение» order that was given up
            self.push(g, {"k": "token"})
            return
        self.set_token(g, suit)

    def i_scry_token(self, g: G, need: Need, seat: int, action: Action) -> None:
        opened = action.get("open")
        index = len(g["items"][seat]) + len(g["revealed"])
        if action.get("type") == "token" and opened == []:
            log(g, "scry_none", seat=seat)
            g["scry"] = None
            g["need"] = None
            self.push(g, {"k": "token"})
            return
        if (
            action.get("type") != "token"
            or not isinstance(opened, list)
            or len(opened) != 1
            or not isinstance(opened[0], dict)
            or opened[0].get("index") != index
            or opened[0].get("token") not in TOKENS
            or opened[0].get("token") in g["revealed"]
        ):
            raise IllegalAction("раскройте следующий жетон своего порядка")
        g["need"] = None
        self.set_token(g, as_token(opened[0]["token"]))

    def set_token(self, g: G, suit: Token) -> None:
        if suit in g["pool"]:
            g["pool"].remove(suit)
        if suit in g["plan"]:
            g["plan"].remove(suit)
        g["revealed"].append(suit)
        g["betrayed"] = bool(g["fx"]["betray"])
        g["fx"]["betray"] = None
        log(g, "token", suit=suit, betrayed=g["betrayed"])

    def t_show(self, g: G, task: Task) -> None:
        suit = g["revealed"][-1]
        seats = [s for s in range(g["n"]) if len(g["opened"][s]) < len(g["items"][s])]
        self.simultaneous(g, "show", seats, suit=suit)

    def ravens_needed(self, g: G, seat: int, doomed: list[str]) -> int:
        if "raven" in g["fx"]["banned"] or seat in g["fx"]["darkening"]:
            return 0
        if g["fx"]["punish"]:
            return 1 if doomed else 0
        return len(doomed)

    def i_show(self, g: G, need: Need, seat: int, action: Action) -> None:
        suit = need["ctx"]["suit"]
        entries = self.open_entries(g, seat, action, "show")
        cards = [e for e in entries if e[2] != "raven"]
        ravens = [e for e in entries if e[2] == "raven"]
        if any(c != suit for _, _, c, _ in cards) or any(d for *_, d in ravens):
            raise IllegalAction(f"раскрываются только карты масти «{SUIT_WORDS[suit]}» и вороны")
        doomed = [c for _, _, c, d in cards if d]
        if doomed and ("raven" in g["fx"]["banned"] or seat in g["fx"]["darkening"]):
            raise IllegalAction("вороны не уничтожают карты в этом раунде")
        need_r = self.ravens_needed(g, seat, doomed)
        spare = self.extra_count(g, seat, "raven") - g["extra_used"][seat]
        if len(ravens) > need_r or need_r - len(ravens) > spare:
            raise IllegalAction("число воронов не совпадает с уничтоженными картами")
        g["extra_used"][seat] += need_r - len(ravens)
        banned = g["fx"]["banned"]
        for i, slot, cid, doom in entries:
            self.record_open(g, seat, i, slot, cid)
            counted = cid != "raven" and not doom and cid not in banned
            g["shown" if counted else "killed"][seat].append(slot)
            g["doom"][seat].append(doom)
        self.got(g, need, seat, len(entries))

    def done_show(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        suit = ctx["suit"]
        counts = self.counts(g, suit)
        log(g, "shown", suit=suit, counts=counts)

    # ----- the skulking ravens and the end of the round --------------------------------------

    def t_rest(self, g: G, task: Task) -> None:
        seats = [s for s in range(g["n"]) if len(g["opened"][s]) < len(g["items"][s])]
        self.simultaneous(g, "rest", seats)

    def i_rest(self, g: G, need: Need, seat: int, action: Action) -> None:
        entries = self.open_entries(g, seat, action, "rest")
        for i, slot, cid, doom in entries:
            self.record_open(g, seat, i, slot, cid)
            g["doom"][seat].append(doom)
            if cid == "raven" and not doom:
                g["skulk"][seat] += 1
            elif cid != "raven":
                log(g, "card_left", seat=seat, card=cid)
            g["killed"][seat].append(slot)
        for slot in list(g["hand"][seat]):
            g["hand"][seat].remove(slot)
            g["discard"].append(slot)
        self.got(g, need, seat, len(entries))

    def done_rest(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        """Skulking ravens: ravens left over once every other card was destroyed."""

    def t_skulk(self, g: G, task: Task) -> None:
        fx = g["fx"]
        counts = [0] * g["n"]
        if "raven" not in fx["banned"]:
            for s in range(g["n"]):
                spare = self.extra_count(g, s, "raven") - g["extra_used"][s]
                counts[s] = g["skulk"][s] + max(0, spare)
        if not any(counts):
            return
        log(g, "skulk", counts=counts)
        tasks: list[Task] = [
            self.harm([(s, counts[s]) for s in priority(g) if counts[s]], None, "penance")
            for _holder, cid in fx["passive"]
            if cid == "penance"
        ]
        leaders, top, second = majority(counts)
        if fx["punish_raven"]:
            log(g, "skulk_no_shadow")
        else:
            tasks += [
                {"k": "draw_magic", "seat": s, "pile": "shadow", "count": top - second}
                for s in priority(g)
                if s in leaders
            ]
        self.push(g, *tasks)

    def t_end_round(self, g: G, task: Task) -> None:
        for s in priority(g):
            added = [self.cat.suit_of(card(g, x) or "") for x in g["extra"][s]]
            hand = g["collected"][s] + [a for a in added if a]  # magic suit cards count too
            if g["raven"][s] and returns_to_human(hand):
                to_human(g, s)
        for s in range(g["n"]):
            for zone in ZONES:
                if zone == "magic":
                    continue
                g["discard"].extend(g[zone][s])
                g[zone][s] = []
            g["peek"][s] = []
        g["fx"] = fresh_effects()
        new_round(g)
        g["betrayed"] = False
        g["dealer"] = (dealer(g) + 1) % g["n"]
        g["dir"] = -g["dir"]


def returns_to_human(collected: list[str]) -> bool:
    """Five cards of one suit, or one card of every suit, in the hand of the round."""
    return any(collected.count(s) >= 5 for s in SUITS) or all(s in collected for s in SUITS)
