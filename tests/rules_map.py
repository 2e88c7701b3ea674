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


def code_gaps(doc: str, package: str) -> list[str]:
    """Rows of the map's rule tables (those with a ``code`` column) whose code cell is empty, and
    code names in it defined nowhere (``a.B.c`` must end in a function, class or module of
    ``package``, the rest of the engine or the page; a file ``x.py`` must exist there)."""
    text = (ROOT / "docs" / doc).read_text("utf-8")
    defined: set[str] = set()
    for folder in (ROOT / package, ROOT / "engine", ROOT / "web" / "ui"):
        for path in folder.rglob("*.py"):
            defined |= {path.stem, path.name}
            defined |= set(
                re.findall(r"^\s*(?:async )?(?:def|class) (\w+)", path.read_text(), re.M)
            )
    gaps: list[str] = []
    column: int | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            column = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if column is None:
            heads = [c.lower() for c in cells]
            column = next((i for i, h in enumerate(heads) if h.startswith("code")), -1)
            continue
        if column < 0 or set(line) <= set("|-: "):
            continue
        names = re.findall(r"`([\w.]+)`", cells[column]) if column < len(cells) else []
        if not names:
            gaps.append(f"no code: {cells[0][:60]}")
        gaps += [f"unknown: {n}" for n in names if not known(n, defined)]
    return gaps


def known(name: str, defined: set[str]) -> bool:
    """``x.py`` names a file; ``a.B.c`` ends in a function, class or module name."""
    return name in defined if name.endswith(".py") else name.split(".")[-1] in defined
