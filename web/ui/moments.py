"""What just happened at the table, read from two successive views of one seat (pure Python).

The page's effects (``web.ui.fx``) and sounds (``web.ui.sound``) play these moments; they are
derived only from what the seat may see, after the state changed, so an effect can never delay
or change the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Moment:
    """One thing to show: ``kind`` (hit, heal, death, reveal, palace, dice, fly, dispel, pass,
    called, raven, human, vp, absorb), the seat it happens at, a number and words."""

    kind: str
    seat: int | None = None
    amount: int = 0
    words: str = ""
    cards: tuple[str, ...] = ()
    origin: int | None = None


def moments(game: str, before: dict[str, Any] | None, after: dict[str, Any]) -> list[Moment]:
    """The moments between two views of the same game (none for the first view)."""
    if not before or before.get("game", game) != after.get("game", game):
        return []
    if game == "rumble":
        return rumble(before, after)
    if game == "circle":
        return circle(before, after)
    if game == "nevermore":
        return nevermore(before, after)
    return []


def _by_seat(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(s["seat"]): s for s in view.get("seats", [])}


def rumble(before: dict[str, Any], after: dict[str, Any]) -> list[Moment]:
    """Reveals, hits, heals, creatures absorbing, deaths and the Palace changing hands."""
    out: list[Moment] = []
    old, new = _by_seat(before), _by_seat(after)
    new_fight = before.get("fight") != after.get("fight")
    cast = after.get("cast") or before.get("cast") or {}
    caster = cast.get("seat") if isinstance(cast, dict) else None
    for seat, now in new.items():
        was = old.get(seat)
        if was is None:
            continue
        if now.get("spell_name") and now.get("spell_name") != was.get("spell_name"):
            cards = tuple(str(c) for c in now.get("spell") or [] if c)  # only opened cards
            out.append(Moment("reveal", seat, words=str(now["spell_name"]), cards=cards))
        if new_fight:
            continue
        change = int(now.get("life", 0)) - int(was.get("life", 0))
        if change < 0:
            out.append(Moment("hit", seat, -change, origin=caster))
        elif change > 0:
            out.append(Moment("heal", seat, change, origin=caster))
        if len(now.get("creatures") or []) < len(was.get("creatures") or []) and change == 0:
            out.append(Moment("absorb", seat))
        if was.get("alive") and not now.get("alive"):
            out.append(Moment("death", seat))
    if after.get("palace") != before.get("palace") and after.get("palace") is not None:
        out.append(Moment("palace", int(after["palace"]), origin=before.get("palace")))
    return out


def circle(before: dict[str, Any], after: dict[str, Any]) -> list[Moment]:
    """The spell flying seat to seat, its power changing, a dispel, hits and knock-outs."""
    out: list[Moment] = []
    was, now = before.get("spell"), after.get("spell")
    if now is not None and (was is None or was.get("step") != now.get("step")):
        origin = now.get("previous")
        out.append(
            Moment(
                "fly",
                int(now["target"]),
                int(now.get("power", 0)),
                str(now.get("name", "")),
                (str(now.get("card", "")),),
                None if origin is None else int(origin),
            )
        )
        same = was is not None and was.get("card") == now.get("card")
        if same and int(now.get("power", 0)) != int(was.get("power", 0)):  # type: ignore[union-attr]
            change = int(now["power"]) - int(was["power"])  # type: ignore[index]
            out.append(Moment("power", int(now["target"]), change))
    old, new = _by_seat(before), _by_seat(after)
    hit = False
    for seat, info in new.items():
        prev = old.get(seat)
        if prev is None:
            continue
        change = int(info.get("life", 0)) - int(prev.get("life", 0))
        if change < 0:
            hit = True
            out.append(Moment("hit", seat, -change))
        elif change > 0:
            out.append(Moment("heal", seat, change))
        if prev.get("alive") and not info.get("alive"):
            out.append(Moment("death", seat))
    if was is not None and now is None and not hit:
        out.append(Moment("dispel", int(was.get("target", 0))))
    return out


def nevermore(before: dict[str, Any], after: dict[str, Any]) -> list[Moment]:
    """Cards passed in the draft, the called suit, damage, VP, and the raven transformation."""
    out: list[Moment] = []
    me_before, me_after = before.get("me") or {}, after.get("me") or {}
    if (
        len(me_after.get("hand") or {})
        and set(me_after.get("hand") or {}) - set(me_before.get("hand") or {})
        and before.get("round") == after.get("round")
    ):
        seat = me_after.get("seat")
        count = len(after.get("names") or []) or 1
        step = -1 if after.get("direction", "left") == "left" else 1  # who passed to this seat
        origin = None if seat is None else (int(seat) + step) % count
        out.append(Moment("pass", seat, origin=origin))
    revealed = list(after.get("tokens_revealed") or [])
    if len(revealed) > len(before.get("tokens_revealed") or []):
        out.append(Moment("called", words=str(revealed[-1])))
    for seat in range(len(after.get("names") or [])):
        try:
            hp_change = int(after["health"][seat]) - int(before["health"][seat])
            vp_change = int(after["vp"][seat]) - int(before["vp"][seat])
            was_raven, is_raven = bool(before["raven"][seat]), bool(after["raven"][seat])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if hp_change < 0:
            out.append(Moment("hit", seat, -hp_change))
        elif hp_change > 0:
            out.append(Moment("heal", seat, hp_change))
        if vp_change > 0:
            out.append(Moment("vp", seat, vp_change))
        if is_raven and not was_raven:
            out.append(Moment("raven", seat))
        elif was_raven and not is_raven:
            out.append(Moment("human", seat))
    return out
