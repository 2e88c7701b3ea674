"""Free-form moves (a need without ``options``: the step reads the move's fields) of every game:
each has a declared shape that every move the rules offer fits; a malformed or dishonest move is
refused as the mover's (``IllegalAction``) and never crashes a step; and once a move has its
shape, a step that fails on it is the engine's fault (``EngineError`` with the position), never
the mover's."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from engine.core.game import free_form
from engine.core.model import Action, EngineError, IllegalAction, Rules, canonical_json
from engine.core.shapes import check_shape

from .free_form import GAMES, Met, collect
from .mutations import mutations

EVERY = 7
"""Every 7th recorded game of each game: both table modes, every table size, smart bots too."""
FUZZED = 12
"""How many moves of each phase and move type are fuzzed."""
PHASES = {
    "toy": {"seal", "pass", "open", "reseal", "reopen", "bid"},
    "circle": {"scramble"},
    "rumble": {"assembly", "initiative", "open", "treasure", "drop", "surprise"},
    "nevermore": {"window", "pass_commit", "pass_open", "seal", "flock", "show", "rest"},
}
"""The free-form phases the sampled games must meet (so a game that stops meeting one, and so
stops testing it, fails here); «Невермор»'s rare ``scry_token`` is met when it is met."""


@functools.cache
def sampled(game: str) -> tuple[Rules[Any], list[Met]]:
    return collect(game, EVERY)


@pytest.mark.parametrize("game", GAMES)
def test_every_free_form_need_has_a_shape_that_every_offered_move_fits(game: str) -> None:
    rules, met = sampled(game)
    shapes = rules.shapes  # type: ignore[attr-defined]
    phases = {m.phase for m in met}
    assert PHASES[game] <= phases, PHASES[game] - phases
    assert phases <= set(shapes), f"free-form needs without a shape: {phases - set(shapes)}"
    checked = 0
    for m in met:
        for move in [m.applied, *m.offered]:
            check_shape(shapes[m.phase], move)
            checked += 1
    assert checked > len(met)  # the offers were checked too, not only the moves played


@pytest.mark.parametrize("game", GAMES)
def test_every_shape_is_of_a_phase_the_game_asks_in(game: str) -> None:
    """No shape is left over for a phase whose moves are checked otherwise (or no longer met)."""
    rules, met = sampled(game)
    phases = {m.phase for m in met} | ({"scry_token"} if game == "nevermore" else set())
    assert set(rules.shapes) == phases  # type: ignore[attr-defined]


def fuzz(rules: Rules[Any], m: Met) -> tuple[int, int]:
    """Apply every mutation of the move played at ``m``; (refused, taken) counts."""
    seats = m.state["need"]["seats"]
    others = [s for s in range(8) if s != m.seat][: max(2, len(seats))]
    refused = taken = 0
    for bad in mutations(m.applied, others):
        try:
            out = rules.apply(m.state, bad)
        except IllegalAction:
            refused += 1
            continue
        except EngineError as exc:  # pragma: no cover - the failure this test looks for
            raise AssertionError(f"{m.game}/{m.phase}: {bad!r} crashed the rules: {exc}") from exc
        assert isinstance(out, dict) and "need" in out
        taken += 1
    return refused, taken


@pytest.mark.parametrize("game", GAMES)
def test_malformed_and_dishonest_free_form_moves_are_refused_never_crash(game: str) -> None:
    rules, met = sampled(game)
    seen: dict[tuple[str, str], int] = {}
    fuzzed = []
    for m in met:  # up to FUZZED of each phase and move type
        key = (m.phase, str(m.applied["type"]))
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= FUZZED:
            fuzzed.append(m)
    refused = taken = 0
    for m in fuzzed:
        before = canonical_json(rules.to_json(m.state))
        r, t = fuzz(rules, m)
        refused, taken = refused + r, taken + t
        rules.apply(m.state, m.applied)  # the real move is still taken after all of them
        assert canonical_json(rules.to_json(m.state)) == before  # and the state is untouched
    assert {m.phase for m in fuzzed} == {m.phase for m in met}
    assert refused > 50 * len(fuzzed)


# ----- a planted engine bug met on a well-formed free-form move -------------------------------


def planted(game: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Make one step of ``game`` fail with a ``KeyError`` after it has read a well-formed
    free-form move; the phase where it does."""
    if game == "toy":
        from engine.games.toy import moves

        def bid(g: Any, seat: int, action: Action) -> None:
            g["bids"][seat] = action["amount"]
            raise KeyError("planted")

        monkeypatch.setattr(moves, "bid", bid)
        return "bid"
    if game == "circle":
        from engine.games.circle import plays

        def play(*args: Any) -> bool:
            raise KeyError("planted")

        monkeypatch.setattr(plays, "play", play)
        return "scramble"
    if game == "rumble":
        from engine.games.rumble.base import Base

        log = Base.log

        def failing(self: Any, g: Any, kind: str, **args: Any) -> None:
            log(self, g, kind, **args)
            if kind == "seal":  # the assembly has read the seal: its count, its commitments
                raise KeyError("planted")

        monkeypatch.setattr(Base, "log", failing)
        return "assembly"
    from engine.games.nevermore.rounds import Rounds

    def window(self: Any, g: Any, need: Any, seat: int, action: Action) -> None:
        g["need"] = None if action["type"] in ("pass", "play") else g["need"]
        raise KeyError("planted")

    monkeypatch.setattr(Rounds, "i_window", window)
    return "window"


@pytest.mark.parametrize("game", GAMES)
def test_a_step_failing_on_a_well_formed_free_form_move_is_an_engine_error(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, met = sampled(game)
    phase = planted(game, monkeypatch)
    m = next(m for m in met if m.phase == phase and free_form(m.state["need"], m.applied))
    with pytest.raises(EngineError) as caught:
        rules.apply(m.state, m.applied)
    assert not isinstance(caught.value, IllegalAction)
    position = caught.value.position
    assert position["game"] == game and position["phase"] == phase
    assert position["state"] == rules.state_hash(m.state)
    assert position["action"] == canonical_json(m.applied).decode()
    assert "planted" in str(caught.value)
    monkeypatch.undo()
    assert rules.apply(m.state, m.applied)["need"] is not None  # the move itself was fine


def test_a_free_form_need_without_a_shape_is_an_engine_fault_not_the_movers() -> None:
    rules, met = sampled("toy")
    m = next(m for m in met if m.phase == "bid")
    rules.shapes = {k: v for k, v in rules.shapes.items() if k != "bid"}  # type: ignore[attr-defined]
    try:
        with pytest.raises(EngineError, match="нет объявленной формы"):
            rules.apply(m.state, m.applied)
    finally:
        del rules.shapes  # type: ignore[attr-defined]
    rules.apply(m.state, m.applied)
