"""``docs/circle-rules-map.md`` names only tests that exist, and every rule test is in it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
RULE_FILES = (
    "test_turn.py",
    "test_actions.py",
    "test_keywords.py",
    "test_draws.py",
    "test_elimination.py",
)


def defined_tests() -> dict[str, str]:
    out = {}
    for path in HERE.glob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.M):
            out[name] = path.name
    return out


def test_the_rules_map_names_existing_tests() -> None:
    text = (ROOT / "docs/circle-rules-map.md").read_text("utf-8")
    named = set(re.findall(r"\b(test_\w+)", text))
    files = {path.stem for path in HERE.glob("test_*.py")}
    assert sorted(named - set(defined_tests()) - files) == []


def test_every_rule_test_is_in_the_map() -> None:
    text = (ROOT / "docs/circle-rules-map.md").read_text("utf-8")
    unmapped = sorted(
        name for name, file in defined_tests().items() if file in RULE_FILES and name not in text
    )
    assert not unmapped
