"""A benchmark's command line checked before anything runs: ``--help`` prints what the script
says of itself, and an option it does not take stops it with the list of those it does (a
browser benchmark otherwise took minutes to play a game that nobody asked for)."""

from __future__ import annotations

from collections.abc import Iterable


def check(args: list[str], flags: Iterable[str], valued: Iterable[str], about: str | None) -> None:
    """Exit (``SystemExit``) on ``--help`` with ``about``, on one of ``valued`` with no word after
    it, or on any word of ``args`` that is not one of ``flags``, one of ``valued`` or the value
    right after one of ``valued`` (each script checks its values itself)."""
    flags, valued = set(flags), set(valued)
    if "--help" in args or "-h" in args:
        raise SystemExit((about or "").strip() or "no help for this benchmark")
    known = sorted(flags) + [f"{name} VALUE" for name in sorted(valued)]
    at = 0
    while at < len(args):
        word = args[at]
        if word in valued:
            if at + 1 >= len(args):
                raise SystemExit(f"{word} takes a value")
            at += 2
            continue
        if word not in flags:
            raise SystemExit(f"unknown option {word!r}; this benchmark takes: {', '.join(known)}")
        at += 1
