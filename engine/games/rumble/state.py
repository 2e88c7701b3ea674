"""The «Схватка» game data: a plain JSON dict, typed.

Fields (all public; spell cards are slots of the hidden deck ``spells``, see
``engine.core.model``):

- the match: ``n``, ``mode``, ``fights``, ``names``, ``heroes``, ``fight``, ``round``,
  ``in_fight``, ``results`` (one record per finished fight), ``winners``;
- the wizards: ``life``, ``alive``, ``kills``, ``survivals``, ``hand`` (slots per seat),
  ``creatures``, ``treasures``, ``diseases`` (disease tokens ``kind#n``), ``ghost_next`` (ghost
  cards for the next fight), ``ghost_active`` (ghost signs of this fight);
- the round: ``spell`` (each seat's sealed spell or None), ``queue`` (the turn order), ``turn``,
  ``cast`` (the spell being cast), ``used`` (treasures used this turn);
- the piles: ``draw`` (spell deck, top first), ``discard``, ``known`` (identities of revealed
  slots, keys as strings), ``t_pile``/``t_discard``, ``ghost_pile``/``ghost_discard``, ``bag``;
- the Palace and death: ``palace``, ``palace_ghost``, ``dead_order``, ``pending_ghosts``,
  ``last_standing``;
- ``log`` (events ``{"e": kind, ...}``) and ``agenda`` (the steps to run, see ``flow``).

The runner's state holds this data as ``g`` beside ``inputs`` and ``need`` (``engine.core.runner``).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Place = Literal["source", "quality", "delivery"]
"""Where a spell card goes in a spell (its component type)."""
Mode = Literal["tournament", "two_wins"]
Via = Literal["spell", "creature", "treasure", "ghost", "disease"]
"""What an effect comes through."""
Pile = Literal["t_pile", "ghost_pile", "bag"]
"""A face-up pile drawn from blindly; its discard is its ``Refill`` (the bag has none)."""
Refill = Literal["t_discard", "ghost_discard"]
PickPhase = Literal["treasure", "ghost", "disease"]
DiseasePhase = Literal["cure", "transfer"]
"""A choice of one's own disease: to cure it or to pass it on."""
StepName = Literal[
    "fight_start", "round_start", "ghost", "draw", "assembly", "hepatitis", "order", "turn",
    "open", "wilds", "card_loop", "card", "creatures", "creature", "window", "end_turn",
    "fight_end",
]  # fmt: skip


class Step(TypedDict):
    """An agenda entry: the step's name and, for a wizard's steps, the seat (and card slot)."""

    k: StepName
    seat: NotRequired[int]
    slot: NotRequired[int]


Shown = TypedDict("Shown", {"slot": int, "card": str, "as": Place, "spent": NotRequired[bool]})
"""A sealed card shown before the spell opens (a «Нежданчик» that saved its wizard)."""


class Sealed(TypedDict):
    """A seat's sealed spell: digests of its cards and of its initiative."""

    count: int
    commit: list[str]
    init_commit: str
    init: int | None
    dropped: dict[str, int]
    """Indices (as strings) of the cards «Гепатит Ы» took out, to their slots."""
    revealed: dict[str, Shown]
    opened: bool
    forfeit: NotRequired[bool]
    hep_done: NotRequired[bool]


CastCard = TypedDict(
    "CastCard",
    {
        "slot": int,
        "card": str,
        "as": Place,
        "done": bool,
        "spent": NotRequired[bool],
        "stays": NotRequired[bool],
        "wild": NotRequired[bool],
    },
)
"""A card of the spell being cast: resolved (``done``), staying as a creature (``stays``)."""


class Cast(TypedDict):
    """The spell being cast this turn."""

    seat: int
    init: int
    cards: list[CastCard]
    name: NotRequired[str]


class Creature(TypedDict):
    """A creature card staying on the table."""

    slot: int
    card: str


class FightResult(TypedDict):
    """The record of a finished fight."""

    fight: int
    survivor: int | None
    life: list[int]
    alive: list[bool]
    death_order: list[int]
    kills: list[int]
    survivals: list[int]
    palace: int | None


class State(TypedDict):
    """The game data (``g`` of the runner's state), plain JSON."""

    n: int
    mode: Mode
    fights: int
    names: list[str]
    heroes: list[str]
    fight: int
    round: int
    in_fight: bool
    life: list[int]
    alive: list[bool]
    kills: list[int]
    survivals: list[int]
    draw: list[int]
    discard: list[int]
    known: dict[str, str]
    hand: list[list[int]]
    spell: list[Sealed | None]
    cast: Cast | None
    queue: list[int]
    turn: int | None
    used: list[str]
    creatures: list[list[Creature]]
    treasures: list[list[str]]
    t_pile: list[str]
    t_discard: list[str]
    ghost_pile: list[str]
    ghost_discard: list[str]
    ghost_next: list[list[str]]
    ghost_active: list[list[str]]
    diseases: list[list[str]]
    bag: list[str]
    palace: int | None
    palace_ghost: bool
    dead_order: list[int]
    pending_ghosts: list[int]
    last_standing: int | None
    winners: list[int] | None
    results: list[FightResult]
    log: list[dict[str, Any]]
    agenda: list[Step]


def new_state(
    n: int, mode: Mode, fights: int, names: list[str], heroes: list[str], deck: int,
    treasures: list[str], ghosts: list[str], bag: list[str],
) -> State:  # fmt: skip
    """The data before the first fight: ``deck`` spell slots undrawn, the piles face up."""
    return {
        "n": n,
        "mode": mode,
        "fights": fights,
        "names": list(names),
        "heroes": list(heroes),
        "fight": 0,
        "round": 0,
        "in_fight": False,
        "life": [20] * n,
        "alive": [True] * n,
        "kills": [0] * n,
        "survivals": [0] * n,
        "draw": list(range(deck)),
        "discard": [],
        "known": {},
        "hand": [[] for _ in range(n)],
        "spell": [None] * n,
        "cast": None,
        "queue": [],
        "turn": None,
        "used": [],
        "creatures": [[] for _ in range(n)],
        "treasures": [[] for _ in range(n)],
        "t_pile": sorted(treasures),
        "t_discard": [],
        "ghost_pile": sorted(ghosts),
        "ghost_discard": [],
        "ghost_next": [[] for _ in range(n)],
        "ghost_active": [[] for _ in range(n)],
        "diseases": [[] for _ in range(n)],
        "bag": sorted(bag),
        "palace": None,
        "palace_ghost": False,
        "dead_order": [],
        "pending_ghosts": [],
        "last_standing": None,
        "winners": None,
        "results": [],
        "log": [],
        "agenda": [{"k": "fight_start"}],
    }


def sealed(g: State, seat: int) -> Sealed:
    """The seat's sealed spell, where the flow has made sure there is one."""
    spell = g["spell"][seat]
    if spell is None:
        raise KeyError(f"место {seat} не запечатало заклинания")
    return spell
