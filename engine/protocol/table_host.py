"""What only the host may post: start, pause, hurry, kick, timeouts, automatic choices for
absent seats, the real-time countdown, the seats' preimages and reveal keys gathered into one
entry each, and a takeover, which needs a majority's signed votes."""

from __future__ import annotations

from typing import Any

from engine.core.auto import AutoRules
from engine.fairness.deck import (
    DeckLayout,
)
from engine.protocol.envelope import (
    envelope_shape_error,
    envelope_signature_ok,
)
from engine.protocol.errors import ProtocolError
from engine.protocol.table_fields import Member
from engine.protocol.table_state import TableState
from engine.protocol.watch import votes_needed


class HostDuties(TableState):
    """What only the host may post."""

    async def _plan_host(self, body: dict[str, Any], name: str) -> Any:
        kind = body["t"]
        if kind == "start":
            if self.stage != "new":
                raise ProtocolError(name, "the game has started already")
            try:
                roster = [Member.from_json(m) for m in body["roster"]]
                config = dict(body["config"])
                timer = int(body["timer"])
            except (KeyError, TypeError, ValueError) as exc:
                raise ProtocolError(name, f"malformed start: {exc}") from exc
            if roster != self.roster:
                raise ProtocolError(name, "start roster differs from the room's roster")
            if body.get("rules") != self.rules.game_id:
                raise ProtocolError(name, "start names other rules")
            state = self.rules.new_game(config)
            layout = DeckLayout.from_rules(self.rules.hidden_decks(config))

            def start() -> None:
                self.host = name
                self.config = config
                self.timer = timer
                self.state = state
                self.layout = layout
                self.stage = "chains"

            return start
        if kind in ("pause", "resume"):

            def pause() -> None:
                self.paused = kind == "pause"

            return pause
        if kind == "takeover":
            deposed = self.host or self.roster[0].peer
            await self._check_votes(body.get("votes"), deposed, name)

            def takeover() -> None:
                self.deposed.append(deposed)
                self.host = name

            return takeover
        if kind == "settle":
            # The host's clock says nobody acted during the countdown (trusted like a timeout).
            if self.racing() is None:
                raise ProtocolError(name, "nothing to settle: the game is not racing")
            return self._engine_apply({"type": "settle"}, name, commits=None, seat=-1)
        seat = body.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ProtocolError(name, f"{kind!r} names no seat in the game")
        if seat in self.out and kind != "auto":
            raise ProtocolError(name, f"{kind!r} names no seat in the game")
        obligations = self.obligations()
        if kind == "hurry":
            if obligations.get(seat) != "action":
                raise ProtocolError(name, "that seat has no move to hurry")

            def hurry() -> None:
                self.hurried.add((seat, self.round))

            return hurry
        if kind == "kick":
            return lambda: self._leave(seat, "kicked by the host", blamed=False)
        if kind == "timeout":
            owed = obligations.get(seat)
            if owed is None:
                raise ProtocolError(name, "that seat owes nothing")
            if owed == "action":
                return await self._plan_auto(seat, name)
            if self.stage in ("chains", "shuffle1", "shuffle2") or owed.startswith("share"):
                return lambda: self._halt(seat, f"withheld {owed} before the game began")
            return lambda: self._leave(seat, f"timed out: withheld {owed}", blamed=True)
        if kind == "auto":
            if seat not in self.out:
                raise ProtocolError(name, "the log chooses only for absent seats")
            return await self._plan_auto(seat, name)
        raise ProtocolError(name, f"unknown host message {kind!r}")

    async def _plan_auto(self, seat: int, name: str) -> Any:
        if self.obligations().get(seat) != "action" and seat not in self.out:
            raise ProtocolError(name, "that seat has no move pending")
        decision = self.rules.decision(self.state)
        if seat not in decision.seats:
            raise ProtocolError(name, "that seat has no move pending")
        if not isinstance(self.rules, AutoRules):
            raise ProtocolError(name, "these rules make no automatic choices")
        action = self.rules.auto_action(self.state, seat, None)
        return self._engine_apply(action, name, commits=None, seat=seat)

    async def _check_votes(self, votes: Any, host: str, name: str, head: str = "") -> None:
        """A takeover carries signed votes of a majority of the voters against ``host``, each
        cast at this very point of the log (or at ``head``, an earlier one)."""
        head = head or self.head
        if not isinstance(votes, list) or len(votes) > len(self.roster):
            raise ProtocolError(name, "a takeover needs the voters' signed votes")
        voters = set(self.voters())
        counted: set[str] = set()
        for vote in votes:
            if envelope_shape_error(vote) is not None:
                raise ProtocolError(name, "a vote is malformed")
            body = vote["body"]
            if (
                body.get("t") != "depose"
                or body.get("host") != host
                or vote["prev"] != head
                or vote["room"] != self.room
                or vote["game"] != self.game
                or vote["from"] not in voters
            ):
                raise ProtocolError(name, "a vote is not against this host at this point")
            member = self.member(vote["from"])
            assert member is not None
            if not await envelope_signature_ok(self.backend, member.sign, vote):
                raise ProtocolError(name, f"a vote is not signed by {vote['from']}")
            counted.add(vote["from"])
        if len(counted) < votes_needed(len(voters)):
            raise ProtocolError(name, f"{len(counted)} votes of {len(voters)} cannot depose a host")
