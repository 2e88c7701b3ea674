"""What the games' scenario runners share: their error type and their command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


class ScenarioError(ValueError):
    """The scenario file is not a playable position."""


def need(condition: bool, message: str) -> None:
    """Raise ``ScenarioError(message)`` unless ``condition`` holds."""
    if not condition:
        raise ScenarioError(message)


def run_cli(
    prog: str,
    play: Callable[[Any], Any],
    argv: list[str] | None = None,
    errors: tuple[type[Exception], ...] = (),
) -> int:
    """``python -m PROG FILE.json``: play a scenario file and print the result as JSON.

    Bad input — no file, not JSON, an unplayable position (``ScenarioError`` and ``errors``),
    malformed data — is one clear line on stderr and exit code 2, never a traceback.
    """
    args = sys.argv[1:] if argv is None else argv
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
