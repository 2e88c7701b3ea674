"""The «Проба» game data: a plain JSON dict, typed, and its set-up.

The data is flat: the runner keeps its ``inputs`` and ``need`` beside these fields
(``Runner(flat=True)``). ``phase`` names where the game stands, ``acted`` who has answered the
current simultaneous call; the fields of the recycled deck are there only with
``{"reshuffle": true}`` in the config.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

Phase = Literal[
    "seal", "pass", "open", "die", "reveal", "draw", "recycle", "reseal", "reopen", "reveal2",
    "bid", "over",
]  # fmt: skip
CallPhase = Literal["seal", "pass", "open", "reseal", "reopen"]
"""The phases every seat answers once, in any order."""
StepName = Literal[
    "seal", "pass", "open", "die", "reveal", "draw", "recycle", "reseal", "reopen", "reveal2",
    "bid",
]  # fmt: skip
Card = Literal["ember", "frost", "gale", "thorn", "void"]
Token = Literal["coin", "gem", "crown"]

HAND = 2


class Step(TypedDict):
    """An agenda entry."""

    k: StepName


class State(TypedDict):
    """The game data, plain JSON."""

    seats: int
    phase: Phase
    hands: list[list[int]]
    next_slot: int
    commits: list[int]
    sealed: list[int | None]
    """Each seat's sealed commitment (its index), or None."""
    acted: list[bool]
    passes: list[int | None]
    opened: list[Card | None]
    revealed: dict[str, Card]
    die: int | None
    top: Card | None
    bag: list[Token]
    token: Token | None
    bids: list[int | None]
    turn: int
    agenda: list[Step]
    reshuffle: NotRequired[bool]
    recycle: NotRequired[list[list[int]]]
    recycled: NotRequired[list[int]]
    redealt: NotRequired[list[int | None]]
    resealed: NotRequired[list[bool]]
    opened2: NotRequired[list[Card | None]]
    top2_slot: NotRequired[int | None]
    top2: NotRequired[Card | None]


FIRST: tuple[StepName, ...] = ("seal", "pass", "open", "die", "reveal", "draw", "bid")


def new_state(seats: int, tokens: list[Token], reshuffle: bool) -> State:
    """Hands of two slots each; the rest of the deck stays undealt."""
    g: State = {
        "seats": seats,
        "phase": "seal",
        "hands": [[HAND * s + i for i in range(HAND)] for s in range(seats)],
        "next_slot": HAND * seats,
        "commits": [0] * seats,
        "sealed": [None] * seats,
        "acted": [False] * seats,
        "passes": [None] * seats,
        "opened": [None] * seats,
        "revealed": {},
        "die": None,
        "top": None,
        "bag": list(tokens),
        "token": None,
        "bids": [None] * seats,
        "turn": 0,
        "agenda": [],
    }
    if reshuffle:
        g["reshuffle"] = True
        g["recycle"] = []
        g["recycled"] = []
        g["redealt"] = [None] * seats
        g["resealed"] = [False] * seats
        g["opened2"] = [None] * seats
        g["top2_slot"] = None
        g["top2"] = None
    g["agenda"] = [{"k": k} for k in FIRST]
    return g
