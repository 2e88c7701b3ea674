"""``docs/rumble-rules-map.md`` names only tests that exist, and every rule test is in it."""

from __future__ import annotations

from pathlib import Path

from tests.rules_map import code_gaps, unknown_names, unmapped_tests

HERE = Path(__file__).resolve().parent
RULE_FILES = (
    "test_power_and_targets.py",
    "test_creatures_and_cloak.py",
    "test_palace_and_diseases.py",
    "test_death_and_medals.py",
    "test_assembly_and_queue.py",
    "test_treasures.py",
)


DOC = "rumble-rules-map.md"


def test_the_rules_map_names_existing_tests() -> None:
    assert unknown_names(HERE, DOC) == []


def test_every_rule_test_is_in_the_map() -> None:
    assert unmapped_tests(HERE, DOC, RULE_FILES) == []


def test_every_rule_names_code_that_exists() -> None:
    assert code_gaps(DOC, "engine/games/rumble") == []
