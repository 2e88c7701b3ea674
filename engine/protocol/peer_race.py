"""The host's side of real time: plays held for the room's window, then sequenced in the
public order (``race_order``); what cannot go in is refused and its author told."""

from __future__ import annotations

from typing import Any

from engine.protocol.envelope import message_id
from engine.protocol.errors import ProtocolError, StaleAction
from engine.protocol.peer_state import PeerState, wire_text
from engine.protocol.race_order import HeldPlay, window_seconds


class RaceHost(PeerState):
    """Host: collect simultaneous plays, sequence them by rank."""

    async def _hold_race_play(self, envelope: Any, sender: str) -> bool:
        """Hold a play made during the running race (True), or leave it to be sequenced at once
        (False: not a play, not racing, or made before this race, so it is refused now)."""
        table = self.table
        body = envelope.get("body") if isinstance(envelope, dict) else None
        if not isinstance(body, dict) or body.get("t") != "action" or not table.racing_node():
            return False
        await table.check_message(envelope, sender)
        base = table.made_on(envelope["prev"])
        author = table.member(envelope["from"])
        if base is None or author is None or author.seat is None:
            return False
        if any(message_id(p.envelope) == message_id(envelope) for p in self.race_queue.held):
            return True
        held = self.race_queue.add(HeldPlay(envelope, sender, base, author.seat, self.clock()))
        if held:
            self._seen_play(envelope)
        return held

    async def _pump_race(self) -> bool:
        """Host: sequence the next held play whose window is over (False: none to go now)."""
        if not self.is_host or not self.race_queue.held:
            return False
        table = self.table
        play: HeldPlay | None
        if table.racing_node():
            decision = table.racing()
            if decision is None:
                return False  # a play is being shown: the next one waits for it
            window = window_seconds(table.config)
            play = self.race_queue.next_ripe(self.clock(), window, decision.seats)
        else:
            play = self.race_queue.take_any()
        if play is None:
            return False
        await self._sequence_or_refuse(play.envelope, play.sender)
        return True

    def wake_at(self) -> float | None:
        """When this peer next needs a ``tick`` sooner than the page's usual beat: the host, at
        the end of a held play's window (so the play is not kept waiting for the next beat)."""
        if not self.is_host or not self.race_queue.held:
            return None
        return self.race_queue.ripens_at(window_seconds(self.table.config))

    def _race_holds_before(self, moment: float) -> bool:
        """Host: a held play reached it by ``moment`` (the countdown waits for it)."""
        return self.is_host and self.race_queue.arrived_by(moment)

    async def _sequence_or_refuse(self, envelope: Any, sender: str) -> None:
        """Host: log ``envelope``, or tell every peer why not (a stale play is no error)."""
        try:
            await self._sequence(envelope, sender)
        except ProtocolError as exc:
            ident = message_id(envelope)
            self.transport.broadcast(wire_text({"k": "refused", "id": ident, "why": str(exc)}))
            if envelope.get("from") == self.id:
                await self._own_refusal(envelope, str(exc))
            if not isinstance(exc, StaleAction):
                self._note(exc)

    async def _own_refusal(self, envelope: Any, why: str) -> None:
        """This peer's post was refused (``Moves``)."""
        raise NotImplementedError
