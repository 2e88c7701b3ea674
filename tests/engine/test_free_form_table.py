"""At the table, a step that fails on a well-formed free-form move halts the game as the engine's
fault, alike on every peer, and blames nobody: not the move's author, not the host; a malformed
free-form move is still the author's illegal move and the game goes on."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.model import Action, canonical_json
from engine.games.toy import ToyRules, moves
from engine.protocol.players import RandomBot
from tests.engine.attacks.common import digests, signed
from tests.engine.harness import make_table, play


async def halted(h: Any) -> None:
    for _ in range(10):
        if all(p.table.stage == "halted" for p in h.peers):
            return
        await h.advance(5)


@pytest.mark.parametrize("phase", ["open", "bid"], ids=["an opening", "a bid"])
async def test_a_step_failing_on_a_free_form_move_halts_as_an_engine_fault(
    phase: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """«Проба»'s opening of a sealed card (shown through the table's commitments) and its bid
    are free-form moves; the step fails after it has read one."""
    if phase == "open":
        real = moves.acted

        def marked(g: Any, seat: int, next_phase: Any) -> bool:
            if next_phase == "die":  # the opening has been read and its card taken out
                raise KeyError("the opened card has no place")
            return real(g, seat, next_phase)

        monkeypatch.setattr(moves, "acted", marked)
    else:

        def failing(g: Any, seat: int, action: Action) -> None:
            g["bids"][seat] = action["amount"]
            raise KeyError("the bids have no place")

        monkeypatch.setattr(moves, "bid", failing)
    h = await make_table(3, rules=ToyRules())
    await play(h, 3, timer=30)
    await halted(h)
    for peer in h.peers:
        table = peer.table
        assert table.stage == "halted", table.stage
        assert table.blame == {}, table.blame
        assert table.result is not None
        reason = table.result["aborted"]
        assert reason.startswith("engine error: ошибка правил: KeyError"), reason
        assert "no place" in reason and f"'phase': '{phase}'" in reason
    assert {p.table.digest() for p in h.peers} == {h.peers[0].table.digest()}
    assert all(p.host == "p0" for p in h.peers)
    await h.bus.close()


class BidsOnlyWhenTold:
    """Plays every phase except the bid, which it leaves to the test."""

    def __init__(self) -> None:
        self.bot = RandomBot(5)

    async def choose(self, rules: Any, state: Any, seat: int, knowledge: Any, legal: Any) -> Any:
        if state["phase"] == "bid":
            return None
        return await self.bot.choose(rules, state, seat, knowledge, legal)


@pytest.mark.parametrize(
    "bad",
    [{"amount": True}, {"amount": [1]}, {}, {"amount": 1, "more": {"a": []}}],
    ids=["a bool", "a list", "no amount", "an unexpected field"],
)
async def test_a_malformed_free_form_move_is_its_authors_and_the_game_goes_on(
    bad: dict[str, Any],
) -> None:
    h = await make_table(3, players={1: BidsOnlyWhenTold()})
    await play(h, 3)
    assert h.peers[0].table.state["phase"] == "bid" and h.peers[0].table.state["turn"] == 1
    before = digests(h)
    body = {"t": "action", "action": {"type": "bid", "seat": 1, **bad}}
    rogue = await signed(h, 1, body)
    h.peers[1].transport.send("p0", canonical_json({"k": "post", "m": rogue}).decode())
    await h.settle()
    assert any(e.peer == "p1" and "illegal move" in e.reason for e in h.peers[0].errors)
    assert all(p.table.stage == "play" for p in h.peers)
    assert digests(h) == before
    await h.peers[1].submit({"type": "bid", "seat": 1, "amount": 1})
    await h.settle()
    assert all(p.table.stage == "done" for p in h.peers)
    await h.bus.close()
