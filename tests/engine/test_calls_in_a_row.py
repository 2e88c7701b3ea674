"""Simultaneous calls of one phase in a row start a new round at the table, whichever seats the
next call waits on: the seat that just moved again, or only others (which the table once took
for the rest of the old call, so a seat that had answered it never answered the new one).

«Переклички» is a game of nothing but such calls: every seat answers call 0; each later call waits
on every seat but the one that answered the last call last (odd calls) or on that seat alone
(even calls). The clock never moves, so no timer can hide a stall.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core.game import State, StepRules
from engine.core.model import JSON, Action, Knowledge
from engine.core.runner import Ask, Ctx, Runner
from engine.core.shapes import Move, Shapes
from engine.protocol.players import Player, RandomBot
from tests.engine.harness import make_table

CALLS = 6


def call(g: dict[str, Any], ctx: Ctx, step: dict[str, Any]) -> Ask[None]:
    """One answer to the current call; the last answer opens the next call."""
    action = yield from ctx.ask({"kind": "simultaneous", "phase": "call", "seats": g["waiting"]})
    seat = action["seat"]
    g["waiting"] = [s for s in g["waiting"] if s != seat]
    g["answers"].append([g["call"], seat])
    if not g["waiting"]:
        g["call"] += 1
        if g["call"] == CALLS:
            return
        others = [s for s in range(g["n"]) if s != seat]
        g["waiting"] = others if g["call"] % 2 else [seat]
    g["agenda"].insert(0, {"k": "call"})


class Calls(StepRules):
    """The rules of «Переклички» (flat state: the game data beside the runner's fields)."""

    game_id = "calls"
    shapes: ClassVar[Shapes] = {"call": {"answer": Move()}}

    def __init__(self) -> None:
        self.runner = Runner({"call": call}, flat=True)

    def new_game(self, config: Mapping[str, JSON]) -> State:
        n = int(config.get("seats", 3))
        agenda: list[dict[str, Any]] = [{"k": "call"}]
        data = {"n": n, "call": 0, "waiting": list(range(n)), "answers": [], "agenda": agenda}
        return self.runner.start(data)

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge) -> list[Action]:
        if seat not in self.decision(state).seats:
            return []
        return [{"type": "answer", "seat": seat}]

    def view(self, state: State, knowledge: Knowledge) -> JSON:
        return {"answers": self.data(state)["answers"]}


async def test_every_call_in_a_row_is_answered_through_the_table() -> None:
    seats = 3
    players: dict[int, Player] = {s: RandomBot(s) for s in range(seats)}
    h = await make_table(seats, rules=Calls(), players=players)
    await h.peers[0].start({"seats": seats}, timer=30)
    await h.bus.settle()
    try:
        assert all(peer.errors == [] for peer in h.peers), [p.errors for p in h.peers]
        for peer in h.peers:
            state = peer.table.state
            assert state["need"]["kind"] == "terminal", (state["need"], state["answers"])
            answers = state["answers"]
            assert [c for c, _ in answers].count(0) == seats
            assert {c for c, _ in answers} == set(range(CALLS))
            assert len(answers) == seats + sum(seats - 1 if c % 2 else 1 for c in range(1, CALLS))
    finally:
        await h.bus.close()
