"""The browser's Python sources lose comments and docstrings, and nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from web.slim import docstrings, slim

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "web" / "ui").rglob("*.py")])


def emptied(source: str) -> str:
    """The AST of ``source`` with every docstring made ``""``."""
    tree = ast.parse(source)
    for expr in docstrings(tree):
        assert isinstance(expr.value, ast.Constant)
        expr.value.value = ""
    return ast.dump(tree)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_slimmed_module_is_the_same_code_on_the_same_lines(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    out = slim(source)
    assert ast.dump(ast.parse(out)) == emptied(source)
    assert len(out.splitlines()) == len(source.splitlines())
    compile(out, str(path), "exec")


def test_the_sources_get_smaller() -> None:
    before = sum(len(p.read_bytes()) for p in SOURCES)
    after = sum(len(slim(p.read_text(encoding="utf-8")).encode()) for p in SOURCES)
    assert after < before * 0.9


def test_strings_that_look_like_comments_and_odd_docstrings() -> None:
    source = '''"""Module doc,
over two lines."""
import os  # why
URL = "http://x/#anchor"  # a hash in a string stays
def only_doc():
    """Nothing else here."""
def shares_a_line(): """kept: it shares the line"""
class K:
    """Doc."""; x = 1
    y = "# not a comment"
'''
    out = slim(source)
    assert "why" not in out and "a hash in a string" not in out and "Module doc" not in out
    assert 'URL = "http://x/#anchor"\n' in out and 'y = "# not a comment"' in out
    assert '    ""\n' in out, "a body of only a docstring keeps a statement"
    assert "kept: it shares the line" in out and '"""Doc."""; x = 1' in out
    namespace: dict[str, object] = {}
    exec(compile(out, "<slim>", "exec"), namespace)
    assert namespace["URL"] == "http://x/#anchor"
    assert out.count("\n") == source.count("\n")


def test_a_third_party_notice_stays_and_later_comments_go() -> None:
    source = '''#
# Copyright (c) 2016 -- Someone
# License: BSD License
#
"""Module doc."""
import os  # why

# a section
X = 1
'''
    out = slim(source, keep_notice=True)
    assert out.startswith("#\n# Copyright (c) 2016 -- Someone\n# License: BSD License\n#\n")
    assert "why" not in out and "a section" not in out and "Module doc" not in out
    assert out.count("\n") == source.count("\n")
    assert "Copyright" not in slim(source)
