"""``StepRules``: the ``Rules`` contract for a game built on the step runner (``runner``).

A game supplies its set-up (``new_game`` returning ``self.runner.start(g)``), its steps, its legal
actions and its views; this base class owns what every game shares: the need → ``Decision``
mapping, the guards around ``apply`` and the state's JSON form. A move the rules refuse raises
``IllegalAction``. When a step fails (a ``KeyError`` deep in it, say) on an input the runner has
checked completely against its need — the table's chance, reveal, reshuffle or settle, or a move
that is one of the need's listed options — the rules themselves failed: ``EngineError`` naming
the position, so the table never blames the move's author for it. Only a free-form move (a
sealed choice's opening, say), whose fields the step reads itself, is refused as malformed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.model import (
    JSON,
    Action,
    Decision,
    EngineError,
    IllegalAction,
    Knowledge,
    Rules,
    canonical_json,
)
from engine.core.runner import Runner, clone, need_decision

State = dict[str, Any]
"""``{"g": the game data, "inputs": [...], "need": {...}}`` (see ``engine.core.runner``)."""

ENGINE_FAULTS = (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)
"""What a failing step raises; ``IllegalAction`` (a ``ValueError``) is let through first."""


def checked(need: dict[str, Any], action: Action) -> bool:
    """Whether the runner checked ``action`` against ``need`` completely (nothing left for the
    step to read that could be malformed)."""
    return need["kind"] in ("chance", "reveal", "reshuffle") or (
        action["type"] == "settle" or need.get("options") is not None
    )


class StepRules(Rules[State]):
    """A game's rules over the step runner; subclasses set ``runner`` in ``__init__``."""

    runner: Runner
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

    def legal_choices(self, state: State, seat: int, knowledge: Knowledge) -> Sequence[Action]:
        """``legal_actions`` as a sequence, the same actions in the same order; a game may build
        each only when it is read (for a bot that picks one of many)."""
        return self.legal_actions(state, seat, knowledge)

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
            action = clone(action)
        except ValueError as exc:
            raise IllegalAction("ход — данные JSON") from exc
        if action["type"] == "reveal" and isinstance(action.get("cards"), dict):
            action["cards"] = {str(k): v for k, v in action["cards"].items()}
        try:
            return self.runner.apply(state, action)
        except IllegalAction:
            raise
        except ENGINE_FAULTS as exc:
            if checked(state["need"], action):
                raise EngineError(f"ошибка правил: {exc!r}", self.position(state, action)) from exc
            raise IllegalAction(f"неверный ход: {exc!r}") from exc

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
