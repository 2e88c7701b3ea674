"""The «Волшебный круг» state: a plain JSON dict, its set-up, copy and seating helpers.

Fields (all public; hidden action cards are slots, see ``engine.core.model``):

- ``n``, ``names``; ``life``, ``alive``, ``hands`` (slots per seat), ``burns`` (burn marks),
  ``shield`` and ``frozen`` (flags for the current turn);
- ``deck`` (action draw pile, top first), ``discard`` (action discard), ``known`` (identities of
  revealed action slots, keys as strings);
- ``spells`` (the public spell deck, catalog order), ``spell_discard``, ``spell`` (the flying spell:
  ``card``, ``power``, ``target``, ``prev``, ``sender``, ``step``, ``changes``) or None;
- ``totem``, ``turn``, ``played`` (an action was played this turn), ``agenda`` (the steps to run,
  see ``flow``), ``dying`` (seats out whose hands await their reveal), ``queue`` (pending draws
  ``[seat, left, drawn]``), ``winner``, ``result``, ``log``.

The runner's state holds this data as ``g`` beside ``inputs`` and ``need`` (``engine.core.runner``).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from .cards import MAX_LIFE, Catalog


class Flying(TypedDict):
    """The spell in the air."""

    card: str
    power: int
    target: int
    prev: int | None
    sender: int | None
    step: int
    moved: int
    changes: int


StepName = Literal["out", "start", "spell", "fly", "scramble", "end", "draw", "reshuffle"]


class Step(TypedDict):
    """An agenda entry (``flow.steps`` names them)."""

    k: StepName


class State(TypedDict):
    """The game data (``g`` of the runner's state), plain JSON."""

    n: int
    names: list[str]
    life: list[int]
    alive: list[bool]
    hands: list[list[int]]
    burns: list[int]
    shield: list[bool]
    frozen: list[bool]
    deck: list[int]
    discard: list[int]
    known: dict[str, str]
    spells: list[str]
    spell_discard: list[str]
    spell: Flying | None
    totem: int
    turn: int
    played: bool
    agenda: list[Step]
    dying: list[int]
    queue: list[list[int]]
    winner: int | None
    result: Literal["winner", "nobody"] | None
    log: list[dict[str, Any]]


HAND_START = 5
LOG_KEEP = 40


def new_state(cat: Catalog, n: int, names: list[str], first: int) -> State:
    """The table before the first turn: five cards dealt to each seat, the totem at ``first``."""
    deck = list(range(len(cat.action_deck())))
    hands = [deck[s * HAND_START : (s + 1) * HAND_START] for s in range(n)]
    return {
        "n": n,
        "names": list(names),
        "life": [MAX_LIFE] * n,
        "alive": [True] * n,
        "hands": hands,
        "burns": [0] * n,
        "shield": [False] * n,
        "frozen": [False] * n,
        "deck": deck[n * HAND_START :],
        "discard": [],
        "known": {},
        "spells": cat.spell_deck(),
        "spell_discard": [],
        "spell": None,
        "totem": first,
        "turn": 1,
        "played": False,
        "agenda": [{"k": "start"}],
        "dying": [],
        "queue": [],
        "winner": None,
        "result": None,
        "log": [],
    }


def clone(g: State) -> State:
    """A copy deep enough for one step: every list and dict the flow may change is new."""
    out = g.copy()
    out["life"] = list(g["life"])
    out["alive"] = list(g["alive"])
    out["burns"] = list(g["burns"])
    out["shield"] = list(g["shield"])
    out["frozen"] = list(g["frozen"])
    out["deck"] = list(g["deck"])
    out["discard"] = list(g["discard"])
    out["spells"] = list(g["spells"])
    out["spell_discard"] = list(g["spell_discard"])
    out["dying"] = list(g["dying"])
    out["hands"] = [list(h) for h in g["hands"]]
    out["known"] = dict(g["known"])
    out["queue"] = [list(q) for q in g["queue"]]
    out["spell"] = None if g["spell"] is None else g["spell"].copy()
    out["log"] = list(g["log"])
    out["agenda"] = list(g["agenda"])
    return out


def living(g: State) -> list[int]:
    """Seats still in the game, in seat order."""
    return [s for s in range(g["n"]) if g["alive"][s]]


def neighbour(g: State, seat: int, direction: int) -> int:
    """The nearest living seat from ``seat`` in ``direction`` (+1 left, −1 right); may be seat."""
    n: int = g["n"]
    for k in range(1, n + 1):
        other = (seat + direction * k) % n
        if g["alive"][other]:
            return other
    return seat


def left_of(g: State, seat: int) -> int:
    """The nearest living seat to the left (seat + 1 direction, where the totem goes)."""
    return neighbour(g, seat, 1)


def right_of(g: State, seat: int) -> int:
    """The nearest living seat to the right (seat − 1 direction)."""
    return neighbour(g, seat, -1)


def log(g: State, event: dict[str, Any]) -> None:
    """Append an event to the short public log (the oldest fall off)."""
    g["log"].append({"turn": g["turn"], **event})
    if len(g["log"]) > LOG_KEEP:
        del g["log"][: len(g["log"]) - LOG_KEEP]
