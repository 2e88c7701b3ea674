"""What one seat (or a spectator) sees of «Волшебный круг»: a JSON view for the page."""

from __future__ import annotations

from typing import Any

from engine.core import view_schema as vs
from engine.core.model import Action, Knowledge

from .cards import Catalog
from .state import Flying, State

LOG_SHOWN = 16


def spell_view(cat: Catalog, spell: Flying | None) -> dict[str, Any] | None:
    """The flying spell with its card's words."""
    if spell is None:
        return None
    card = cat.spells[spell["card"]]
    kw = card["keyword"]
    return {
        "card": spell["card"],
        "name": card["name"],
        "power": spell["power"],
        "base_power": card["power"],
        "keyword": kw,
        "keyword_name": None if kw is None else cat.keywords[kw]["name"],
        "keyword_text": None if kw is None else cat.keywords[kw]["text"],
        "target": spell["target"],
        "previous": spell["prev"],
        "sender": spell["sender"],
        "step": spell["step"],
        "moved": spell.get("moved", 0),
        "changes": spell["changes"],
    }


def table(g: State, need: dict[str, Any], viewer: int | None) -> vs.TableView:
    """The shared part: life and the turn's marks per seat, the totem's turn, the four piles."""
    seats: list[vs.SeatView] = []
    for s in range(g["n"]):
        marks: list[vs.Mark] = []
        if g["totem"] == s:
            marks.append("totem")
        if g["shield"][s]:
            marks.append("shield")
        if g["frozen"][s]:
            marks.append("frozen")
        if g["winner"] == s:
            marks.append("winner")
        hand, out = len(g["hands"][s]), not g["alive"][s]
        seats.append(vs.seat(s, g["names"][s], hand, out=out, life=g["life"][s], marks=marks))
    discard_top = g["known"].get(str(g["discard"][-1])) if g["discard"] else None
    spell_top = g["spell_discard"][-1] if g["spell_discard"] else None
    over = need["kind"] == "terminal"
    return {
        "seats": seats,
        "turn": None if over else g["totem"],
        "prompt": vs.prompt(need, viewer),
        "piles": [
            vs.pile("spells", len(g["spells"])),
            vs.pile("spell_discard", len(g["spell_discard"]), spell_top),
            vs.pile("actions", len(g["deck"])),
            vs.pile("action_discard", len(g["discard"]), discard_top),
        ],
        "over": over,
        "winners": [] if g["winner"] is None else [g["winner"]],
    }


def build_view(
    cat: Catalog, g: State, need: dict[str, Any], knowledge: Knowledge, legal: list[Action]
) -> dict[str, Any]:
    """Public table, the flying spell, the recent log; the seat's own hand and legal moves."""
    seats = [
        {
            "seat": s,
            "name": g["names"][s],
            "life": g["life"][s],
            "alive": g["alive"][s],
            "hand": len(g["hands"][s]),
            "totem": g["totem"] == s,
            "burns": g["burns"][s],
            "shield": g["shield"][s],
            "frozen": g["frozen"][s],
        }
        for s in range(g["n"])
    ]
    seat = knowledge.seat
    hand: list[dict[str, Any]] = []
    if seat is not None and 0 <= seat < g["n"]:
        for slot in g["hands"][seat]:
            cid = knowledge.cards.get(slot)
            card = cat.actions.get(cid) if cid else None
            hand.append(
                {
                    "slot": slot,
                    "card": cid,
                    "name": None if card is None else card["name"],
                    "direction": None if card is None else card.get("direction"),
                    "text": None if card is None else card["text"],
                }
            )
    discard_top = g["known"].get(str(g["discard"][-1])) if g["discard"] else None
    return {
        "game": "circle",
        "seat": seat,
        "turn": g["turn"],
        "phase": need.get("phase", "over" if need["kind"] == "terminal" else ""),
        "waiting": need["kind"],
        "racing": list(need.get("seats", [])),
        "seats": seats,
        "totem": g["totem"],
        "spell": spell_view(cat, g["spell"]),
        "piles": {
            "spells": len(g["spells"]),
            "spell_discard": len(g["spell_discard"]),
            "actions": len(g["deck"]),
            "action_discard": len(g["discard"]),
        },
        "spell_discard_top": g["spell_discard"][-1] if g["spell_discard"] else None,
        "action_discard_top": discard_top,
        "log": [dict(e) for e in g["log"][-LOG_SHOWN:]],
        "hand": hand,
        "legal": legal,
        "winner": g["winner"],
        "result": g["result"],
        "over": need["kind"] == "terminal",
        vs.KEY: table(g, need, seat),
    }
