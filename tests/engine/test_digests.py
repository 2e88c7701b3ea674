"""Every game replays its seeded games and scenarios to the recorded digests (``digests.py``).

The default run checks every tenth game of each game (about 30 per game) and every scenario;
``pytest -m slow`` checks all 300 games of each game.
"""

from __future__ import annotations

import pytest

from . import digests
from .digests import Spec

ALL = [spec for game in ("circle", "nevermore", "rumble", "toy") for spec in digests.specs(game)]
SAMPLE = [spec for spec in ALL if spec.seed % 10 == 0]


def test_the_fixture_holds_every_game_and_scenario() -> None:
    want = digests.recorded()
    assert sorted(want["games"]) == sorted(spec.key for spec in ALL)
    assert len(want["games"]) == 4 * digests.GAMES
    files = sorted(digests.scenario_key(g, p) for g, p in digests.scenario_files())
    assert sorted(want["scenarios"]) == files
    assert len(files) >= 8


@pytest.mark.parametrize("spec", SAMPLE, ids=lambda s: s.key)
def test_sampled_games_replay_to_the_recorded_digests(spec: Spec) -> None:
    assert list(digests.play(spec)) == digests.recorded()["games"][spec.key]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["circle", "nevermore", "rumble", "toy"])
def test_all_games_replay_to_the_recorded_digests(game: str) -> None:
    want = digests.recorded()["games"]
    wrong = [s.key for s in digests.specs(game) if list(digests.play(s)) != want[s.key]]
    assert not wrong


def test_scenario_outputs_are_the_recorded_ones() -> None:
    want = digests.recorded()["scenarios"]
    wrong = [
        digests.scenario_key(game, path)
        for game, path in digests.scenario_files()
        if digests.scenario_digest(game, path) != want[digests.scenario_key(game, path)]
    ]
    assert not wrong


def test_a_log_renders_the_same_as_sentences_or_as_events_with_their_text() -> None:
    as_text = {"g": {"log": ["Маг 1 получает сокровище."]}, "n": 1}
    as_event = {"g": {"log": [{"e": "treasure", "seat": 0, "text": "Маг 1 получает сокровище."}]}}
    as_event["n"] = 1
    assert digests.blob("rumble", as_text) == digests.blob("rumble", as_event)
    other = {"g": {"log": ["Маг 2 получает сокровище."]}, "n": 1}
    assert digests.blob("rumble", as_text) != digests.blob("rumble", other)


def test_a_changed_game_changes_its_digests() -> None:
    """The digests see a different seed, and a different table size, as a different game."""
    base = SAMPLE[0]
    moved = Spec(base.game, base.seed + 1, base.config, base.smart)
    assert digests.play(moved) != tuple(digests.recorded()["games"][base.key])
