"""A benchmark's command line, read by ``argparse`` before anything runs: ``--help`` prints what
the script says of itself, and a wrong option or value stops it with a usage line (a browser
benchmark otherwise took minutes to play a game that nobody asked for)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def parser(about: str | None) -> argparse.ArgumentParser:
    """A parser whose ``--help`` is the script's own docstring, laid out as written."""
    return argparse.ArgumentParser(
        description=(about or "").strip() or "no help for this benchmark",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def whole(low: int, high: int, what: str) -> Callable[[str], int]:
    """An option's type: a whole number from ``low`` to ``high``, named ``what`` in its error."""

    def read(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"takes a whole number of {what} (not {text!r})"
            ) from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"takes from {low} to {high} {what} (not {number})")
        return number

    return read


def add_samples(parser: argparse.ArgumentParser) -> None:
    """``--json PATH``: where the run's raw samples go, for ``benchmarks.ab`` (``samples``)."""
    parser.add_argument(
        "--json", type=Path, metavar="PATH", help="write the raw samples to this file"
    )
