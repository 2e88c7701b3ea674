"""«Волшебный круг» through the real fair-play table: in-process peers, a mental-poker action
deck, real-time «переполох» with the host's countdown, reveals, the reshuffle, and the audit."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.bots.random_bot import RandomBot
from engine.core.model import Action, Knowledge, Rules
from engine.games.circle import CircleRules
from engine.games.circle.bot import HeuristicBot
from engine.protocol.players import Player
from tests.engine.harness import make_table

COUNTDOWN = 2


class CountingRules(CircleRules):
    """The rules, counting the action types the peers apply (shared by every peer)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter[str] = Counter()

    def apply(self, state: Any, action: Action) -> Any:
        out = super().apply(state, action)
        self.seen[action["type"]] += 1
        return out


class BotPlayer:
    """A circle bot as a table player (it answers a RACE moment or lets it pass)."""

    def __init__(self, bot: RandomBot | HeuristicBot) -> None:
        self.bot = bot

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        if not legal:
            return None
        return self.bot.choose(rules, state, seat, knowledge)


async def audited_game(seed: int, rules: CountingRules) -> None:
    """One 4-player game (heuristic and lazy random bots) through the table, checked at the end."""
    seats = 4
    players: dict[int, Player] = {
        i: BotPlayer(HeuristicBot(seed + i) if i % 2 else RandomBot(seed + i, race_chance=0.1))
        for i in range(seats)
    }
    h = await make_table(seats, rules=rules, players=players, game=f"game-{seed}")
    await h.peers[0].start({"seats": seats, "timers": {"scramble": COUNTDOWN}}, timer=30)
    await h.settle()
    try:
        for _ in range(3000):
            if h.peers[0].table.state["need"]["kind"] == "terminal":
                break
            await h.advance(COUNTDOWN + 0.5)
        await h.advance(1.0)
        assert all(peer.errors == [] for peer in h.peers), [p.errors for p in h.peers]
        state = h.peers[0].table.state
        assert state["need"]["kind"] == "terminal" and state["g"]["result"] in ("winner", "nobody")
        assert {p.table.digest() for p in h.peers} == {h.peers[0].table.digest()}
        assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    finally:
        await h.bus.close()


async def test_games_play_to_an_audited_end_through_the_table() -> None:
    rules = CountingRules()
    for seed in range(3):  # a game nearly always has both; up to three make it certain enough
        await audited_game(seed, rules)
        if rules.seen["reveal"] and rules.seen["reshuffled"]:
            break
    for kind in ("chance", "play", "settle", "reveal", "reshuffled"):
        assert rules.seen[kind], (kind, rules.seen)


class FireAtOnce:
    """Plays its first legal card the moment it first sees a spell fly, and never again."""

    def __init__(self) -> None:
        self.slot: int | None = None

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        if not legal or self.slot is not None:
            return None
        self.slot = int(legal[0]["slot"])
        return legal[0]


async def test_actions_fired_at_the_same_instant_leave_every_peer_in_the_same_state() -> None:
    seats = 5
    firing = [FireAtOnce() for _ in range(seats)]
    players: dict[int, Player] = dict(enumerate(firing))
    h = await make_table(seats, rules=CircleRules(), players=players, game="crossing")
    await h.peers[0].start({"seats": seats, "timers": {"scramble": COUNTDOWN}}, timer=30)
    await h.settle()
    try:
        # Every seat fired on the first spell it saw, at once: the host applied one action per
        # step and refused those made on a step that had moved on; their cards stayed in hand.
        host = h.peers[0].table
        played = [e for e in host.state["g"]["log"] if e["e"] == "play"]
        refused = sum(len(p.refused) for p in h.peers)
        assert all(f.slot is not None for f in firing)
        assert played and refused, (len(played), refused)
        assert len(played) + refused == seats
        assert {p.rules.state_hash(p.table.state) for p in h.peers} == {
            h.peers[0].rules.state_hash(host.state)
        }
        for peer, fired in zip(h.peers, firing, strict=True):
            assert not peer.errors and not peer.outbox
            if peer.refused:
                assert fired.slot in host.state["g"]["hands"][peer.seat], "a refused card stays"
        for _ in range(400):
            if host.state["need"]["kind"] == "terminal":
                break
            await h.advance(COUNTDOWN + 0.5)
        await h.advance(1.0)
        assert {p.table.digest() for p in h.peers} == {h.peers[0].table.digest()}
        assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    finally:
        await h.bus.close()
