"""One magic card of «Невермор» as data: when it may be played and what it does in each form.

Every Light and Shadow card of the catalog has one ``Spell`` entry (``light.CARDS``,
``shadow.CARDS``): its kind (played, kept in the hand until its moment, or added to the cards as
a suit card), its own test of the window it is played in, its effect for a player in human form
and in raven form, the steps that continue it (a choice, a chance, a reveal it asks for) and the
round effects (``g["fx"]``) it sets for the flow to read. The window itself is the catalog's
(``Catalog.window``). ``magic.Magic`` plays the entries; the cards reach the game only through the
``Cards`` and ``Flow`` protocols below, so no card module imports the flow or ``magic``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from .cards import Catalog
from .state import PileName, Task
from .table import G


class Flow(Protocol):
    """What the cards ask of the game's flow (``flow.Flow``)."""

    cat: Catalog

    @staticmethod
    def push(g: G, *tasks: Task) -> None: ...

    def ask(
        self,
        g: G,
        seat: int,
        what: str,
        options: list[Any],
        ctx: dict[str, Any],
        private: str = "",
    ) -> None: ...

    def chance(self, g: G, what: str, size: int, ctx: dict[str, Any]) -> None: ...

    def reveal(self, g: G, slots: list[int], what: str, ctx: dict[str, Any]) -> None: ...

    def counts(self, g: G, suit: str) -> list[int]: ...

    def harm(self, hits: list[tuple[int, int]], source: int | None, why: str) -> Task: ...

    def restock_first(self, g: G, task: Task, pile: PileName, count: int) -> bool: ...


class Cards(Protocol):
    """What a card's effect may use besides the flow: the draws and moves several cards share
    (``magic.Magic``)."""

    flow: Flow
    cat: Catalog

    def draw_main(self, g: G, seat: int, count: int) -> None: ...

    def move_hands(self, g: G, shift: int) -> None: ...


@dataclass(frozen=True)
class Play:
    """A played card being resolved: who played it, its slot, and the window it was played in."""

    seat: int
    slot: int
    w: str


Effect = Callable[[Cards, G, Play], None]
# (the game, the seat, the window, the card's catalog window for that seat's form, raven form)
Playable = Callable[[G, int, str, str, bool], bool]
Step = Callable[..., None]
Kind = Literal["play", "passive", "add"]


def in_window(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """The usual test: played in its own window. The inner windows (a rescue, a Light card being
    played, damage that is not an attack) are for the cards that name them; an attack window
    opens for the players the attack does not come from, unless it hits everyone."""
    if w in ("rescue", "light_played", "damaged"):
        return False
    if w == "attacked":
        att = g.get("attack")
        return bool(
            window == "attacked" and att is not None and seat != att["attacker"] and not att["all"]
        )
    return window == w


def before_a_turn(g: G, seat: int, w: str, window: str, raven: bool) -> bool:
    """A magic card that looks like a suit card may be added before any resolution turn."""
    return w in ("before_resolution", "before_token")


@dataclass(frozen=True)
class Spell:
    """One magic card's behaviour (see the module's text)."""

    kind: Kind = "play"
    effect: Effect | None = None
    raven: Effect | None = None
    may: Playable = in_window
    steps: Mapping[str, Step] = field(default_factory=dict)
    sets: tuple[str, ...] = ()

    def effect_for(self, raven: bool) -> Effect | None:
        """The effect for a player in that form (the human one where the card has no other)."""
        return self.raven if raven and self.raven is not None else self.effect


ADD = Spell(kind="add", may=before_a_turn)  # a suit card added to the player's own cards
