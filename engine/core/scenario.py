"""What the games' scenario runners share: their error type, seat views, value matching and
their command line (``--help`` included)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from engine.core.local_table import LocalTable


class ScenarioError(ValueError):
    """The scenario file is not a playable position."""


def need(condition: bool, message: str) -> None:
    """Raise ``ScenarioError(message)`` unless ``condition`` holds."""
    if not condition:
        raise ScenarioError(message)


def seat_views(
    table: LocalTable, piles: Callable[[Any, int], dict[str, list[int]]]
) -> list[dict[str, Any]]:
    """What each seat sees now: the cards it knows in each of its ``piles(state, seat)`` (slot
    lists by name, e.g. its hand) and its view without the public log."""
    out = []
    for seat, knowledge in sorted(table.knowledge.items()):
        view = table.rules.view(table.state, knowledge)
        assert isinstance(view, dict)
        view.pop("log", None)
        known = {
            name: [knowledge.cards.get(s) for s in slots]
            for name, slots in piles(table.state, seat).items()
        }
        out.append({"seat": seat, **known, "view": view})
    return out


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


def run_cli(
    prog: str,
    play: Callable[[Any], Any],
    argv: list[str] | None = None,
    errors: tuple[type[Exception], ...] = (),
    doc: str = "",
) -> int:
    """``python -m PROG FILE.json``: play a scenario file and print the result as JSON;
    ``--help`` / ``-h`` prints the usage and ``doc`` (the runner's description), exit code 0.

    Bad input — no file, not JSON, an unplayable position (``ScenarioError`` and ``errors``),
    malformed data — is one clear line on stderr and exit code 2, never a traceback.
    """
    args = sys.argv[1:] if argv is None else argv
    if any(a in HELP_FLAGS for a in args):
        print(usage(prog, doc))
        return 0
    refused: tuple[type[Exception], ...] = (ScenarioError, *errors)
    if len(args) != 1:
        print(f"использование: python -m {prog} FILE.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            data = json.load(handle)
        result = play(data)
    except FileNotFoundError:
        print(f"ошибка: файл {args[0]} не найден", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"ошибка: не удалось прочитать {args[0]} ({exc.strerror})", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"ошибка: {args[0]} — не JSON ({exc.msg}, строка {exc.lineno})", file=sys.stderr)
        return 2
    except refused as exc:
        print(f"ошибка сценария: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        print(f"ошибка сценария: неверные данные ({exc!r})", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0
