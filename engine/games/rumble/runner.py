"""Step runner: the game flow as small deterministic steps replayed from their inputs.

The state is ``{"g": game data, "inputs": [...], "need": {...}}``. ``g`` is the data as it stood
before the current step (the agenda's first entry). A step is plain Python that mutates a copy of
``g`` and calls ``ctx.ask(need)`` whenever it needs an input (a die, a reveal, a player's choice).
If the input is not there yet the step is abandoned (``Need``); when it arrives the step is run
again from the same ``g`` with all its inputs, so no continuation ever has to be serialised.
Steps are short (one card, one death, one draw), so replays stay cheap.
"""

from __future__ import annotations

import contextlib
import marshal
from collections.abc import Callable
from typing import Any

from engine.core.model import Action, IllegalAction, canonical_json

G = dict[str, Any]


class Need(Exception):
    """Raised inside a step when it needs an input that has not arrived yet."""

    def __init__(self, need: dict[str, Any]) -> None:
        super().__init__(need.get("phase", ""))
        self.need = need


class Ctx:
    """Hands recorded inputs to a step in order; validates each one as it is first consumed."""

    def __init__(self, inputs: list[Action]) -> None:
        self.inputs = inputs
        self.pos = 0

    def ask(self, need: dict[str, Any]) -> Action:
        """The next input for ``need``, or ``Need`` if the table has not supplied it yet."""
        if self.pos >= len(self.inputs):
            raise Need(need)
        action = self.inputs[self.pos]
        self.pos += 1
        _check_against(need, action)
        return action

    def chance(self, n: int, phase: str) -> int:
        """A uniform integer in ``range(n)`` from the table."""
        return int(self.ask({"kind": "chance", "range": n, "phase": phase})["value"])

    def die(self, phase: str) -> int:
        """A d6 result 1..6."""
        return self.chance(6, phase) + 1

    def reveal(self, slots: list[int], phase: str) -> dict[int, str]:
        """Public identities of ``slots`` of the spell deck."""
        action = self.ask({"kind": "reveal", "slots": slots, "deck": "spells", "phase": phase})
        return {int(k): str(v) for k, v in action["cards"].items()}

    def reshuffle(self, slots: list[int], phase: str) -> None:
        """The table secretly re-shuffles the (publicly known) cards in ``slots``."""
        self.ask({"kind": "reshuffle", "slots": slots, "deck": "spells", "phase": phase})

    def choose(self, seat: int, phase: str, options: list[Action]) -> Action:
        """One of the public ``options`` chosen by ``seat`` (auto-picked when there is one)."""
        if len(options) == 1:
            return options[0]
        return self.ask({"kind": "move", "seats": [seat], "phase": phase, "options": options})


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
            key = canonical_json(action)
            if all(canonical_json(o) != key for o in options):
                raise IllegalAction("такого варианта нет")


def clone(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, str, int, bool, None)."""
    return marshal.loads(marshal.dumps(value))


# Lists of scalars (ints, strings, bools) and lists of such lists: copied by slicing. The agenda's
# steps, the fight results and the creatures on the table are records that are never changed once
# made (steps add, remove or replace them): their lists are copied, the records shared. The spells
# and the cast, changed in place, go through marshal; ``known`` maps strings to strings.
# ``tests/rumble/test_replay_digests.py`` checks the clone against a marshal copy at every step of
# seeded games, and that no step changes the data of an earlier state.
_FLAT = frozenset(
    (
        "names", "heroes", "life", "alive", "kills", "survivals", "draw", "discard", "queue",
        "used", "t_pile", "t_discard", "ghost_pile", "ghost_discard", "bag", "dead_order",
        "pending_ghosts", "winners", "log", "agenda", "results",
    )
)  # fmt: skip
_NESTED = frozenset(("hand", "treasures", "ghost_next", "ghost_active", "diseases", "creatures"))
_DEEP = ("spell", "cast")
_KEYS = frozenset(
    (
        *_FLAT, *_NESTED, *_DEEP, "known", "n", "mode", "fights", "fight", "round", "in_fight",
        "turn", "palace", "palace_ghost", "last_standing",
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
            else:
                deep[key] = value
        elif type(value) is dict:
            if key == "known":
                out[key] = value.copy()
            else:
                deep[key] = value
    if deep:
        out.update(marshal.loads(marshal.dumps(deep)))
    return out


StepFn = Callable[[G, Ctx, dict[str, Any]], None]


# Tests set this to check that a step run in place (``in_place``) that waits for an input has left
# the data untouched.
CHECK_IN_PLACE = False


def advance(
    state: dict[str, Any],
    steps: dict[str, StepFn],
    after: Callable[[G], None],
    in_place: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Run steps until one needs an input or the agenda is empty; returns the new state.

    The state's own ``g`` is never changed: the first step runs on a copy. Data made inside this
    call belongs to it, so a later step named in ``in_place`` — one that never asks for an input,
    or changes nothing before its first question — runs on it without a copy.
    """
    g: G = state["g"]
    inputs: list[Action] = state["inputs"]
    owned = False
    while True:
        if not g["agenda"]:
            return {"g": g, "inputs": [], "need": {"kind": "terminal"}}
        step = g["agenda"][0]
        if owned and step["k"] in in_place:
            before = clone_game(g) if CHECK_IN_PLACE else None
            g["agenda"].pop(0)
            try:
                steps[step["k"]](g, Ctx(inputs), step)
            except Need as need:
                g["agenda"].insert(0, step)
                if before is not None and before != g:
                    raise AssertionError(f"{step['k']} changed the data before asking") from None
                return {"g": g, "inputs": inputs, "need": need.need}
            after(g)
            continue
        work = clone_game(g)
        work["agenda"].pop(0)
        ctx = Ctx(inputs)
        try:
            steps[step["k"]](work, ctx, step)
        except Need as need:
            return {"g": g, "inputs": inputs, "need": need.need}
        if ctx.pos != len(inputs):
            raise IllegalAction("лишний ход")
        after(work)
        g = work
        inputs = []
        owned = True


def replay_partial(state: dict[str, Any], steps: dict[str, StepFn]) -> G:
    """The data as it is mid-step (dice already rolled, logs already written) for views."""
    g: G = state["g"]
    if not g["agenda"] or not state["inputs"]:
        return g
    work = clone_game(g)
    step = work["agenda"].pop(0)
    with contextlib.suppress(Need):
        steps[step["k"]](work, Ctx(state["inputs"]), step)
    return work
