"""Python sources for the browser without comments and docstrings, every line where it was.

The page never reads a docstring (only command-line entry points use ``__doc__``, and they fall
back to an empty text) and never a comment, yet they are a third of the app wheel's bytes on the
wire. Each docstring becomes ``""`` on its first line and blank lines after it, and each comment is
cut from its line, so a traceback from the browser names the same lines as the repository.
"""

from __future__ import annotations

import ast
import io
import tokenize

Body = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def docstrings(tree: ast.Module) -> list[ast.Expr]:
    """The docstring expressions of the module, its classes and functions."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, Body) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.append(first)
    return found


def without_docstrings(source: str) -> list[str]:
    """The source's lines with each docstring that stands on lines of its own emptied."""
    lines = source.splitlines(keepends=True)
    for expr in docstrings(ast.parse(source)):
        first, last = expr.lineno - 1, (expr.end_lineno or expr.lineno) - 1
        head, tail = lines[first], lines[last]
        indent = head[: len(head) - len(head.lstrip())]
        if expr.col_offset != len(indent) or tail[expr.end_col_offset :].strip():
            continue  # shares a line with other code: left as it is
        lines[first] = f'{indent}""\n'
        for row in range(first + 1, last + 1):
            lines[row] = "\n"
    return lines


def without_comments(lines: list[str], keep_notice: bool = False) -> list[str]:
    """The lines with every comment (and the spaces before it) cut off; with ``keep_notice`` the
    comments above the first line of code (a third-party file's copyright notice) stay."""
    cuts: dict[int, int] = {}
    readline = io.StringIO("".join(lines)).readline
    heading = keep_notice
    for token in tokenize.generate_tokens(readline):
        if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
            heading = False
        if token.type == tokenize.COMMENT and not heading:
            row, col = token.start
            cuts[row - 1] = col
    out = list(lines)
    for row, col in cuts.items():
        kept = out[row][:col].rstrip()
        out[row] = kept + "\n" if kept else "\n"
    return out


def slim(source: str, keep_notice: bool = False) -> str:
    """``source`` without comments and docstrings, each remaining line where it was (with
    ``keep_notice``, the comments the file starts with stay)."""
    return "".join(without_comments(without_docstrings(source), keep_notice))
