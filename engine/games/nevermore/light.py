"""The Light magic cards of «Невермор», one ``Spell`` entry each (``CARDS``; see ``spell``)."""

from __future__ import annotations

from typing import Any

from .scoring import gain_health, gain_vp, to_human
from .spell import ADD, Cards, Play, Spell, in_window
from .state import Task, as_token
from .table import G, card, log

# ----- «Помощь» --------------------------------------------------------------------------------


def aid(m: Cards, g: G, p: Play) -> None:
    gain_health(g, p.seat, 1)
    m.flow.push(g, {"k": "aid_tokens"}, {"k": "show_plan"})


def aid_raven(m: Cards, g: G, p: Play) -> None:
    g["fx"]["no_heal"] = True
    log(g, "no_heal")
    m.flow.push(g, {"k": "aid_tokens"}, {"k": "show_plan"})


def t_aid_tokens(m: Cards, g: G, task: Task) -> None:
    """The face-down tokens still to come are turned face up, in their order."""
    slots = list(g["piles"]["tokens"]["draw"]) if not g["plan"] else []
    if slots:
        m.flow.reveal(g, slots, "aid_tokens", {"slots": slots})


def r_aid_tokens(m: Cards, g: G, ctx: dict[str, Any]) -> None:
    for slot in ctx["slots"]:
        g["piles"]["tokens"]["draw"].remove(slot)
        g["discard"].append(slot)
        suit = as_token(card(g, slot))
        if suit not in g["revealed"]:
            g["plan"].append(suit)


def t_show_plan(m: Cards, g: G, task: Task) -> None:
    log(g, "plan", tokens=list(g["plan"]))


# ----- «Усиление» ------------------------------------------------------------------------------


def bolster_may(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """In an attack, only for a player it targets."""
    if w == "attacked":
        att = g.get("attack")
        return window == "attacked" and att is not None and seat in att["targets"]
    return in_window(g, seat, w, window, raven)


def bolster(m: Cards, g: G, p: Play) -> None:
    g["attack"]["bolster"].append(p.seat)


def bolster_raven(m: Cards, g: G, p: Play) -> None:
    g["fx"]["no_attack"] = True
    log(g, "no_attack")


# ----- «Блеск» ---------------------------------------------------------------------------------


def brilliance(m: Cards, g: G, p: Play) -> None:
    if g["hand"][p.seat]:
        m.flow.ask(g, p.seat, "brilliance", [None, *g["hand"][p.seat]], {}, private="raven")


def a_brilliance(m: Cards, g: G, ctx: dict[str, Any], seat: int, pick: Any) -> None:
    if pick is None:
        return
    if card(g, pick) is None:
        m.flow.reveal(g, [pick], "brilliance", {"seat": seat, "slot": pick})
    else:
        r_brilliance(m, g, {"seat": seat, "slot": pick})


def r_brilliance(m: Cards, g: G, ctx: dict[str, Any]) -> None:
    seat, slot = ctx["seat"], ctx["slot"]
    if card(g, slot) == "raven" and slot in g["hand"][seat]:
        g["hand"][seat].remove(slot)
        g["discard"].append(slot)
        log(g, "raven_dropped", seat=seat)
    else:
        log(g, "not_raven", seat=seat)


# ----- «Предсказание» --------------------------------------------------------------------------


def foretell(m: Cards, g: G, p: Play) -> None:
    m.flow.ask(g, p.seat, "foretell", ["attack", "healing", "radiance"], {"raven": False})


def foretell_raven(m: Cards, g: G, p: Play) -> None:
    m.flow.ask(g, p.seat, "foretell", ["attack", "healing", "radiance"], {"raven": True})


def a_foretell(m: Cards, g: G, ctx: dict[str, Any], seat: int, suit: str) -> None:
    g["fx"]["foretell"].append([seat, suit, ctx["raven"]])
    log(g, "foretell", seat=seat, suit=suit)


def check_foretell(m: Cards, g: G, suit: str) -> None:
    """When ``suit`` is scored: each foretelling of it comes true if no opponent has a pair."""
    counts = m.flow.counts(g, suit)
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
            m.flow.push(g, {"k": "light_gain", "seat": seat, "amount": 1})


# ----- the rest, in the catalog's order ---------------------------------------------------------


def empower(m: Cards, g: G, p: Play) -> None:
    m.flow.push(g, {"k": "draw_main", "seat": p.seat, "count": 1})


def fortune(m: Cards, g: G, p: Play) -> None:
    m.flow.push(
        g,
        {"k": "discard_pick", "seat": p.seat},
        {"k": "discard_pick", "seat": p.seat},
        {"k": "draw_main", "seat": p.seat, "count": 2},
    )


def freeze(m: Cards, g: G, p: Play) -> None:
    g["fx"]["freeze"] = True


def heal_may(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """Any time in human form (also as a rescue from lethal damage, if it ends above 0); in raven
    form only in answer to a Light card."""
    if raven:
        return w == "light_played"
    if w == "rescue":
        return bool(g.get("rescue_hp", 0) + 2 > 0)
    return w != "light_played"


def heal(m: Cards, g: G, p: Play) -> None:
    if p.w == "rescue":
        g["rescue"] = 2
        log(g, "rescue", seat=p.seat)
    else:
        gain_health(g, p.seat, 2)


def heal_raven(m: Cards, g: G, p: Play) -> None:
    g["cancel"] = True


def illuminate(m: Cards, g: G, p: Play) -> None:
    g["fx"]["banned"].append("raven")
    log(g, "illuminate")


def justice(m: Cards, g: G, p: Play) -> None:
    m.move_hands(g, -g["dir"])
    log(g, "justice")


def passthrough_may(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """In a pass of the draft, by a player with cards who has not skipped one already."""
    return w == "draft_pass" and seat not in g["through"] and bool(g["hand"][seat])


def passthrough(m: Cards, g: G, p: Play) -> None:
    g["through"].append(p.seat)


def punish(m: Cards, g: G, p: Play) -> None:
    g["fx"]["punish"] = True


def punish_raven(m: Cards, g: G, p: Play) -> None:
    g["fx"]["punish_raven"] = True


def renew(m: Cards, g: G, p: Play) -> None:
    gain_health(g, p.seat, 1)
    m.flow.push(
        g, {"k": "discard_pick", "seat": p.seat}, {"k": "draw_main", "seat": p.seat, "count": 1}
    )


def renew_raven(m: Cards, g: G, p: Play) -> None:
    m.flow.push(
        g, {"k": "draw_main", "seat": p.seat, "count": 2}, {"k": "discard_pick", "seat": p.seat}
    )


CARDS: dict[str, Spell] = {
    "add_healing": ADD,
    "add_radiance": ADD,
    "add_victory": ADD,
    "aid": Spell(
        effect=aid,
        raven=aid_raven,
        steps={
            "t_aid_tokens": t_aid_tokens,
            "r_aid_tokens": r_aid_tokens,
            "t_show_plan": t_show_plan,
        },
        sets=("no_heal",),
    ),
    "bolster": Spell(effect=bolster, raven=bolster_raven, may=bolster_may, sets=("no_attack",)),
    "brilliance": Spell(
        effect=brilliance, steps={"a_brilliance": a_brilliance, "r_brilliance": r_brilliance}
    ),
    "empower": Spell(effect=empower),
    "foretell": Spell(
        effect=foretell, raven=foretell_raven, steps={"a_foretell": a_foretell}, sets=("foretell",)
    ),
    "fortune": Spell(effect=fortune),
    "freeze": Spell(effect=freeze, sets=("freeze",)),
    "heal": Spell(effect=heal, raven=heal_raven, may=heal_may),
    "illuminate": Spell(effect=illuminate, sets=("banned",)),
    "justice": Spell(effect=justice),
    "passthrough": Spell(effect=passthrough, may=passthrough_may),
    "penance": Spell(kind="passive"),
    "punish": Spell(effect=punish, raven=punish_raven, sets=("punish", "punish_raven")),
    "renew": Spell(effect=renew, raven=renew_raven),
}
