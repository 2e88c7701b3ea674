"""The turn of «Волшебный круг» as steps of the shared runner (``engine.core.runner``).

Each step asks (if at all) before it changes anything, then pushes the step that follows:

- ``start``: start-of-turn effects (burn marks of the totem holder). A holder knocked out by them
  passes the totem left, and the next holder's turn starts instead;
- ``spell``: an empty spell deck first takes its discard back (publicly); ``fly``: the top spell
  flies at the totem holder — a CHANCE over the remaining public spell deck;
- ``scramble``: «переполох», a RACE of the living seats holding cards; ends with a hit (``settle``),
  a dispel or a melt;
- ``end``: end-of-turn effects (shields fall, frozen seats skip their draw), the totem passes left,
  the draws are queued;
- ``draw``: cards are dealt one by one from the action deck, starting with the new totem holder;
  an empty deck waits for a RESHUFFLE of the action discard (``reshuffle``), then drawing goes on.

Whenever seats drop out (life ≤ 0), the ``out`` step comes first: their hands are revealed
(REVEAL) and go to the action discard; then the game ends if at most one seat is alive (the last
one wins; none alive: nobody wins).
"""

from __future__ import annotations

from engine.core.model import IllegalAction
from engine.core.runner import Ask, Ctx, StepFn

from . import plays
from .cards import Catalog
from .keywords import hit
from .state import HAND_START, State, StepName, left_of, living, log

HAND_LIMIT = 6


def knock_out(g: State) -> None:
    """Every living seat at 0 life or less is out; its hand waits for the reveal."""
    for seat in range(g["n"]):
        if g["alive"][seat] and g["life"][seat] <= 0:
            g["alive"][seat] = False
            g["burns"][seat] = 0
            g["dying"].append(seat)
            log(g, {"e": "out", "seat": seat})


def after(g: State) -> None:
    """Between steps: seats just knocked out have their hands revealed (the ``out`` step) first."""
    if g["dying"] and not (g["agenda"] and g["agenda"][0]["k"] == "out"):
        g["agenda"].insert(0, {"k": "out"})


def push(g: State, k: StepName) -> None:
    """Run step ``k`` next."""
    g["agenda"].insert(0, {"k": k})


def out(cat: Catalog, g: State, ctx: Ctx) -> Ask[None]:
    """The knocked-out seats' hands are revealed and discarded; one seat left (or none) ends it."""
    slots = sorted(s for seat in g["dying"] for s in g["hands"][seat])
    if slots:
        cards = yield from ctx.reveal(slots, "out")
        if not all(cid in cat.actions for cid in cards.values()):
            raise IllegalAction("вскрыта неизвестная карта")
        revealed(g, {str(k): v for k, v in cards.items()})
    g["dying"] = []
    if g["result"] is None and len(living(g)) <= 1:
        finish(g)


def spell(cat: Catalog, g: State) -> None:
    """An empty spell deck takes its discard back (publicly); then the top spell flies."""
    if not g["spells"]:
        order = {cid: i for i, cid in enumerate(cat.spells)}
        g["spells"] = sorted(g["spell_discard"], key=order.__getitem__)
        g["spell_discard"] = []
        log(g, {"e": "spells_back"})
    push(g, "fly")


def fly(cat: Catalog, g: State, ctx: Ctx) -> Ask[None]:
    """A CHANCE over the remaining spells picks the one that flies at the totem holder."""
    value = yield from ctx.chance(len(g["spells"]), "spell")
    take_spell(cat, g, value)
    push(g, "scramble")


def scramble(cat: Catalog, g: State, ctx: Ctx) -> Ask[None]:
    """«Переполох»: a RACE of the living seats holding cards, until the spell hits or leaves."""
    seats = [s for s in living(g) if g["hands"][s]]
    action = yield from ctx.race(seats, "scramble")
    if action["type"] == "settle":
        settle(cat, g)
    elif action["type"] == "play":
        seat, slot, card, target = plays.check_play(cat, g, action)
        push(g, "scramble" if plays.play(cat, g, seat, slot, card, target) else "end")
    else:
        raise IllegalAction(f"неизвестный ход {action['type']!r}")


def draw(g: State) -> None:
    """Deal the queued draws; an empty deck waits for the ``reshuffle`` step first."""
    if draw_cards(g):
        push(g, "start")
    else:
        g["agenda"][0:0] = [{"k": "reshuffle"}, {"k": "draw"}]


def reshuffle(g: State, ctx: Ctx) -> Ask[None]:
    """The action discard, shuffled face down by the table, becomes the draw pile."""
    slots = sorted(g["discard"])
    yield from ctx.reshuffle(slots, "reshuffle")
    reshuffled(g, slots)


def steps(cat: Catalog) -> dict[str, StepFn]:
    """The turn's steps by name, for the runner."""
    return {
        "out": lambda g, ctx, step: out(cat, g, ctx),
        "start": lambda g, ctx, step: start_of_turn(g),
        "spell": lambda g, ctx, step: spell(cat, g),
        "fly": lambda g, ctx, step: fly(cat, g, ctx),
        "scramble": lambda g, ctx, step: scramble(cat, g, ctx),
        "end": lambda g, ctx, step: end_of_turn(g),
        "draw": lambda g, ctx, step: draw(g),
        "reshuffle": lambda g, ctx, step: reshuffle(g, ctx),
    }


def finish(g: State) -> None:
    """The game ends: the last living seat wins, or nobody if all dropped at once."""
    alive = living(g)
    g["agenda"] = []
    g["spell"] = None
    if alive:
        g["winner"] = alive[0]
        g["result"] = "winner"
        log(g, {"e": "win", "seat": alive[0]})
    else:
        g["result"] = "nobody"
        log(g, {"e": "nobody"})


def start_of_turn(g: State) -> None:
    """Start-of-turn effects: the totem holder's burns; then the spell may fly."""
    holder = g["totem"]
    burns = g["burns"][holder]
    if not g["alive"][holder]:
        g["totem"] = left_of(g, holder)
        push(g, "start")
        return
    if burns:
        g["burns"][holder] = 0
        g["life"][holder] -= burns
        log(
            g,
            {
                "e": "burned",
                "seat": holder,
                "power": burns,
                "life": g["life"][holder],
            },
        )
        knock_out(g)
        if not g["alive"][holder]:
            g["totem"] = left_of(g, holder)
            push(g, "start")
            return
    push(g, "spell")


def take_spell(cat: Catalog, g: State, value: int) -> None:
    """The chance value picks the top spell; it flies at the totem holder."""
    card = g["spells"].pop(value)
    target = g["totem"]
    g["spell"] = {
        "card": card,
        "power": cat.spells[card]["power"],
        "target": target,
        "prev": None,
        "sender": None,
        "step": 0,
        "moved": 0,
        "changes": 0,
    }
    log(
        g,
        {
            "e": "spell",
            "card": card,
            "to": target,
            "power": cat.spells[card]["power"],
        },
    )


def settle(cat: Catalog, g: State) -> None:
    """No action came in time: the spell hits its target."""
    hit(cat, g)
    knock_out(g)
    push(g, "end")


def end_of_turn(g: State) -> None:
    """End-of-turn effects, the totem passes left, the draws are queued."""
    n = g["n"]
    g["shield"] = [False] * n
    g["totem"] = left_of(g, g["totem"])
    alive = living(g)
    first = alive.index(g["totem"]) if g["totem"] in alive else 0
    order = alive[first:] + alive[:first]
    log(g, {"e": "totem", "seat": g["totem"]})
    counts: dict[int, int] = {}
    if not any(g["hands"][s] for s in alive):
        counts = {s: 3 for s in alive}
        log(g, {"e": "empty"})
    elif g["played"]:
        for s in alive:
            size = len(g["hands"][s])
            counts[s] = 2 if size < HAND_START else max(0, HAND_LIMIT - size)
    for s in alive:
        if g["frozen"][s] and counts.get(s):
            counts[s] = 0
            log(g, {"e": "frozen", "seat": s})
    g["frozen"] = [False] * n
    g["queue"] = [[s, counts[s], 0] for s in order if counts.get(s)]
    push(g, "draw")


def draw_cards(g: State) -> bool:
    """Deal the queued draws; False when the deck ran out and the discard must be reshuffled."""
    while g["queue"]:
        seat, left, drawn = g["queue"][0]
        if left and not g["deck"]:
            if g["discard"]:
                return False
            left = 0
        if left:
            g["hands"][seat].append(g["deck"].pop(0))
            g["queue"][0] = [seat, left - 1, drawn + 1]
            continue
        g["queue"].pop(0)
        if drawn:
            log(
                g,
                {
                    "e": "draw",
                    "seat": seat,
                    "count": drawn,
                    "hand": len(g["hands"][seat]),
                },
            )
    g["turn"] += 1
    g["played"] = False
    return True


def reshuffled(g: State, slots: list[int]) -> None:
    """The action discard, shuffled face down by the table, is the new draw pile."""
    g["deck"] = list(slots)
    g["discard"] = []
    for s in slots:
        g["known"].pop(str(s), None)
    log(g, {"e": "reshuffle", "count": len(slots)})


def revealed(g: State, cards: dict[str, str]) -> None:
    """The knocked-out seats' hands, now face up, go to the action discard."""
    for seat in g["dying"]:
        for s in g["hands"][seat]:
            g["known"][str(s)] = cards[str(s)]
            g["discard"].append(s)
        g["hands"][seat] = []
    g["dying"] = []
