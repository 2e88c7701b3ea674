"""A run of random events with nothing between them (a spell's several dice, a queue's ties)
takes every value from one set of preimages: one roll of the seats' chains, one entry, and draw j
of the run hashes the event and j. Every peer derives the same values from the log."""

from __future__ import annotations

from typing import Any

from engine.fairness.randomness import joint_value
from engine.games.rumble import RumbleRules
from engine.protocol.table import Table
from tests.engine.attacks.common import digests
from tests.engine.harness import make_table


async def test_a_run_of_dice_takes_one_set_of_preimages(monkeypatch: Any) -> None:
    # (event, value, range) of every chance the host's table applied
    draws: list[tuple[int, int, int]] = []
    apply = Table._apply_table_action

    def counted(self: Table, action: dict[str, Any]) -> Any:
        if action.get("type") == "chance" and self is host_table[0]:
            size = self.rules.decision(self.state).chance_range
            draws.append((self.chance_event, action["value"], size))
        return apply(self, action)

    host_table: list[Table] = []
    monkeypatch.setattr(Table, "_apply_table_action", counted)
    h = await make_table(4, rules=RumbleRules())
    host_table.append(h.peers[0].table)
    await h.peers[0].start({"seats": 4, "fights": 1}, timer=30)
    await h.settle()
    table = h.peers[0].table
    assert table.stage == "done"
    assert len(digests(h)) == 1
    events = [e for e in table.log if e["msg"]["body"]["t"] == "preimages"]
    assert len(events) == table.chance_event
    assert len(draws) > len(events) + 5, "some runs had several draws"
    # Rebuild every draw from the logged preimages: the first of a run as one event always did,
    # the later ones with the draw's place in the run.
    for entry in events:
        event = entry["msg"]["body"]["event"]
        values = entry["msg"]["body"]["values"]
        run = [(value, size) for at, value, size in draws if at == event]
        assert run, event
        preimages = [bytes.fromhex(values[str(s)]) for s in range(4)]
        for j, (value, size) in enumerate(run):
            label = ("chance", "room-1", "game-1", event, *((j,) if j else ()))
            assert value == joint_value(label, preimages, size), (event, j)
    await h.bus.close()
