"""The step runner every game is built on: the game flow as small deterministic steps.

The state is ``{"g": game data, "inputs": [...], "need": {...}}`` (or, for a game whose steps all
ask before they change anything, the game data itself with ``inputs`` and ``need`` beside its
fields: ``Runner(flat=True)``). ``g`` is the data as it stood
before the current step (the first entry of ``g["agenda"]``, a list of ``{"k": step name, ...}``);
``inputs`` are the inputs that step has taken so far; ``need`` (a ``Need``, plain JSON) is what the
game waits for. A step is a generator over a copy of ``g``: ``value = yield from ctx.ask(need)`` —
or one of the shorthands ``chance``, ``die``, ``reveal``, ``reshuffle``, ``choose``, ``race`` —
hands out what it needs and takes the input back; a step that never asks may be a plain function.
The state holds no continuation: any state runs again from ``g`` and its inputs (a replay). As a
pure speed-up the runner keeps the live generator of the last few states it returned and resumes
it instead of replaying. Both give the same state. An empty agenda is the end of the game.

Every input is checked against the need it answers before the step sees it (``check_against``):
the table's inputs fully, a move for its seat and, when the need lists ``options``, for being one
of them; a free-form move (a need without ``options``) has been checked by then against the shape
its game declares (``engine.core.shapes``, in ``StepRules.apply``), and what the rules refuse of it
the step raises as ``IllegalAction``.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Generator, Mapping
from typing import Any, Literal, TypeVar

from engine.core.model import Action, Decision, IllegalAction, Kind, canonical_json

G = dict[str, Any]
T = TypeVar("T")
Need = dict[str, Any]
"""What the game waits for, as JSON: ``kind`` (``NeedKind``), ``phase``, and by kind ``seats``
(move, simultaneous, race), ``range`` (chance), ``slots`` and ``deck`` (reveal, reshuffle),
``options`` (a move among public options); a game may add fields of its own for its pages."""
NeedKind = Literal["move", "simultaneous", "race", "chance", "reveal", "reshuffle", "terminal"]
Ask = Generator[Need, Action, T]
"""What a step (or a helper of one) is: it yields needs, is sent inputs and returns a ``T``."""
StepFn = Callable[[G, "Ctx", dict[str, Any]], "Ask[None] | None"]
"""A step: a generator (or a plain function when it never asks) over the game data."""
Quiet = Callable[[G, dict[str, Any]], bool]
"""A test of the data and a step: true only when the step will not ask for an input now."""

TABLE_TYPES = frozenset(("chance", "reveal", "reshuffled", "settle"))
RUNNER_KEYS = frozenset(("inputs", "need"))


_DECISIONS: dict[tuple[Any, ...], Decision] = {}
"""The decisions of needs met so far, each made once: a ``Decision`` is frozen, so one may stand
for every equal need. Keyed by kind, phase and seats (or a die's range): a game has few."""
_SLOT_DECISIONS: dict[tuple[Any, ...], Decision] = {}
"""The same for reveals and re-shuffles, keyed by their slots too: a page that plays game after
game meets ever new ones, so this one is emptied when full and cannot crowd out the others."""
DECISIONS_KEPT = 4096


def need_decision(need: Mapping[str, Any]) -> Decision:
    """The ``Decision`` a need stands for (the one place where needs become decisions)."""
    kind = need["kind"]
    phase = need.get("phase", "")
    kept = _DECISIONS
    if kind == "chance":
        key: tuple[Any, ...] = (kind, phase, need["range"])
    elif kind in ("reveal", "reshuffle"):
        key = (kind, phase, tuple(need["slots"]), need["deck"])
        kept = _SLOT_DECISIONS
    elif kind == "terminal":
        key = (kind, phase)
    else:
        key = (kind, phase, tuple(need["seats"]))
    decision = kept.get(key)
    if decision is None:
        if kind == "terminal":
            decision = Decision(Kind.TERMINAL, phase=phase)
        elif kind == "chance":
            decision = Decision(Kind.CHANCE, phase=phase, chance_range=need["range"])
        elif kind in ("reveal", "reshuffle"):
            decision = Decision(Kind(kind), phase=phase, slots=key[2], deck=key[3])
        else:
            decision = Decision(Kind(kind), seats=key[2], phase=phase)
        if len(kept) >= DECISIONS_KEPT and kept is _SLOT_DECISIONS:
            kept.clear()
        if len(kept) < DECISIONS_KEPT:
            kept[key] = decision
    return decision


class Ctx:
    """The questions a step can ask; each is ``yield from``-ed and returns the input's value.

    ``deck`` is the hidden deck reveals and reshuffles name unless they say otherwise.
    """

    def __init__(self, deck: str = "") -> None:
        self.deck = deck

    def ask(self, need: Need) -> Ask[Action]:
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

    def reveal(self, slots: list[int], phase: str, deck: str = "") -> Ask[dict[int, str]]:
        """Public identities of ``slots`` (of ``deck``, else the context's deck)."""
        need = {"kind": "reveal", "slots": slots, "deck": deck or self.deck, "phase": phase}
        action = yield need
        return {int(k): str(v) for k, v in action["cards"].items()}

    def reshuffle(self, slots: list[int], phase: str, deck: str = "") -> Ask[None]:
        """The table secretly re-shuffles the cards in ``slots``."""
        yield {"kind": "reshuffle", "slots": slots, "deck": deck or self.deck, "phase": phase}

    def choose(self, seat: int, phase: str, options: list[Action]) -> Ask[Action]:
        """One of the public ``options`` chosen by ``seat`` (auto-picked when there is one)."""
        if len(options) == 1:
            return options[0]
        action = yield {"kind": "move", "seats": [seat], "phase": phase, "options": options}
        return action

    def race(self, seats: list[int], phase: str) -> Ask[Action]:
        """Real time: a move of one of ``seats`` (checked by the step), or the table's settle."""
        action = yield {"kind": "race", "phase": phase, "seats": seats}
        return action


def check_against(need: Mapping[str, Any], action: Action) -> None:
    """Refuse an input that does not answer ``need`` (``IllegalAction``)."""
    kind = need["kind"]
    atype = action.get("type")
    if kind == "chance":
        value = action.get("value")
        if (
            atype != "chance"
            or not isinstance(value, int)
            or isinstance(value, bool)
            or not 0 <= value < need["range"]
        ):
            raise IllegalAction(f"ожидался случай в диапазоне 0..{need['range'] - 1}")
    elif kind == "reshuffle":
        if atype != "reshuffled" or action.get("slots") != sorted(need["slots"]):
            raise IllegalAction("ожидалась перетасовка этих карт")
    elif kind == "reveal":
        cards = action.get("cards")
        if atype != "reveal" or not isinstance(cards, dict):
            raise IllegalAction("ожидалось раскрытие карт")
        if sorted(str(k) for k in cards) != sorted(str(s) for s in need["slots"]):
            raise IllegalAction("раскрыты не те карты")
    elif kind == "race":
        if atype in TABLE_TYPES - {"settle"}:
            raise IllegalAction("ожидался ход игрока")
    elif kind == "terminal":
        raise IllegalAction("партия окончена")
    else:
        if atype in TABLE_TYPES:
            raise IllegalAction("ожидался ход игрока")
        if action.get("seat") not in need["seats"]:
            raise IllegalAction("сейчас ходит не это место")
        options = need.get("options")
        if options is not None:
            # An option equal as data is compared as JSON first (where True and 1 differ); only
            # when none matches so are all compared (where a tuple is a list).
            key = canonical_json(action)
            if not any(canonical_json(o) == key for o in options if o == action) and all(
                canonical_json(o) != key for o in options
            ):
                raise IllegalAction("такого варианта нет")


def clone(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, str, int, bool, None)."""
    return marshal.loads(marshal.dumps(value))


_SCALARS = frozenset((int, str, bool, type(None)))


def _plain_copy(value: Any) -> Any:
    """A copy of a list or dict of scalars and flat records (what moves hold: a seal's
    digests, an opening's entries, a reveal's cards), else ``None``."""
    kind = type(value)
    if kind is list:
        out = value[:]
        for i, item in enumerate(value):
            if type(item) not in _SCALARS:
                if type(item) is not dict or not _flat(item):
                    return None
                out[i] = item.copy()
        return out
    if kind is dict and _flat(value):
        return value.copy()
    return None


def _flat(record: dict[Any, Any]) -> bool:
    """Whether every key is a str and every value a scalar."""
    for key, value in record.items():
        if type(key) is not str or type(value) not in _SCALARS:
            return False
    return True


def clone_record(record: dict[str, Any]) -> dict[str, Any]:
    """``clone`` of a record: its scalars shared, its lists and dicts of scalars and flat records
    (every move's shape) copied by hand, anything else deeply (and refused as ``clone`` refuses
    it)."""
    out = record.copy()
    for key, value in record.items():
        if type(value) not in _SCALARS:
            copied = _plain_copy(value)
            if copied is None:
                deep: dict[str, Any] = clone(record)
                return deep
            out[key] = copied
    return out


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


def copied(need: Need) -> Need:
    """A need whose lists are its own: enough when a step may have taken lists from the data it
    goes on changing, but never changes a need's nested records (the default copy is deep)."""
    out = need.copy()
    for key, value in need.items():
        if type(value) is list:
            out[key] = value[:]
    return out


class Runner:
    """Advances states through a game's steps.

    ``steps`` maps step names to step functions; ``after(g)`` runs after every finished step (a
    game's checks between steps); ``copy(g)`` copies the game data deeply enough for one step;
    ``in_place`` names steps that never ask, or change nothing before their first question, and
    may therefore run without a copy on data the runner made itself; ``quiet`` maps a step's name
    to a test of the data and the step that is true only when the step will not ask this time (it
    then runs without a copy too; asking anyway is an engine fault); ``ctx`` is what the steps
    ask through; ``need_copy`` copies each need a step yields (deeply unless the game knows a
    shallower copy is enough: ``copied``); ``end`` is the need of a finished game
    (``{"kind": "terminal"}`` and what else the game's pages read in it); ``early``: a step may
    change the data before its first question, and the data mid-step (``partial``) shows those
    changes (otherwise it is the data before the step until the step has taken an input);
    ``flat``: the state is the game data itself with the runner's ``inputs`` and ``need`` beside
    its fields (``{"g": data, "inputs", "need"}`` otherwise).
    """

    def __init__(
        self,
        steps: Mapping[str, StepFn],
        after: Callable[[G], None] | None = None,
        copy: Callable[[G], G] = clone,
        in_place: frozenset[str] = frozenset(),
        quiet: Mapping[str, Quiet] | None = None,
        ctx: Ctx | None = None,
        need_copy: Callable[[Need], Need] = clone,
        end: Need | None = None,
        early: bool = False,
        flat: bool = False,
    ) -> None:
        self.steps = steps
        self.after = after or (lambda g: None)
        self.copy = copy
        self.in_place = in_place
        self.quiet: Mapping[str, Quiet] = quiet or {}
        self.ctx = ctx or Ctx()
        self.need_copy = need_copy
        self.end: Need = end or {"kind": "terminal"}
        self.early = early
        self.flat = flat
        self._live: dict[int, _Live] = {}
        """The live steps of the last states returned, oldest first."""

    def data_of(self, state: dict[str, Any]) -> G:
        """The game data a state holds (as it stood before the current step)."""
        if self.flat:
            return {k: v for k, v in state.items() if k not in RUNNER_KEYS}
        g: G = state["g"]
        return g

    def _out(self, g: G, inputs: list[Action], need: Need) -> dict[str, Any]:
        if self.flat:
            return {**g, "inputs": inputs, "need": need}
        return {"g": g, "inputs": inputs, "need": need}

    def start(self, g: G) -> dict[str, Any]:
        """The first state of a game whose data (with its agenda) is ``g``."""
        return self._advance(g, [], owned=True)

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        """The state after ``action`` (checked against the state's need); ``state`` is unchanged."""
        live = self._live.pop(id(state), None)
        if live is None or live.state is not state:
            return self._advance(self.data_of(state), [*state["inputs"], action])
        check_against(state["need"], action)
        try:
            need = self.need_copy(live.gen.send(action))
        except StopIteration:
            self.after(live.work)
            return self._advance(live.work, [], owned=True)
        if self.flat:
            out = {**self.data_of(state), "inputs": [*state["inputs"], action], "need": need}
        else:
            out = {"g": state["g"], "inputs": [*state["inputs"], action], "need": need}
        live.state = out
        self._hold(out, live)
        return out

    def _begin(
        self, fn: StepFn, g: G, step: dict[str, Any]
    ) -> tuple[Ask[None] | None, Need | None]:
        """Run a step up to its first need: (its generator, the need), or (None, None) once done."""
        gen = fn(g, self.ctx, step)
        if gen is None:
            return None, None
        try:
            return gen, self.need_copy(next(gen))
        except StopIteration:
            return None, None

    def _feed(self, gen: Ask[None], need: Need, inputs: list[Action]) -> Need | None:
        """Send ``inputs`` to a step paused at ``need``; its next need, or None once it has
        finished.

        Every input is checked against the need it answers; an input left over after the step has
        finished is refused. Needs are copied: the step goes on changing the data they came from.
        """
        for i, action in enumerate(inputs):
            check_against(need, action)
            try:
                need = self.need_copy(gen.send(action))
            except StopIteration:
                if i != len(inputs) - 1:
                    raise IllegalAction("лишний ход") from None
                return None
        return need

    def advance(self, state: dict[str, Any]) -> dict[str, Any]:
        """Run the steps of a (possibly hand-made) state until one needs an input."""
        return self._advance(self.data_of(state), list(state["inputs"]))

    def _advance(self, g: G, inputs: list[Action], owned: bool = False) -> dict[str, Any]:
        """Run steps until one needs an input or the agenda is empty; returns the new state.

        The data ``g`` is never changed (unless ``owned``: data made by this runner that nobody
        else holds): the first step runs on a copy. A later step named in ``in_place``, or one
        whose ``quiet`` test holds, runs on data this call owns without a copy.
        """
        steps, in_place, quiet, ctx = self.steps, self.in_place, self.quiet, self.ctx
        copy, need_copy, after = self.copy, self.need_copy, self.after
        while True:
            agenda = g["agenda"]
            if not agenda:
                if inputs:
                    raise IllegalAction("партия окончена")
                return self._out(g, [], clone(self.end))
            step = agenda[0]
            name = step["k"]
            fn = steps[name]
            need: Need | None = None
            if (
                owned
                and not inputs
                and (name in in_place or ((test := quiet.get(name)) is not None and test(g, step)))
            ):
                before = copy(g) if CHECK_IN_PLACE else None
                agenda.pop(0)
                gen = fn(g, ctx, step)
                if gen is not None:
                    try:
                        need = need_copy(next(gen))
                    except StopIteration:
                        need = None
                if need is not None:
                    assert gen is not None
                    if name not in in_place:
                        raise AssertionError(f"{name} asked where its quiet test said it would not")
                    # Nothing has changed yet: the state gets a copy, the live step keeps ``g``.
                    mine = copy(g)
                    mine["agenda"].insert(0, step)
                    if before is not None and before != mine:
                        raise AssertionError(f"{step['k']} changed the data before asking")
                    out = self._out(mine, [], need)
                    self._keep(out, gen, g)
                    return out
                after(g)
                continue
            work = copy(g)
            work["agenda"].pop(0)
            gen = fn(work, ctx, step)
            if gen is not None:
                try:
                    need = need_copy(next(gen))
                except StopIteration:
                    need = None
            if need is not None:
                assert gen is not None
                if inputs:
                    need = self._feed(gen, need, inputs)
                if need is not None:
                    out = self._out(g, inputs, need)
                    self._keep(out, gen, work)
                    return out
            elif inputs:
                raise IllegalAction("лишний ход")
            after(work)
            g = work
            inputs = []
            owned = True

    def _quiet(self, name: str, g: G, step: dict[str, Any]) -> bool:
        test = self.quiet.get(name)
        return test is not None and test(g, step)

    def partial(self, state: dict[str, Any]) -> G:
        """The data as it is mid-step (dice already rolled, logs already written) for views."""
        return self.peek(state, copy=True)

    def peek(self, state: dict[str, Any], copy: bool = False) -> G:
        """``partial`` without a copy of a live step's data: to read at once, never to keep."""
        g = self.data_of(state)
        if not g["agenda"] or (not state["inputs"] and not self.early):
            return g
        live = self._live.get(id(state))
        if live is not None and live.state is state:
            return self.copy(live.work) if copy else live.work
        work = self.copy(g)
        step = work["agenda"].pop(0)
        gen, need = self._begin(self.steps[step["k"]], work, step)
        if gen is not None and need is not None:
            for action in state["inputs"]:
                try:
                    gen.send(action)
                except StopIteration:
                    break
            gen.close()
        return work

    def _keep(self, state: dict[str, Any], gen: Ask[None], work: G) -> None:
        self._hold(state, _Live(state, gen, work))

    def _hold(self, state: dict[str, Any], live: _Live) -> None:
        held = self._live
        held[id(state)] = live
        if len(held) > LIVE_STATES:
            held.pop(next(iter(held))).gen.close()
