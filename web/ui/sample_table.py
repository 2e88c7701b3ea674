"""A sample of a game's board for the lobby's rehearsal (``rehearsal``): the game's own board
view, for a state a few random moves into a game on an in-process table, with seat 0 holding
cards and asked to move. Pure Python: no page is needed to make it."""

from __future__ import annotations

import re

from engine.bots.random_bot import RandomBot
from engine.core.local_table import LocalTable
from engine.core.model import IllegalAction, Kind
from engine.games import rules_for

from .boards import board_for
from .i18n import current, use

SEED = 1  # the same sample every time
MAX_STEPS = 200  # every game reaches a hand to play within a few steps (3 at most today)
ASKED = (Kind.MOVE, Kind.SIMULTANEOUS, Kind.RACE)
ME = 0  # the sample is seen by seat 0
SEATS_IF_REFUSED = 4  # every game takes four
WRAPPERS = (("section", "room"), ("div", "table card"), ("div", "board-wrap"))  # round a board
# A picture's file, left out of the sample: its box is laid out the same without it (a probe: the
# rehearsal saved as much), and the page must not download the art of games nobody plays.
PICTURE_FILE = re.compile(r'(<img\b[^>]*?) src="[^"]*"')


def sample_table(game_id: str, seats: int) -> LocalTable:
    """An in-process table of ``game_id`` (``KeyError`` if unknown) for ``seats`` seats (four if
    the game does not take that many), played until seat 0 holds cards and is asked to act, or
    for ``MAX_STEPS``, or to its end."""
    rules = rules_for(game_id)
    try:
        table = LocalTable(rules, {"seats": seats}, seed=SEED)
    except IllegalAction:
        table = LocalTable(rules, {"seats": SEATS_IF_REFUSED}, seed=SEED)
    bot = RandomBot(SEED)  # every game's own random bot
    for _ in range(MAX_STEPS):
        decision = table.decision()
        if decision.kind in ASKED and ME in decision.seats and table.knowledge[ME].cards:
            break
        if not table.step(bot.choose):
            break
    return table


def sample_board(game_id: str, seats: int, lang: str) -> str:
    """The HTML of ``game_id``'s board for a sample state, inside the elements the page puts
    around a board (``WRAPPERS``), so the same style rules reach it, its pictures without
    their files (``PICTURE_FILE``); "" for a game with no board of its own."""
    render = board_for(game_id).render
    if render is None:
        return ""
    table = sample_table(game_id, seats)
    rules, state, knowledge = table.rules, table.state, table.knowledge[ME]
    decision = table.decision()
    moves = rules.legal_actions(state, ME, knowledge) if ME in decision.seats else []
    was = current()
    use(lang)  # the views read the page's language
    try:
        html = PICTURE_FILE.sub(r"\1", render(rules.view(state, knowledge), ME, moves, []))
    finally:
        use(was)  # left as the page had it
    opening = "".join(f'<{tag} class="{classes}">' for tag, classes in WRAPPERS)
    closing = "".join(f"</{tag}>" for tag, _ in reversed(WRAPPERS))
    return opening + html + closing
