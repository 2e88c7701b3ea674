"""The round of «Невермор» as an agenda of tasks: set-up, deal, draft, resolution, end of round.

``g["agenda"]`` is a list of tasks (dicts with ``"k"``), run one by one as steps of the shared
runner (``engine.core.runner``; ``Flow.task``). A task that needs an input describes it in
``g["need"]`` (``kind``: move / simultaneous / chance / reveal / reshuffle, ``phase``,
``seats``...); the runner checks the input against it and ``Flow.answer`` goes on in the handler
the need names; between tasks ``Flow.after`` ends a won game and starts the next round. Each
magic card is one entry of ``light.py`` / ``shadow.py`` (``spell.Spell``), played by ``magic.py``;
majorities and damage live in ``scoring.py``.

Re-shuffles: before every round after the first, the whole main deck is gathered (``t_new_deck``:
a RESHUFFLE of all 60, unseen cards staying unseen); a task that draws from a pile that is too
short first tops it up with the pile's discards the same way
(``restock_first``, ``t_restock``). The table's ``{"type": "reshuffled"}`` answer makes the game
forget the identities of those slots; they go back into the pile's draw order, ascending.
"""

from __future__ import annotations

from .cards import Catalog
from .magic import Magic
from .resolution import Resolution

__all__ = ["Flow"]


class Flow(Resolution):
    """Runs the agenda of one game (``agenda``, ``decks``, ``rounds``, ``draft``, ``suits``,
    ``resolution``); ``magic`` resolves the Light and Shadow cards."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.magic = Magic(self)
