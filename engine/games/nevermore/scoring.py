"""Health, victory points, raven form, majorities and the three ways to win."""

from __future__ import annotations

from typing import Any

from .table import G, humans, log


def majority(counts: list[int]) -> tuple[list[int], int, int]:
    """Seats with the highest positive count, that count, and the second-highest count below it.

    The effect of a majority is ``top - second``; every tied seat scores it in full.
    """
    top = max(counts, default=0)
    if top <= 0:
        return [], 0, 0
    leaders = [s for s, c in enumerate(counts) if c == top]
    second = max((c for c in counts if c < top), default=0)
    return leaders, top, second


def gain_health(g: G, seat: int, amount: int) -> int:
    """Heal a human up to the maximum (not while healing is forbidden); returns the gain."""
    if amount <= 0 or g["raven"][seat] or g["fx"]["no_heal"]:
        return 0
    before = g["hp"][seat]
    g["hp"][seat] = min(g["max_hp"], before + amount)
    gained = int(g["hp"][seat] - before)
    if gained:
        log(g, "heal", seat=seat, amount=gained, hp=g["hp"][seat])
    return gained


def gain_vp(g: G, seat: int, amount: int, why: str = "", **more: Any) -> None:
    """Add (or with a negative amount remove, not below zero) victory points; ``why`` is a
    reason code (a magic card's id or a scoring rule), ``more`` what it needs (``of``: the seat
    turned into a raven)."""
    if amount == 0:
        return
    g["vp"][seat] = max(0, g["vp"][seat] + amount)
    log(g, "vp", seat=seat, amount=amount, why=why, total=g["vp"][seat], **more)


def damage(g: G, seat: int, amount: int, source: int | None, why: str = "") -> bool:
    """Deal damage to a human (``why``: a reason code); returns True if it turned them into a
    raven.

    The player who caused the transformation (not oneself) gains 1 VP.
    """
    if amount <= 0 or g["raven"][seat]:
        return False
    g["hp"][seat] -= amount
    log(g, "damage", seat=seat, amount=amount, why=why, hp=max(0, g["hp"][seat]))
    if g["hp"][seat] > 0:
        return False
    to_raven(g, seat)
    if source is not None and source != seat:
        gain_vp(g, source, 1, "raven_made", of=seat)
    return True


def to_raven(g: G, seat: int) -> None:
    g["hp"][seat] = 0
    g["raven"][seat] = True
    log(g, "raven", seat=seat)


def to_human(g: G, seat: int) -> None:
    """Back to human form with the revival health (4 for 3–4 players, 3 for 5–6)."""
    g["raven"][seat] = False
    g["hp"][seat] = g["revive_hp"]
    log(g, "human", seat=seat, hp=g["hp"][seat])


def check_win(g: G) -> None:
    """Ways one and two: 6 VP in human form (most VP, then health), or the last human standing."""
    if g["over"] or g.get("hold_win"):
        return
    alive = humans(g)
    rich = [s for s in alive if g["vp"][s] >= 6]
    if rich:
        best = max((g["vp"][s], g["hp"][s]) for s in rich)
        top = [s for s in rich if (g["vp"][s], g["hp"][s]) == best]
        if len(top) == 1:
            finish(g, top[0], "win_vp", seat=top[0], vp=g["vp"][top[0]])
            return
    if len(alive) == 1 and g["n"] > 1:
        finish(g, alive[0], "win_last", seat=alive[0])


def finish(g: G, winner: int | None, kind: str, **args: Any) -> None:
    """The game ends: ``winner`` (or nobody), and the event that says how (also the result)."""
    g["winner"] = winner
    g["over"] = True
    log(g, kind, **args)
    g["result"] = dict(g["log"][-1])
