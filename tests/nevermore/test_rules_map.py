"""``docs/nevermore-rules-map.md`` names only tests that exist, and every rule test is in it."""

from __future__ import annotations

from pathlib import Path

from tests.rules_map import ROOT, code_gaps, unknown_names, unmapped_tests

HERE = Path(__file__).resolve().parent
RULE_FILES = (
    "test_resolution.py",
    "test_ravens_and_wins.py",
    "test_draft.py",
    "test_decks.py",
    "test_scenario_runner.py",
)


DOC = "nevermore-rules-map.md"


def test_the_rules_map_names_existing_tests() -> None:
    elsewhere = {path.stem for path in (ROOT / "tests" / "engine").glob("test_*.py")}
    assert [name for name in unknown_names(HERE, DOC) if name not in elsewhere] == []


def test_every_rule_test_is_in_the_map() -> None:
    assert unmapped_tests(HERE, DOC, RULE_FILES) == []


def test_every_rule_names_code_that_exists() -> None:
    assert code_gaps(DOC, "engine/games/nevermore") == []
