"""Step runner: the game flow as small deterministic steps, driven by their inputs.

The state is ``{"g": game data, "inputs": [...], "need": {...}}``. ``g`` is the data as it stood
before the current step (the agenda's first entry); ``inputs`` are the inputs that step has taken
so far. A step is a generator over a copy of ``g``: ``action = yield from ctx.ask(need)`` hands
out what it needs (a die, a reveal, a player's choice) and takes the input back. The state itself
holds no continuation: any state runs again from ``g`` and its inputs (a replay). As a pure
speed-up, the runner keeps the live generator of the last few states it returned; applying an
input to one of those resumes it instead of replaying (``Runner``). Both give the same state.
"""

from __future__ import annotations

import marshal
from collections import OrderedDict
from collections.abc import Callable, Generator
from typing import Any, TypeVar

from engine.core.model import Action, IllegalAction, canonical_json

G = dict[str, Any]
T = TypeVar("T")
NeedData = dict[str, Any]
Ask = Generator[NeedData, Action, T]
"""What a step (or a helper of one) is: it yields needs, is sent inputs and returns a ``T``."""


class Ctx:
    """The questions a step can ask; each is ``yield from``-ed and returns the input's value."""

    def ask(self, need: NeedData) -> Ask[Action]:
        """The next input for ``need`` (checked against it by the runner)."""
        action = yield need
        return action

    def chance(self, n: int, phase: str) -> Ask[int]:
        """A uniform integer in ``range(n)`` from the table."""
        action = yield {"kind": "chance", "range": n, "phase": phase}
        return int(action["value"])

    def die(self, phase: str) -> Ask[int]:
        """A d6 result 1..6."""
        action = yield {"kind": "chance", "range": 6, "phase": phase}
        return int(action["value"]) + 1

    def reveal(self, slots: list[int], phase: str) -> Ask[dict[int, str]]:
        """Public identities of ``slots`` of the spell deck."""
        action = yield {"kind": "reveal", "slots": slots, "deck": "spells", "phase": phase}
        return {int(k): str(v) for k, v in action["cards"].items()}

    def reshuffle(self, slots: list[int], phase: str) -> Ask[None]:
        """The table secretly re-shuffles the (publicly known) cards in ``slots``."""
        yield {"kind": "reshuffle", "slots": slots, "deck": "spells", "phase": phase}

    def choose(self, seat: int, phase: str, options: list[Action]) -> Ask[Action]:
        """One of the public ``options`` chosen by ``seat`` (auto-picked when there is one)."""
        if len(options) == 1:
            return options[0]
        action = yield {"kind": "move", "seats": [seat], "phase": phase, "options": options}
        return action


CTX = Ctx()


def _check_against(need: dict[str, Any], action: Action) -> None:
    kind = need["kind"]
    atype = action.get("type")
    if kind == "chance":
        value = action.get("value")
        if atype != "chance" or not isinstance(value, int) or not 0 <= value < need["range"]:
            raise IllegalAction(f"ожидался случай в диапазоне 0..{need['range'] - 1}")
    elif kind == "reshuffle":
        if atype != "reshuffled" or action.get("slots") != sorted(need["slots"]):
            raise IllegalAction("ожидалась перетасовка этих карт")
    elif kind == "reveal":
        cards = action.get("cards")
        if atype != "reveal" or not isinstance(cards, dict):
            raise IllegalAction("ожидалось раскрытие карт")
        if sorted(int(k) for k in cards) != sorted(need["slots"]):
            raise IllegalAction("раскрыты не те карты")
    else:
        if atype in ("chance", "reveal", "reshuffled", "settle"):
            raise IllegalAction("ожидался ход игрока")
        if action.get("seat") not in need["seats"]:
            raise IllegalAction("сейчас ходит не это место")
        options = need.get("options")
        if options is not None:
            # ``==`` finds the candidate fast; the canonical bytes then tell ``1`` from ``True``.
            key = canonical_json(action)
            if all(o != action or canonical_json(o) != key for o in options):
                raise IllegalAction("такого варианта нет")


def clone(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, str, int, bool, None)."""
    return marshal.loads(marshal.dumps(value))


# Lists of scalars (ints, strings, bools) and lists of such lists: copied by slicing; the seats'
# names and heroes, set once, are shared. The agenda's
# steps, the fight results and the creatures on the table are records that are never changed once
# made (steps add, remove or replace them): their lists are copied, the records shared. The spells
# and the cast, changed in place, go through marshal; ``known`` maps strings to strings.
# ``tests/rumble/test_replay_digests.py`` checks the clone against a marshal copy at every step of
# seeded games, and that no step changes the data of an earlier state.
_FLAT = frozenset(
    (
        "life", "alive", "kills", "survivals", "draw", "discard", "queue",
        "used", "t_pile", "t_discard", "ghost_pile", "ghost_discard", "bag", "dead_order",
        "pending_ghosts", "winners", "log", "agenda", "results",
    )
)  # fmt: skip
_FIXED = frozenset(("names", "heroes"))  # set when the game starts, never changed: shared
_NESTED = frozenset(("hand", "treasures", "ghost_next", "ghost_active", "diseases", "creatures"))
_DEEP = ("spell", "cast")
_KEYS = frozenset(
    (
        *_FLAT, *_FIXED, *_NESTED, *_DEEP, "known", "n", "mode", "fights", "fight", "round",
        "in_fight", "turn", "palace", "palace_ghost", "last_standing",
    )
)  # fmt: skip


def clone_game(g: G) -> G:
    """A copy of the game data that no change a step makes to it can reach back through."""
    if len(g) == len(_KEYS) and g.keys() == _KEYS:
        out: G = dict(g)
        for key in _FLAT:
            value = g[key]
            if value is not None:
                out[key] = value[:]
        for key in _NESTED:
            out[key] = [part[:] for part in g[key]]
        out["known"] = g["known"].copy()
        out["spell"], out["cast"] = marshal.loads(marshal.dumps((g["spell"], g["cast"])))
        return out
    return _clone_any(g)


def _clone_any(g: G) -> G:
    """``clone_game`` for data of another shape (a scenario's or an older version's)."""
    out: G = dict(g)
    deep: G = {}
    for key, value in g.items():
        if type(value) is list:
            if key in _FLAT:
                out[key] = value[:]
            elif key in _NESTED:
                out[key] = [part[:] for part in value]
            elif key not in _FIXED:
                deep[key] = value
        elif type(value) is dict:
            if key == "known":
                out[key] = value.copy()
            else:
                deep[key] = value
    if deep:
        out.update(marshal.loads(marshal.dumps(deep)))
    return out


StepFn = Callable[[G, Ctx, dict[str, Any]], "Ask[None] | None"]
"""A step: a generator (or a plain function when it never asks) over the game data."""

# Tests set this to check that a step run in place (``in_place``) that waits for an input has left
# the data untouched.
CHECK_IN_PLACE = False

LIVE_STATES = 8
"""How many returned states keep their live step (a resumable generator) for the next input."""


class _Live:
    """A returned state's step, paused at its need, with the work data it runs on."""

    __slots__ = ("gen", "state", "work")

    def __init__(self, state: dict[str, Any], gen: Ask[None], work: G) -> None:
        self.state, self.gen, self.work = state, gen, work


def _feed(gen: Ask[None], need: NeedData, inputs: list[Action]) -> NeedData | None:
    """Send ``inputs`` to a step paused at ``need``; its next need, or None once it has finished.

    Every input is checked against the need it answers; an input left over after the step has
    finished is refused. Needs are copied: the step goes on changing the data they came from.
    """
    for i, action in enumerate(inputs):
        _check_against(need, action)
        try:
            need = _copied(gen.send(action))
        except StopIteration:
            if i != len(inputs) - 1:
                raise IllegalAction("лишний ход") from None
            return None
    return need


def _copied(need: NeedData) -> NeedData:
    """A need whose lists are its own (a step may have taken them from the data it changes)."""
    return {k: v[:] if type(v) is list else v for k, v in need.items()}


def _start(step_fn: StepFn, g: G, step: dict[str, Any]) -> tuple[Ask[None] | None, NeedData | None]:
    """Run a step up to its first need: (its generator, the need), or (None, None) once done."""
    gen = step_fn(g, CTX, step)
    if gen is None:
        return None, None
    try:
        return gen, _copied(next(gen))
    except StopIteration:
        return None, None


class Runner:
    """Advances states through the steps; resumes the live step of a recent state it returned."""

    def __init__(
        self,
        steps: dict[str, StepFn],
        after: Callable[[G], None],
        in_place: frozenset[str] = frozenset(),
    ) -> None:
        self.steps, self.after, self.in_place = steps, after, in_place
        self._live: OrderedDict[int, _Live] = OrderedDict()

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        """The state after ``action`` (checked against the state's need); ``state`` is unchanged."""
        live = self._live.pop(id(state), None)
        if live is None or live.state is not state:
            return self.advance({"g": state["g"], "inputs": [*state["inputs"], action]})
        need = _feed(live.gen, state["need"], [action])
        if need is not None:
            out = {"g": state["g"], "inputs": [*state["inputs"], action], "need": need}
            self._keep(out, live.gen, live.work)
            return out
        self.after(live.work)
        return self.advance({"g": live.work, "inputs": []}, owned=True)

    def advance(self, state: dict[str, Any], owned: bool = False) -> dict[str, Any]:
        """Run steps until one needs an input or the agenda is empty; returns the new state.

        The state's own ``g`` is never changed (unless ``owned``: data made by this runner that
        nobody else holds): the first step runs on a copy. A later step named in ``in_place`` —
        one that never asks for an input, or changes nothing before its first question — runs
        on data this call owns without a copy.
        """
        g: G = state["g"]
        inputs: list[Action] = state["inputs"]
        while True:
            if not g["agenda"]:
                return {"g": g, "inputs": [], "need": {"kind": "terminal"}}
            step = g["agenda"][0]
            fn = self.steps[step["k"]]
            if owned and step["k"] in self.in_place:
                before = clone_game(g) if CHECK_IN_PLACE else None
                g["agenda"].pop(0)
                gen, need = _start(fn, g, step)
                if need is not None:
                    assert gen is not None
                    # Nothing has changed yet: the state gets a copy, the live step keeps ``g``.
                    mine = clone_game(g)
                    mine["agenda"].insert(0, step)
                    if before is not None and before != mine:
                        raise AssertionError(f"{step['k']} changed the data before asking")
                    out: dict[str, Any] = {"g": mine, "inputs": [], "need": need}
                    self._keep(out, gen, g)
                    return out
                self.after(g)
                continue
            work = clone_game(g)
            work["agenda"].pop(0)
            gen, need = _start(fn, work, step)
            if need is not None:
                assert gen is not None
                need = _feed(gen, need, inputs)
                if need is not None:
                    out = {"g": g, "inputs": inputs, "need": need}
                    self._keep(out, gen, work)
                    return out
            elif inputs:
                raise IllegalAction("лишний ход")
            self.after(work)
            g = work
            inputs = []
            owned = True

    def partial(self, state: dict[str, Any]) -> G:
        """The data as it is mid-step (dice already rolled, logs already written) for views."""
        g: G = state["g"]
        if not g["agenda"] or not state["inputs"]:
            return g
        live = self._live.get(id(state))
        if live is not None and live.state is state:
            return clone_game(live.work)
        work = clone_game(g)
        step = work["agenda"].pop(0)
        gen, need = _start(self.steps[step["k"]], work, step)
        if gen is not None and need is not None:
            for action in state["inputs"]:
                try:
                    gen.send(action)
                except StopIteration:
                    break
            gen.close()
        return work

    def _keep(self, state: dict[str, Any], gen: Ask[None], work: G) -> None:
        self._live[id(state)] = _Live(state, gen, work)
        while len(self._live) > LIVE_STATES:
            _, old = self._live.popitem(last=False)
            old.gen.close()
