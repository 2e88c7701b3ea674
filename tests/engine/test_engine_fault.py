"""When the rules themselves fail (``EngineError``), the table halts alike on every peer, says it
was the engine and where, and blames nobody: neither the mover nor the host."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.model import Action, EngineError
from engine.games.toy import ToyRules
from tests.engine.harness import make_table, play


class BrokenAt(ToyRules):
    """«Проба» with an engine bug: its rules fail on the first action of one type."""

    def __init__(self, broken: str) -> None:
        super().__init__()
        self.broken = broken

    def apply(self, state: Any, action: Action) -> Any:
        if action.get("type") == self.broken:
            raise EngineError("a planted fault", {"game": "toy", "phase": self.broken})
        return super().apply(state, action)


@pytest.mark.parametrize("broken", ["bid", "chance"], ids=["a player's move", "a table action"])
async def test_an_engine_error_halts_the_table_and_blames_nobody(broken: str) -> None:
    h = await make_table(3, rules=BrokenAt(broken))
    await play(h, 3, timer=30)
    for _ in range(10):
        if all(p.table.stage == "halted" for p in h.peers):
            break
        await h.advance(5)
    for peer in h.peers:
        assert peer.table.stage == "halted", peer.table.stage
        assert peer.table.blame == {}, peer.table.blame
        result = peer.table.result
        assert result is not None and result["aborted"].startswith("engine error: a planted fault")
        assert "phase" in result["aborted"] and broken in result["aborted"]
    assert {p.table.digest() for p in h.peers} == {h.peers[0].table.digest()}
    assert all(p.host == "p0" for p in h.peers)
    await h.bus.close()
