"""``StepRules``: the ``Rules`` contract for a game built on the step runner (``runner``).

A game supplies its set-up (``new_game`` returning ``self.runner.start(g)``), its steps, its legal
actions, its views and the shapes of its free-form moves (``shapes``); this base class owns what
every game shares: the need → ``Decision`` mapping, the guards around ``apply`` and the state's
JSON form. A move the rules refuse raises ``IllegalAction``. Every input is checked completely
before a step reads it: the table's chance, reveal, reshuffle or settle and a move among a need's
listed options by the runner, a free-form move (a sealed choice's opening, say, whose fields the
step reads itself) here, against the shape its game declares for the need's phase
(``engine.core.shapes``). So when a step then fails (a ``KeyError`` deep in it, say) the rules
themselves failed: ``EngineError`` naming the position, and the table never blames the move's
author for it. A free-form need whose phase has no declared shape is an engine fault too.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core.model import (
    JSON,
    Action,
    Decision,
    EngineError,
    IllegalAction,
    Rules,
    canonical_json,
)
from engine.core.runner import Runner, clone_record, need_decision
from engine.core.shapes import Shapes, check_shape

State = dict[str, Any]
"""``{"g": the game data, "inputs": [...], "need": {...}}`` (see ``engine.core.runner``)."""

ENGINE_FAULTS = (
    KeyError,
    TypeError,
    ValueError,
    AttributeError,
    IndexError,
    AssertionError,
    ArithmeticError,
)
"""What a failing step raises; ``IllegalAction`` (a ``ValueError``) is let through first."""
FREE_FORM = frozenset(("move", "simultaneous", "race"))
"""The kinds of need a player answers; without ``options`` the move is free-form."""


def free_form(need: dict[str, Any], action: Action) -> bool:
    """Whether ``action`` is a free-form move for ``need`` (not one of listed options, not the
    table's settle of a race): its shape is checked before the step reads it."""
    return (
        need["kind"] in FREE_FORM
        and need.get("options") is None
        and not (action["type"] == "settle" and need["kind"] == "race")
    )


class StepRules(Rules[State]):
    """A game's rules over the step runner; subclasses set ``runner`` in ``__init__``."""

    runner: Runner
    shapes: ClassVar[Shapes] = {}
    """The shapes of the game's free-form moves, by the phase of their need."""
    _last: tuple[Any, Decision] | None = None
    """The last need asked about and its decision (a state's need is never changed)."""

    def decision(self, state: State) -> Decision:
        need = state["need"]
        last = self._last
        if last is not None and last[0] is need:
            return last[1]
        decision = need_decision(need)
        self._last = (need, decision)
        return decision

    def data(self, state: State) -> dict[str, Any]:
        """The game data as it stands now, mid-step included (for views and legal actions)."""
        return self.runner.partial(state)

    def apply(self, state: State, action: Action) -> State:
        if state["need"]["kind"] == "terminal":
            raise IllegalAction("партия окончена")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("ход — объект с полем type")
        if "secret" in action:
            raise IllegalAction("тайный выбор отправляется только обязательствами (commit)")
        try:
            action = clone_record(action)
        except ValueError as exc:
            raise IllegalAction("ход — данные JSON") from exc
        if action["type"] == "reveal" and isinstance(action.get("cards"), dict):
            action["cards"] = {str(k): v for k, v in action["cards"].items()}
        need = state["need"]
        try:
            if need["kind"] in FREE_FORM and need.get("options") is None:
                # A move of its shape passes on one test; the rest (a refusal and its message, a
                # race's seat or settle, a phase without a shape) goes the long way.
                shape = self.shapes.get(need.get("phase", ""))
                move = None if shape is None else shape.get(action["type"])
                if move is None or not move.ok(action) or need["kind"] == "race":
                    self.check_free_form(state, action)
            return self.runner.apply(state, action)
        except IllegalAction:
            raise
        except ENGINE_FAULTS as exc:
            raise EngineError(f"ошибка правил: {exc!r}", self.position(state, action)) from exc

    def check_free_form(self, state: State, action: Action) -> None:
        """Refuse a free-form move that is not of the shape declared for its need's phase (and,
        in a race, one of a seat not racing); a phase with no declared shape is an engine fault."""
        need = state["need"]
        if not free_form(need, action):
            return
        shape = self.shapes.get(need.get("phase", ""))
        if shape is None:
            raise EngineError(
                f"ошибка правил: у хода фазы {need.get('phase')!r} нет объявленной формы",
                self.position(state, action),
            )
        check_shape(shape, action)
        if need["kind"] == "race" and action["seat"] not in need["seats"]:
            raise IllegalAction("сейчас ходит не это место")

    def position(self, state: State, action: Action) -> dict[str, Any]:
        """Where the rules failed: the game, the phase, the state's hash and the action."""
        need = state["need"]
        return {
            "game": self.game_id,
            "phase": need.get("phase", need.get("kind")),
            "state": self.state_hash(state),
            "action": canonical_json(action).decode(),
        }

    def to_json(self, state: State) -> JSON:
        return state
