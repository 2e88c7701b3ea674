"""The «Невермор» game data: a plain JSON dict, typed, and its set-up (``new_state``).

The state is one dict (``State``); ``agenda`` holds the tasks still to run (``Task``), ``need``
the input the current task waits for (``Need``), ``fx`` the effects lasting one round
(``Effects``), ``attack`` the damage event being dealt (``Hit``), ``log`` the events.
Hidden cards are slots of the four hidden decks of ``deck_layout``; each pile keeps its draw order
as a list of slots (``Pile``). A few fields are there only for a while (``NotRequired``).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, Required, TypedDict

from .cards import MAGIC_SIZE, MAIN_SIZE

PileName = Literal["main", "light", "shadow", "tokens"]
Suit = Literal["attack", "healing", "radiance", "victory", "raven"]
"""The suits of the main deck."""
Token = Literal["attack", "healing", "radiance", "victory"]
"""The resolution tokens (a suit each, the raven has none)."""
Zone = Literal["hand", "magic", "extra", "placed", "shown", "killed", "look"]
NeedKind = Literal["move", "simultaneous", "chance", "reveal", "reshuffle", "terminal"]
Window = Literal[
    "before_draft", "draft_pass", "before_resolution", "before_token", "end_resolution",
    "attacked", "light_played", "rescue", "damaged",
]  # fmt: skip
"""The windows in which magic cards are played (the last four open inside another step)."""

ZONES: tuple[Zone, ...] = ("hand", "magic", "extra", "placed", "shown", "killed", "look")
TOKENS: tuple[Token, ...] = ("attack", "healing", "radiance", "victory")
FIRST_PLAN: list[Token] = list(TOKENS)
"""The tokens' order in the very first round (face up)."""


def as_token(value: object) -> Token:
    """``value`` as a resolution token: a revealed token slot, or a token a move names, both
    checked against the tokens already; anything else is an engine fault."""
    for token in TOKENS:
        if value == token:
            return token
    raise KeyError(f"{value!r} is not a resolution token")


class Pile(TypedDict):
    """A hidden deck: its first slot, its size, the slots still to draw (from the front) and how
    many times it was re-shuffled."""

    base: int
    size: int
    draw: list[int]
    shuffles: int


class Effects(TypedDict):
    """Effects lasting one round (``magic``: each card declares which of them it sets)."""

    no_heal: bool
    no_attack: bool
    punish: bool
    punish_raven: bool
    darkening: list[int]
    banned: list[Suit]
    betray: bool | None
    """Set by «Предательство»: the next token called is betrayed."""
    foretell: list[list[Any]]
    """``[seat, suit, raven]`` for every foretelling."""
    passive: list[list[Any]]
    """``[seat, card]`` for every card kept in the hand for its passive effect."""
    freeze: bool
    gambit: bool


class Hit(TypedDict):
    """A damage event being dealt (an attack, or damage from a card or the flock)."""

    attacker: int | None
    targets: list[int]
    amounts: list[int]
    amount: int
    why: str
    """The reason's label (``table.REASONS``)."""
    is_attack: bool
    all: bool
    bolster: list[int]
    retribution: list[int]
    blooding: list[list[int]]
    """``[seat, target]`` for every «Кровотечение»."""


Task = TypedDict(
    "Task",
    {
        "k": Required[str],
        "w": Window,
        "order": list[int],
        "i": int,
        "seat": int,
        "slot": int,
        "slots": list[int],
        "card": str,
        "raven": bool,
        "radiance": bool,
        "count": int,
        "amount": int,
        "second": int,
        "counts": list[int],
        "size": int,
        "pile": PileName,
        "suit": str,
        "stolen": bool,
        "hits": list[list[int]],
        "source": int | None,
        "target": int,
        "to": int,
        "from": int,
        "why": str,
        "total": int,
        "extra": int,
    },
    total=False,
)
"""An agenda entry: ``k`` names its handler (``t_<k>``); the other fields are its own."""


class Need(TypedDict):
    """The input the current task waits for (the runner maps it to the table's decision);
    ``what`` names the handler the answer goes on in, ``ctx`` what it needs."""

    kind: NeedKind
    phase: str
    seats: list[int]
    what: NotRequired[str]
    ctx: NotRequired[dict[str, Any]]
    options: NotRequired[list[dict[str, Any]]]
    private: NotRequired[str]
    range: NotRequired[int]
    slots: NotRequired[list[int]]
    deck: NotRequired[PileName]
    got: NotRequired[dict[str, Any]]
    w: NotRequired[Window]


class RoundData(TypedDict):
    """Per-round bookkeeping of the resolution."""

    through: list[int]
    plan: list[Token]
    pool: list[Token]
    revealed: list[Token]
    scry: int | None
    items: list[list[int]]
    opened: list[list[int]]
    doom: list[list[bool]]
    extra_used: list[int]
    collected: list[list[str]]
    skulk: list[int]
    sealed: list[bool]
    flock: list[int]
    got: dict[str, Any]


class Game(TypedDict):
    """The game data that lasts the whole game."""

    n: int
    names: list[str]
    max_hp: int
    revive_hp: int
    max_rounds: int
    total_slots: int
    hp: list[int]
    vp: list[int]
    raven: list[bool]
    piles: dict[PileName, Pile]
    known: dict[str, str]
    """The public identity of every revealed slot (by its number as a string)."""
    discard: list[int]
    round: int
    dealer: int | None
    drawer: int
    dir: int
    fx: Effects
    entombed: int
    peek: list[list[int]]
    first_plan: list[Token]
    betrayed: bool
    pass_sealed: dict[str, Any]
    winner: int | None
    over: bool
    result: Any
    """``""`` while the game goes on, then the event that ended it."""
    log: list[dict[str, Any]]
    need: Need | None
    agenda: list[Task]
    hand: list[list[int]]
    magic: list[list[int]]
    extra: list[list[int]]
    placed: list[list[int]]
    shown: list[list[int]]
    killed: list[list[int]]
    look: list[list[int]]
    attack: NotRequired[Hit]
    outer_hits: NotRequired[list[Hit]]
    """Damage events opened before the current one, still to finish."""
    rescue: NotRequired[int]
    rescue_hp: NotRequired[int]
    cancel: NotRequired[bool]
    hold_win: NotRequired[bool]
    preset: NotRequired[bool]
    """A scenario's later round comes with the deck and the token order arranged."""


class State(Game, RoundData):
    """The game data, plain JSON."""


def deck_layout() -> list[tuple[PileName, int]]:
    """``(deck name, size)`` for every hidden deck, in slot order; ``tokens`` holds the four
    resolution tokens, laid face down in a secret order every round after the first."""
    return [("main", MAIN_SIZE), ("light", MAGIC_SIZE), ("shadow", MAGIC_SIZE), ("tokens", 4)]


def fresh_effects() -> Effects:
    """Effects lasting one round."""
    return {
        "no_heal": False,
        "no_attack": False,
        "punish": False,
        "punish_raven": False,
        "darkening": [],
        "banned": [],
        "betray": None,
        "foretell": [],
        "passive": [],
        "freeze": False,
        "gambit": False,
    }


def fresh_round(n: int) -> RoundData:
    """Per-round bookkeeping of the resolution."""
    return {
        "through": [],
        "plan": [],
        "pool": list(FIRST_PLAN),
        "revealed": [],
        "scry": None,
        "items": [[] for _ in range(n)],
        "opened": [[] for _ in range(n)],
        "doom": [[] for _ in range(n)],
        "extra_used": [0] * n,
        "collected": [[] for _ in range(n)],
        "skulk": [0] * n,
        "sealed": [False] * n,
        "flock": [],
        "got": {},
    }


def new_state(n: int, names: list[str], max_rounds: int) -> State:
    """A game before the first dealer is found (shadow cards not dealt yet)."""
    piles: dict[PileName, Pile] = {}
    base = 0
    for pile, size in deck_layout():
        piles[pile] = {
            "base": base,
            "size": size,
            "draw": list(range(base, base + size)),
            "shuffles": 0,
        }
        base += size
    small = n <= 4
    game: Game = {
        "n": n,
        "names": names,
        "max_hp": 5 if small else 4,
        "revive_hp": 4 if small else 3,
        "max_rounds": max_rounds,
        "total_slots": base,
        "hp": [5 if small else 4] * n,
        "vp": [0] * n,
        "raven": [False] * n,
        "piles": piles,
        "known": {},
        "discard": [],
        "round": 0,
        "dealer": None,
        "drawer": 0,
        "dir": 1,
        "fx": fresh_effects(),
        "entombed": -1,
        "peek": [[] for _ in range(n)],
        "first_plan": list(FIRST_PLAN),
        "betrayed": False,
        "pass_sealed": {},
        "winner": None,
        "over": False,
        "result": "",
        "log": [],
        "need": None,
        "agenda": [],
        "hand": [[] for _ in range(n)],
        "magic": [[] for _ in range(n)],
        "extra": [[] for _ in range(n)],
        "placed": [[] for _ in range(n)],
        "shown": [[] for _ in range(n)],
        "killed": [[] for _ in range(n)],
        "look": [[] for _ in range(n)],
    }
    return {**game, **fresh_round(n)}


def new_round(g: State) -> None:
    """The resolution's bookkeeping afresh for the next round."""
    r = fresh_round(g["n"])
    g["through"] = r["through"]
    g["plan"] = r["plan"]
    g["pool"] = r["pool"]
    g["revealed"] = r["revealed"]
    g["scry"] = r["scry"]
    g["items"] = r["items"]
    g["opened"] = r["opened"]
    g["doom"] = r["doom"]
    g["extra_used"] = r["extra_used"]
    g["collected"] = r["collected"]
    g["skulk"] = r["skulk"]
    g["sealed"] = r["sealed"]
    g["flock"] = r["flock"]
    g["got"] = r["got"]
