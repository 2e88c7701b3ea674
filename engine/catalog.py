"""Catalog of every game's cards: ``python -m engine.catalog [GAME] [--json]``.

Games register here with a function returning flat entries (deck, id, name, count, text, art and
any game-specific fields); add a line to ``GAMES`` to list a new game.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

Entries = Callable[[], list[dict[str, Any]]]

GAMES: dict[str, str] = {
    "rumble": "engine.games.rumble.listing:entries",
    "nevermore": "engine.games.nevermore.listing:entries",
    "circle": "engine.games.circle.listing:entries",
}


def entries_for(game: str) -> list[dict[str, Any]]:
    """The catalog entries of one registered game."""
    module_name, _, func_name = GAMES[game].partition(":")
    func: Entries = getattr(importlib.import_module(module_name), func_name)
    return func()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.catalog", description=__doc__)
    parser.add_argument("game", nargs="?", help="game id: " + ", ".join(sorted(GAMES)))
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    games = [args.game] if args.game else sorted(GAMES)
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        print(f"unknown game: {unknown[0]} (known: {', '.join(sorted(GAMES))})", file=sys.stderr)
        return 2
    listing = {game: entries_for(game) for game in games}
    if args.json:
        data: Any = listing[games[0]] if args.game else listing
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    for game, cards in listing.items():
        print(f"== {game}: {sum(c['count'] for c in cards)} cards, {len(cards)} distinct")
        for c in cards:
            print(f"[{c['deck']}] {c['name']} ×{c['count']} — {c['text']}")
    return 0


def run() -> int:
    """``main`` for the command line: a closed pipe (``| head``) ends the listing quietly."""
    try:
        return main()
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stdout must stay open until exit
        return 0


if __name__ == "__main__":
    sys.exit(run())
