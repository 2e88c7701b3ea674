"""What the page can emit, read from its source: every ``data-action`` the views and the page's
HTML give an element (with the element's tag), and every event ``mesh.js`` reports."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "web" / "ui"
STATIC = ROOT / "web" / "static"
HOLE = "\x00"  # where an f-string's value sits in its text
ACTION = re.compile(r'data-action="([^"]*)"')
TAG = re.compile(r"<([a-zA-Z]+)\b")


def _text(node: ast.JoinedStr) -> tuple[str, list[ast.expr]]:
    """An f-string's literal text with a hole per value, and the values."""
    parts, values = [], []
    for piece in node.values:
        if isinstance(piece, ast.Constant):
            parts.append(str(piece.value))
        elif isinstance(piece, ast.FormattedValue):
            parts.append(HOLE)
            values.append(piece.value)
    return "".join(parts), values


def _names_given(function: ast.AST, name: str) -> set[str]:
    """The string constants a function assigns to ``name`` (also as one item of a tuple)."""
    found: set[str] = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                index = None
            elif isinstance(target, ast.Tuple) and name in [
                e.id for e in target.elts if isinstance(e, ast.Name)
            ]:
                index = [e.id if isinstance(e, ast.Name) else "" for e in target.elts].index(name)
            else:
                continue
            for value in ast.walk(node.value):
                if index is None and isinstance(value, ast.Constant):
                    found.add(str(value.value))
                elif index is not None and isinstance(value, ast.Tuple):
                    item = value.elts[index]
                    if isinstance(item, ast.Constant):
                        found.add(str(item.value))
    return found


def _tag_before(text: str, at: int) -> str:
    tags = TAG.findall(text[:at])
    return tags[-1].lower() if tags else ""


def python_actions(path: Path) -> set[tuple[str, str]]:
    """(tag, action) for every ``data-action`` in a module's strings; a value filled in from a
    variable is resolved to the strings the enclosing function assigns it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[tuple[str, str]] = set()
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text, values = node.value, []
        elif isinstance(node, ast.JoinedStr):
            text, values = _text(node)
        else:
            continue
        holes = [i for i, ch in enumerate(text) if ch == HOLE]
        for match in ACTION.finditer(text):
            tag = _tag_before(text, match.start())
            if HOLE not in match.group(1):
                found.add((tag, match.group(1)))
                continue
            value = values[holes.index(match.start(1))]
            if not isinstance(value, ast.Name):
                raise AssertionError(f"{path.name}: a data-action from {ast.dump(value)}")
            owner = next(
                f
                for f in functions
                if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)
                and any(n is node for n in ast.walk(f))
            )
            names = _names_given(owner, value.id)
            if not names:
                raise AssertionError(f"{path.name}: data-action={{{value.id}}} not resolved")
            found |= {(tag, name) for name in names}
    return found


class _Actions(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[tuple[str, str]] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        action = dict(attrs).get("data-action")
        if action:
            self.found.add((tag, action))


def page_actions() -> set[tuple[str, str]]:
    """(tag, action) for every ``data-action`` of ``web/ui`` and the page's static HTML."""
    found: set[tuple[str, str]] = set()
    for path in sorted(UI.rglob("*.py")):
        found |= python_actions(path)
    parser = _Actions()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    return found | parser.found


def mesh_events() -> set[str]:
    """Every event ``mesh.js`` reports: the ones it names, and the server's frames it passes on
    as they are (those its switch has no case for, and the cases that emit ``message.type``)."""
    source = (STATIC / "mesh.js").read_text(encoding="utf-8")
    named = set(re.findall(r'this\.emit\("([a-z-]+)"', source))
    switch = source[source.index("switch (message.type)") :]
    switch = switch[: switch.index("default:")]
    cases = re.split(r'case "([a-z-]+)":', switch)
    consumed = set(cases[1::2])
    passed_on = {
        cases[i] for i in range(1, len(cases), 2) if "this.emit(message.type" in cases[i + 1]
    }
    hub = (ROOT / "signaling" / "hub.py").read_text(encoding="utf-8")  # what the server sends
    server_sent = set(re.findall(r'"type": "([a-z-]+)"', hub))
    return named | passed_on | (server_sent - consumed)
