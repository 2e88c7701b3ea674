"""The games' scenario command lines: ``--help`` prints the usage, anything else plays a file.

``engine.core.scenario.run_cli`` reads one file name; this wrapper answers ``-h`` / ``--help``
first (the usage and the runner's own description on stdout, exit code 0) instead of looking for
a file called ``--help``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from engine.core.scenario import run_cli

HELP_FLAGS = ("-h", "--help")


def same(a: Any, b: Any) -> bool:
    """Equality of scripted values that keeps JSON's ``true`` and ``1`` apart (Python's
    ``True == 1`` holds)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return bool(a == b)


def usage(prog: str, doc: str) -> str:
    """The help text: how to call ``prog`` and what its module docstring says."""
    return (
        f"использование: python -m {prog} FILE.json\n"
        f"usage: python -m {prog} FILE.json\n\n"
        f"{doc.strip()}\n\n"
        "Поля сценария и вывод: docs/scenarios.md. Ошибка во входных данных — одна строка "
        "на stderr и код выхода 2.\n"
    )


def main(
    prog: str,
    doc: str,
    play: Callable[[Any], Any],
    argv: list[str] | None = None,
    errors: tuple[type[Exception], ...] = (),
) -> int:
    """``python -m PROG FILE.json`` or ``python -m PROG --help``."""
    args = sys.argv[1:] if argv is None else argv
    if any(a in HELP_FLAGS for a in args):
        print(usage(prog, doc))
        return 0
    return run_cli(prog, play, args, errors)
