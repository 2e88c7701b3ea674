"""Shared check of a game's rules map (``docs/<game>-rules-map.md``): it names only tests that
exist, and every test in the game's rule files is in it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def defined_tests(folder: Path) -> dict[str, str]:
    """Every test function (sync or async) in ``folder``'s test files, with its file name."""
    out = {}
    for path in folder.glob("test_*.py"):
        for name in re.findall(r"^(?:async )?def (test_\w+)", path.read_text("utf-8"), re.M):
            out[name] = path.name
    return out


def unknown_names(folder: Path, doc: str) -> list[str]:
    """Test (or test file) names the map mentions that do not exist."""
    text = (ROOT / "docs" / doc).read_text("utf-8")
    named = set(re.findall(r"\b(test_\w+)", text))
    files = {path.stem for path in folder.glob("test_*.py")}
    return sorted(named - set(defined_tests(folder)) - files)


def unmapped_tests(folder: Path, doc: str, rule_files: tuple[str, ...]) -> list[str]:
    """Tests of the rule files that the map does not mention."""
    text = (ROOT / "docs" / doc).read_text("utf-8")
    tests = defined_tests(folder).items()
    return sorted(name for name, file in tests if file in rule_files and name not in text)
