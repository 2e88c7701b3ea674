"""The lobby's sample boards (``web.ui.sample_table``): each game's own board view, for a state
where seat 0 holds cards and is asked to act, inside the page's elements around a board."""

from __future__ import annotations

import pytest

from engine.core.model import Kind
from web.ui.boards import BOARDS
from web.ui.i18n import current
from web.ui.sample_table import ME, sample_board, sample_table

GAMES = [game for game, board in BOARDS.items() if board.render is not None]
BOARD_CLASS = {"rumble": "rumble", "nevermore": "nevermore", "circle": "circle-board"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seats", [1, 3, 6, 9])
def test_the_sample_gives_seat_0_cards_and_a_choice(game: str, seats: int) -> None:
    table = sample_table(game, seats)
    decision = table.decision()
    assert decision.kind in (Kind.MOVE, Kind.SIMULTANEOUS, Kind.RACE)
    assert ME in decision.seats
    assert table.knowledge[ME].cards
    # A count the game takes is kept; one it refuses (1, 9) gives four seats.
    assert len(table.knowledge) == (seats if 3 <= seats <= 6 else 4)


@pytest.mark.parametrize("game", GAMES)
def test_the_sample_board_is_the_games_own_inside_the_pages_elements(game: str) -> None:
    html = sample_board(game, 3, "ru")
    assert html.startswith('<section class="room"><div class="table card"><div class="board-wrap">')
    assert html.endswith("</div></div></section>")
    assert f'class="{BOARD_CLASS[game]}"' in html
    assert "<img" in html  # the cards' and heroes' pictures are in it, without their files
    assert " src=" not in html
    assert sample_board(game, 3, "ru") == html  # the same sample every time


def test_the_sample_speaks_the_pages_language_and_leaves_it_as_it_was() -> None:
    assert current() == "ru"
    russian, english = sample_board("rumble", 3, "ru"), sample_board("rumble", 3, "en")
    assert current() == "ru"
    assert "· раунд 1 ·" in russian and "· round 1 ·" not in russian
    assert "· round 1 ·" in english and "· раунд 1 ·" not in english


def test_a_game_without_a_board_of_its_own_has_no_sample() -> None:
    assert sample_board("toy", 3, "ru") == ""
    assert sample_board("chess", 3, "ru") == ""  # unknown: no board, and no table is made
    with pytest.raises(KeyError):
        sample_table("chess", 3)
