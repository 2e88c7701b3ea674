"""Who chooses a seat's moves: a bot policy, or a human through the page (``submit``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.bots import random_bot
from engine.core.model import Action, Kind, Knowledge, Rules

# The legal moves a player picks from (a game may build each only as it is read).
Legal = Sequence[Action]


class Player(Protocol):
    """Chooses among legal actions; ``None`` means "not yet" (a human still thinking)."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """Pick one of ``legal`` (or wait)."""
        ...


class FirstLegal:
    """Always the first legal action."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """First of ``legal``."""
        return legal[0] if legal else None


class Waiting:
    """Never chooses: the UI calls ``Peer.submit`` instead (or the timer decides)."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """Always wait."""
        return None


class Human(Waiting):
    """A person at the page: waits for ``Peer.submit``, except that a move with exactly one legal
    answer (opening one's sealed spell at its turn, say) is made at once — there is nothing to
    decide, and nothing is revealed that the rules do not demand. In real time (a RACE) not
    acting is always a choice, so nothing is ever played for the person."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """The only legal move, if there is just one; otherwise wait for the person."""
        if len(legal) != 1 or rules.decision(state).kind == Kind.RACE:
            return None
        return legal[0]


class Policy:
    """A synchronous game bot (``choose(rules, state, seat, knowledge)``) seated at a table."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """The bot's pick, if it is one of ``legal`` (a bot never gets to cheat the rules); in real
        time (a RACE) the bot may also let the moment pass (``None``)."""
        if not legal:
            return None
        action = self.bot.choose(rules, state, seat, knowledge)
        if action is None and rules.decision(state).kind == Kind.RACE:
            return None
        return action if action in legal else legal[0]


class RandomBot(Policy):
    """The one random bot of every game (``engine.bots.random_bot.RandomBot``, a uniform pick from
    its own seeded generator) seated at a table; at a real-time moment it always plays."""

    def __init__(self, seed: int) -> None:
        super().__init__(random_bot.RandomBot(seed, race_chance=1.0))


class Reflexes:
    """A bot with a human's reaction time in real time: at a RACE it answers a state only after
    ``delay`` seconds of looking at it (the peer asks again on every tick); elsewhere at once."""

    def __init__(self, inner: Player, delay: float, clock: Callable[[], float]) -> None:
        self.inner = inner
        self.delay = delay
        self.clock = clock
        self.seen: tuple[str, float] = ("", 0.0)

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """The inner player's pick, held back until the state has been seen for ``delay``."""
        if rules.decision(state).kind != Kind.RACE or self.delay <= 0:
            return await self.inner.choose(rules, state, seat, knowledge, legal)
        marker = rules.state_hash(state)
        if self.seen[0] != marker:
            self.seen = (marker, self.clock())
        if self.clock() - self.seen[1] < self.delay:
            return None
        return await self.inner.choose(rules, state, seat, knowledge, legal)


class Smart:
    """The game's own heuristic bot where it has one (``engine.games.BOTS``), else random."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.fallback = RandomBot(seed)
        self.policies: dict[str, Policy] = {}

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: Legal
    ) -> Action | None:
        """Delegate to the heuristic bot of ``rules``' game."""
        from engine.games import heuristic_bot

        game = rules.game_id
        if game not in self.policies:
            bot = heuristic_bot(game, self.seed)
            if bot is None:
                return await self.fallback.choose(rules, state, seat, knowledge, legal)
            self.policies[game] = Policy(bot)
        return await self.policies[game].choose(rules, state, seat, knowledge, legal)
