"""The games the table can show: one ``Board`` entry per game id (pure Python, tested in CPython).

Adding a game is one entry in ``BOARDS`` plus the game's own view module::

    "circle": Board(
        name="«Волшебный круг»",
        render=circle_views.board,            # (view, seat, moves, selected) -> html
        settings=circle_views.settings,       # optional: the host's lobby fields (html)
        config=circle_views.config,           # optional: field reader -> rules config
        detail=circle_views.detail,           # optional: card id -> the card pane's html
        max_selected=circle_views.max_selected,  # optional: how many hand cards may be selected
    ),

Everything is optional but the name: a game without a renderer shows its raw view and one button
per legal move. Buttons in a board carry ``data-action`` attributes that ``web.ui.app`` dispatches
(``move`` with ``data-index`` into ``moves``, ``pick`` with ``data-slot``, ``card-info``...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from engine.core.model import Action
from engine.protocol.session import TableSession

from . import circle_views, nevermore_views, rumble_views
from .i18n import tr

BoardRenderer = Callable[[dict[str, Any], int | None, list[Action], list[int]], str]
Field = Callable[[str], str]  # the value of a lobby form field by element id ("" if absent)


def _no_settings(lang: str) -> str:
    return ""


def _no_config(field: Field) -> dict[str, Any]:
    return {}


def _no_selection(view: dict[str, Any], moves: list[Action]) -> int:
    return 0


@dataclass(frozen=True)
class Board:
    """How the page shows one game and how the host configures it."""

    name: str
    render: BoardRenderer | None = None
    settings: Callable[[str], str] = _no_settings
    config: Callable[[Field], dict[str, Any]] = _no_config
    detail: Callable[[str], str] | None = None
    max_selected: Callable[[dict[str, Any], list[Action]], int] = _no_selection
    profile: Callable[[str, TableSession], str] | None = None  # each player's lobby choice


# ----- «Схватка» --------------------------------------------------------------------------------

MODES = {"tournament": "Турнир (три схватки)", "two_wins": "До двух побед"}
MODES_EN = {"tournament": "Tournament (three fights)", "two_wins": "Best of two wins"}
NAMES_EN = {
    "rumble": "«Rumble»",
    "nevermore": "«Nevermore»",
    "circle": "«Magic Circle»",
    "toy": "«Trial» (a fairness check)",
}


def rumble_settings(lang: str) -> str:
    """Mode, number of fights and the assembly timer."""
    t = lambda key: escape(tr(key, lang))  # noqa: E731
    names = MODES_EN if lang == "en" else MODES
    modes = "".join(f'<option value="{m}">{escape(n)}</option>' for m, n in names.items())
    return (
        f'<label>{t("mode")} <select id="table-mode">{modes}</select></label>'
        f'<label>{t("fights")} <select id="table-fights"><option>3</option>'
        "<option>2</option><option>1</option></select></label>"
        f'<label>{t("assembly_timer")} <input id="table-assembly" type="number" min="5"'
        f' max="600" value="60"></label>'
    )


def rumble_config(field: Field) -> dict[str, Any]:
    assembly = max(5, int(field("table-assembly") or "60"))
    return {
        "mode": field("table-mode") or "tournament",
        "timers": {"assembly": assembly},
        "fights": int(field("table-fights") or "3"),
    }


def rumble_profile(lang: str, session: TableSession) -> str:
    """The hero pick (the hero travels in the player's hello)."""
    heroes = "".join(
        f'<button type="button" class="hero-pick" data-action="hero" data-hero="{hid}"'
        f' aria-pressed="{str(hid == session.hero).lower()}"'
        f' title="{escape(rumble_views.name_of(hid))}">'
        f'<img src="{rumble_views.art(hid)}" alt="{escape(rumble_views.name_of(hid))}"></button>'
        for hid, entry in rumble_views.cards().items()
        if entry["deck"] == "heroes"
    )
    return (
        f'<p class="muted">{escape(tr("pick_hero", lang))}</p>'
        f'<div id="heroes" class="heroes">{heroes}</div>'
    )


def rumble_max_selected(view: dict[str, Any], moves: list[Action]) -> int:
    return 3


# ----- the registry -----------------------------------------------------------------------------

BOARDS: dict[str, Board] = {
    "rumble": Board(
        name="«Схватка»",
        render=rumble_views.board,
        settings=rumble_settings,
        config=rumble_config,
        detail=rumble_views.detail,
        max_selected=rumble_max_selected,
        profile=rumble_profile,
    ),
    "nevermore": Board(
        name="«Невермор»",
        render=nevermore_views.board,
        settings=nevermore_views.settings,
        config=nevermore_views.config,
        detail=nevermore_views.detail,
        max_selected=nevermore_views.max_selected,
    ),
    "circle": Board(
        name="«Волшебный круг»",
        render=circle_views.board,
        settings=circle_views.settings,
        config=circle_views.config,
        detail=circle_views.detail,
        max_selected=circle_views.max_selected,
    ),
    "toy": Board(name="«Проба» (проверка честности)"),
}

DEFAULT = "rumble"


def game_name(game_id: str, lang: str) -> str:
    """The game's name in the lobby, in ``lang``."""
    if lang == "en" and game_id in NAMES_EN:
        return NAMES_EN[game_id]
    return board_for(game_id).name


def board_for(game_id: str) -> Board:
    """The entry for ``game_id`` (an unknown game gets the raw view)."""
    return BOARDS.get(game_id) or Board(name=game_id)
