"""Two simultaneous calls of one phase in a row are two rounds: every seat answers both."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.core.model import JSON, Action, Decision, IllegalAction, Kind, Knowledge, Rules
from engine.protocol.players import RandomBot
from tests.engine.harness import make_table

CALLS = 3


class CallsRules(Rules[dict[str, Any]]):
    """Every seat says a number, ``CALLS`` times in a row, in the one phase ``call``."""

    game_id = "calls"

    def new_game(self, config: Mapping[str, JSON]) -> dict[str, Any]:
        seats = int(config.get("seats", 3))
        return {"seats": seats, "call": 0, "waiting": list(range(seats)), "said": []}

    def decision(self, state: dict[str, Any]) -> Decision:
        if state["call"] == CALLS:
            return Decision(Kind.TERMINAL)
        return Decision(Kind.SIMULTANEOUS, seats=tuple(state["waiting"]), phase="call")

    def legal_actions(self, state: dict[str, Any], seat: int, knowledge: Knowledge) -> list[Action]:
        if seat not in state["waiting"]:
            return []
        return [{"type": "say", "seat": seat, "n": n} for n in (1, 2)]

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        seat = action.get("seat")
        if action.get("type") != "say" or seat not in state["waiting"]:
            raise IllegalAction("not now")
        new = copy.deepcopy(state)
        new["waiting"].remove(seat)
        new["said"].append([new["call"], seat, action["n"]])
        if not new["waiting"]:
            new["call"] += 1
            new["waiting"] = list(range(new["seats"]))
        return new

    def view(self, state: dict[str, Any], knowledge: Knowledge) -> JSON:
        return state

    def to_json(self, state: dict[str, Any]) -> JSON:
        return state


async def test_the_same_simultaneous_phase_twice_in_a_row_is_answered_twice() -> None:
    h = await make_table(3, rules=CallsRules(), players={i: RandomBot(i) for i in range(3)})
    await h.peers[0].start({"seats": 3}, timer=30)
    await h.settle()
    state = h.peers[0].table.state
    assert state["call"] == CALLS, state
    assert sorted((c, s) for c, s, _ in state["said"]) == [
        (c, s) for c in range(CALLS) for s in range(3)
    ]
    await h.advance(1.0)
    assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    await h.bus.close()
