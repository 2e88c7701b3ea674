"""The shared part of a «Схватка» view (``engine.core.view_schema``): seats, turn, prompt, piles."""

from __future__ import annotations

from typing import Any

from engine.core import view_schema as vs

from .state import State


def discard_top(g: State) -> str | None:
    """The latest card in the discard whose face is public."""
    return next((g["known"][str(s)] for s in reversed(g["discard"]) if str(s) in g["known"]), None)


def table(g: State, need: dict[str, Any], viewer: int | None) -> vs.TableView:
    """Life and medals per wizard, the turn, the prompt and the five piles."""
    winners = g["winners"] or []
    seats: list[vs.SeatView] = []
    for s in range(g["n"]):
        marks: list[vs.Mark] = []
        if g["turn"] == s:
            marks.append("turn")
        if g["palace"] == s:
            marks.append("palace")
        if s in winners:
            marks.append("winner")
        life, score = g["life"][s], g["kills"][s] + g["survivals"][s]
        out = not g["alive"][s]
        name, hand = g["names"][s], len(g["hand"][s])
        seats.append(vs.seat(s, name, hand, out=out, life=life, score=score, marks=marks))
    return {
        "seats": seats,
        "turn": g["turn"],
        "prompt": vs.prompt(need, viewer),
        "piles": [
            vs.pile("deck", len(g["draw"])),
            vs.pile("discard", len(g["discard"]), discard_top(g)),
            vs.pile("treasures", len(g["t_pile"])),
            vs.pile("ghosts", len(g["ghost_pile"])),
            vs.pile("diseases", len(g["bag"])),
        ],
        "over": need["kind"] == "terminal",
        "winners": list(winners),
    }
