"""The Shadow magic cards of «Невермор», one ``Spell`` entry each (``CARDS``; see ``spell``)."""

from __future__ import annotations

from typing import Any

from .scoring import damage, gain_health, gain_vp
from .spell import ADD, Cards, Play, Spell, before_a_turn, in_window
from .state import Task
from .table import G, card, draw, humans, log, pile_of, priority

# the card kept in the hand that takes a revealed card of each suit
STEALS = {"attack": "enrage", "healing": "syphon", "victory": "dominate"}

# ----- «Ворон»: added to any player's cards ----------------------------------------------------


def add_raven(m: Cards, g: G, p: Play) -> None:
    m.flow.ask(g, p.seat, "add_raven", list(range(g["n"])), {"slot": p.slot})


def a_add_raven(m: Cards, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
    g["placed"][seat].remove(ctx["slot"])
    g["extra"][target].append(ctx["slot"])
    log(g, "add_raven", seat=seat, to=target)


# ----- cards that take cards -------------------------------------------------------------------


def acquire(m: Cards, g: G, p: Play) -> None:
    targets = [s for s in range(g["n"]) if s != p.seat and g["hand"][s]]
    if targets:
        m.flow.ask(g, p.seat, "acquire", targets, {})


def a_acquire(m: Cards, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
    m.flow.chance(g, "take", len(g["hand"][target]), {"to": seat, "from": target})


def nightmare(m: Cards, g: G, p: Play) -> None:
    targets = [s for s in range(g["n"]) if s != p.seat]
    m.flow.ask(g, p.seat, "nightmare", targets, {})


def a_nightmare(m: Cards, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
    g["discard"].extend(g["hand"][target])
    g["hand"][target] = []
    log(g, "nightmare", seat=target)
    tasks: list[Task] = [
        {"k": "take_random", "to": target, "from": o}
        for o in priority(g)
        if o not in (seat, target)
    ]
    tasks.append({"k": "fill_hand", "seat": target, "size": 4})
    m.flow.push(g, *tasks)


def entrap(m: Cards, g: G, p: Play) -> None:
    giver = (p.seat - g["dir"]) % g["n"]
    for zone in ("hand", "extra"):
        g[zone][p.seat], g[zone][giver] = g[zone][giver], g[zone][p.seat]
    log(g, "entrap", seat=p.seat, to=giver)


def reap(m: Cards, g: G, p: Play) -> None:
    m.move_hands(g, g["dir"])
    log(g, "reap")


# ----- cards of an attack or of damage ----------------------------------------------------------


def blooding_may(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """Also on an opponent's damage that is not an attack (by anyone but its dealer)."""
    if w == "damaged":
        hit = g.get("attack")
        return hit is not None and seat != hit["attacker"]
    return in_window(g, seat, w, window, raven)


def blooding(m: Cards, g: G, p: Play) -> None:
    targets = [t for t in g["attack"]["targets"] if not g["raven"][t]]
    if len(targets) == 1:
        a_blooding(m, g, {}, p.seat, targets[0])
    elif targets:  # damage to several players: the extra point goes to the one it chooses
        m.flow.ask(g, p.seat, "blooding", targets, {})


def a_blooding(m: Cards, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
    g["attack"]["blooding"].append([seat, target])
    log(g, "blooding", seat=seat, to=target)


def retribution_may(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """In an attack on the player (in raven form: on anyone, by anyone else)."""
    if w == "attacked":
        att = g.get("attack")
        if window != "attacked" or att is None:
            return False
        return bool(seat != att["attacker"]) if raven else seat in att["targets"]
    return in_window(g, seat, w, window, raven)


def retribution(m: Cards, g: G, p: Play) -> None:
    g["attack"]["retribution"].append(p.seat)


def spite(m: Cards, g: G, p: Play) -> None:
    gain_vp(g, p.seat, -1, "spite")
    targets = [s for s in humans(g) if s != p.seat]
    if targets:
        m.flow.ask(g, p.seat, "spite", targets, {})


def spite_raven(m: Cards, g: G, p: Play) -> None:
    hits = [(s, 1) for s in priority(g) if s != p.seat]
    m.flow.push(g, m.flow.harm(hits, p.seat, "spite"))


def a_spite(m: Cards, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
    m.flow.push(g, m.flow.harm([(target, 2)], seat, "spite"))


def withering(m: Cards, g: G, p: Play) -> None:
    hits = [(s, 1) for s in priority(g) if s != p.seat]
    m.flow.push(g, m.flow.harm(hits, p.seat, "withering"))


# ----- cards that change the round --------------------------------------------------------------


def betrayal(m: Cards, g: G, p: Play) -> None:
    """The next token called is betrayed (``resolution.set_token`` turns the flag into
    ``g["betrayed"]`` for that suit, which its scoring reads: ``reversed_strike``,
    ``reversed_radiance``)."""
    g["fx"]["betray"] = True


def reversed_strike(m: Cards, g: G, seat: int, suit: str, amount: int) -> None:
    """A leader of a betrayed suit: Attack heals an opponent, Healing hurts the leader, Victory
    takes points away."""
    if suit == "attack":
        targets = [s for s in humans(g) if s != seat]
        if targets:
            m.flow.ask(g, seat, "betrayed_attack", targets, {"amount": amount})
    elif suit == "healing":
        m.flow.push(g, m.flow.harm([(seat, amount)], None, "healing_reversed"))
    elif suit == "victory":
        gain_vp(g, seat, -amount, "victory")


def a_betrayed_attack(m: Cards, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
    log(g, "betrayed_attack", seat=seat, to=target)
    gain_health(g, target, ctx["amount"])


def reversed_radiance(m: Cards, g: G, seat: int, count: int) -> None:
    """A leader of a betrayed Radiance discards as many Light cards as it would have drawn."""
    light = sorted(s for s in g["magic"][seat] if pile_of(g, s) == "light")[:count]
    for slot in light:
        g["magic"][seat].remove(slot)
        g["discard"].append(slot)
    log(g, "light_lost", seat=seat, count=len(light))


def entomb(m: Cards, g: G, p: Play) -> None:
    g["entombed"] = g["round"] + 1
    log(g, "entomb")


def extinguish(m: Cards, g: G, p: Play) -> None:
    g["fx"]["banned"].append("radiance")
    log(g, "extinguish")


def impair(m: Cards, g: G, p: Play) -> None:
    g["fx"]["banned"].append("healing")
    log(g, "impair")


def gambit(m: Cards, g: G, p: Play) -> None:
    g["fx"]["gambit"] = True


def darkening(m: Cards, g: G, p: Play) -> None:
    g["fx"]["darkening"].append(p.seat)


# ----- «Видение» -------------------------------------------------------------------------------


def scrye(m: Cards, g: G, p: Play) -> None:
    seat = p.seat
    hidden = [s for s in g["piles"]["tokens"]["draw"] if card(g, s) is None]
    if hidden and not g["plan"]:  # the face-down order: the scryer alone sees it
        g["peek"][seat].extend(hidden)
        log(g, "scry_look", seat=seat)
    picks: list[Any] = ["none"]
    if g["hp"][seat] > 1:
        picks.append("hp")
    if g["vp"][seat] >= 1:
        picks.append("vp")
    m.flow.ask(g, seat, "scrye", picks, {})


def a_scrye(m: Cards, g: G, ctx: dict[str, Any], seat: int, pick: str) -> None:
    if pick == "none":
        log(g, "scry_free", seat=seat)
        return
    if pick == "hp":
        g["hp"][seat] -= 1
    else:
        gain_vp(g, seat, -1, "scrye")
    g["scry"] = seat
    log(g, "scry_set", seat=seat)


# ----- «Призыв» --------------------------------------------------------------------------------


def summon(m: Cards, g: G, p: Play) -> None:
    damage(g, p.seat, 1, None, "summon")
    m.flow.push(g, {"k": "summon_look", "seat": p.seat})


def summon_raven(m: Cards, g: G, p: Play) -> None:
    m.flow.push(g, {"k": "draw_main", "seat": p.seat, "count": 2})


def t_summon_look(m: Cards, g: G, task: Task) -> None:
    """Three cards from the main deck, seen by the summoner alone; one is kept."""
    seat = task["seat"]
    if m.flow.restock_first(g, task, "main", 3):
        return
    for _ in range(3):
        drawn = draw(g, "main")
        if drawn is not None:
            g["look"][seat].append(drawn)
    if g["look"][seat]:
        m.flow.ask(g, seat, "summon", list(g["look"][seat]), {})


def a_summon(m: Cards, g: G, ctx: dict[str, Any], seat: int, keep: int) -> None:
    g["look"][seat].remove(keep)
    g["hand"][seat].append(keep)
    g["discard"].extend(g["look"][seat])
    g["look"][seat] = []
    log(g, "summon_keep", seat=seat)


# ----- cards kept in the hand until their moment -----------------------------------------------


def shown_of(g: G, seat: int, suit: str) -> list[int]:
    return [slot for slot in g["shown"][seat] if card(g, slot) == suit]


def t_steal(m: Cards, g: G, task: Task) -> None:
    """«Раздражение», «Высасывание», «Господство» once their suit is revealed: take one of its
    face-up cards (not one destroyed by ravens) from an opponent."""
    seat, suit = task["seat"], task["suit"]
    victims = [
        s for s, c in enumerate(m.flow.counts(g, suit)) if s != seat and c and shown_of(g, s, suit)
    ]
    if victims:
        m.flow.ask(g, seat, "steal", victims, {"suit": suit})


def a_steal(m: Cards, g: G, ctx: dict[str, Any], seat: int, victim: int) -> None:
    slot = shown_of(g, victim, ctx["suit"])[0]
    g["shown"][victim].remove(slot)
    g["shown"][seat].append(slot)
    log(g, "steal", seat=seat, source=victim, suit=ctx["suit"])


def drain_after_healing(m: Cards, g: G, seat: int, amount: int) -> None:
    """«Иссушение» when its holder scores Healing: as much damage to the healthiest opponent."""
    victims = [s for s in priority(g) if s != seat and not g["raven"][s]]
    if not victims:
        return
    most = max(g["hp"][s] for s in victims)
    victim = next(s for s in victims if g["hp"][s] == most)
    m.flow.push(g, m.flow.harm([(victim, amount)], seat, "drain"))


def t_tax(m: Cards, g: G, task: Task) -> None:
    seat = task["seat"]
    left = [s for s in task["slots"] if s in g["magic"][task["from"]]]
    if left:
        g["peek"][seat].extend(left)
        m.flow.ask(g, seat, "tax", left, {"from": task["from"]})


def a_tax(m: Cards, g: G, ctx: dict[str, Any], seat: int, slot: int) -> None:
    g["magic"][ctx["from"]].remove(slot)
    g["magic"][seat].append(slot)
    g["peek"][seat] = []
    log(g, "tax", seat=seat, source=ctx["from"])


def t_waning(m: Cards, g: G, task: Task) -> None:
    m.flow.push(g, m.flow.harm([(task["target"], task["count"])], task["seat"], "waning_light"))


PASSIVE = Spell(kind="passive")
STEAL = Spell(kind="passive", steps={"t_steal": t_steal, "a_steal": a_steal})
CARDS: dict[str, Spell] = {
    "add_raven": Spell(effect=add_raven, may=before_a_turn, steps={"a_add_raven": a_add_raven}),
    "acquire": Spell(effect=acquire, steps={"a_acquire": a_acquire}),
    "add_attack": ADD,
    "betrayal": Spell(
        effect=betrayal, steps={"a_betrayed_attack": a_betrayed_attack}, sets=("betray",)
    ),
    "blooding": Spell(effect=blooding, may=blooding_may, steps={"a_blooding": a_blooding}),
    "dominate": STEAL,
    "drain": PASSIVE,
    "enrage": STEAL,
    "entomb": Spell(effect=entomb),
    "entrap": Spell(effect=entrap),
    "extinguish": Spell(effect=extinguish, sets=("banned",)),
    "gambit": Spell(effect=gambit, sets=("gambit",)),
    "impair": Spell(effect=impair, sets=("banned",)),
    "nightmare": Spell(effect=nightmare, steps={"a_nightmare": a_nightmare}),
    "reap": Spell(effect=reap),
    "retribution": Spell(effect=retribution, may=retribution_may),
    "scrye": Spell(effect=scrye, steps={"a_scrye": a_scrye}),
    "spite": Spell(effect=spite, raven=spite_raven, steps={"a_spite": a_spite}),
    "summon": Spell(
        effect=summon,
        raven=summon_raven,
        steps={"t_summon_look": t_summon_look, "a_summon": a_summon},
    ),
    "syphon": STEAL,
    "darkening": Spell(effect=darkening, sets=("darkening",)),
    "tax": Spell(kind="passive", steps={"t_tax": t_tax, "a_tax": a_tax}),
    "waning_light": Spell(kind="passive", steps={"t_waning": t_waning}),
    "withering": Spell(effect=withering),
}
