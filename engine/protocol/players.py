"""Who chooses a seat's moves: a bot policy, or a human through the page (``submit``)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.core.model import Action, Knowledge, Rules


class Player(Protocol):
    """Chooses among legal actions; ``None`` means "not yet" (a human still thinking)."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """Pick one of ``legal`` (or wait)."""
        ...


class FirstLegal:
    """Always the first legal action."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """First of ``legal``."""
        return legal[0] if legal else None


class RandomBot:
    """A uniformly random legal action from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """Random element of ``legal``."""
        return self.random.choice(legal) if legal else None


class Waiting:
    """Never chooses: the UI calls ``Peer.submit`` instead (or the timer decides)."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """Always wait."""
        return None


class Human(Waiting):
    """A person at the page: waits for ``Peer.submit``, except that a move with exactly one legal
    answer (opening one's sealed spell at its turn, say) is made at once — there is nothing to
    decide, and nothing is revealed that the rules do not demand."""

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """The only legal move, if there is just one; otherwise wait for the person."""
        return legal[0] if len(legal) == 1 else None


class Policy:
    """A synchronous game bot (``choose(rules, state, seat, knowledge)``) seated at a table."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        """The bot's pick, if it is one of ``legal`` (a bot never gets to cheat the rules)."""
        if not legal:
            return None
        action = self.bot.choose(rules, state, seat, knowledge)
        return action if action in legal else legal[0]


class Smart:
    """The game's own heuristic bot where it has one (``engine.games.BOTS``), else random."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.fallback = RandomBot(seed)
        self.policies: dict[str, Policy] = {}

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
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
