"""Re-shuffling cards nobody has seen (hands, the undrawn rest) without showing them: pass 0."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core.model import JSON, Action, Decision, IllegalAction, Kind, Knowledge, Rules
from engine.fairness.deck import ShuffleSeed
from engine.protocol.peer import Peer
from engine.protocol.players import RandomBot, Waiting
from tests.engine.harness import make_table

HAND = 2
CARDS = ["ash", "bog", "cog", "dew", "elm", "fig", "gum", "hay", "ivy"]


class BlindRules(Rules[dict[str, Any]]):
    """Deal two cards each; take every hand back and re-shuffle the whole deck unseen; deal
    again; then show every card. Each seat says «ok» once after each deal."""

    game_id = "blind"

    def new_game(self, config: Mapping[str, JSON]) -> dict[str, Any]:
        seats = int(config.get("seats", 3))
        hands = {str(s): [HAND * s + i for i in range(HAND)] for s in range(seats)}
        return {
            "seats": seats,
            "phase": "look",
            "hands": hands,
            "waiting": list(range(seats)),
            "shown": {},
            "deal": 1,
        }

    def hidden_decks(self, config: Mapping[str, JSON]) -> dict[str, list[str]]:
        return {"main": list(CARDS)}

    def visible_slots(self, state: dict[str, Any], seat: int) -> frozenset[int]:
        return frozenset(state["hands"].get(str(seat), []))

    def decision(self, state: dict[str, Any]) -> Decision:
        phase = state["phase"]
        if phase == "look":
            return Decision(Kind.SIMULTANEOUS, seats=tuple(state["waiting"]), phase="look")
        if phase == "gather":
            return Decision(
                Kind.RESHUFFLE, slots=tuple(range(len(CARDS))), deck="main", phase="gather"
            )
        if phase == "show":
            return Decision(Kind.REVEAL, slots=tuple(range(len(CARDS))), deck="main", phase="show")
        return Decision(Kind.TERMINAL)

    def legal_actions(self, state: dict[str, Any], seat: int, knowledge: Knowledge) -> list[Action]:
        if state["phase"] != "look" or seat not in state["waiting"]:
            return []
        return [{"type": "ok", "seat": seat}]

    def apply(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        new = copy.deepcopy(state)
        kind = action.get("type")
        if kind == "ok" and state["phase"] == "look" and action.get("seat") in state["waiting"]:
            new["waiting"].remove(action["seat"])
            if not new["waiting"]:
                new["phase"] = "gather" if state["deal"] == 1 else "show"
                new["hands"] = {s: [] for s in new["hands"]} if state["deal"] == 1 else new["hands"]
            return new
        if kind == "reshuffled" and state["phase"] == "gather":
            n = state["seats"]
            # Deal again from the other end: every seat gets slots it did not hold before.
            top = len(CARDS)
            new["hands"] = {str(s): [top - 1 - HAND * s - i for i in range(HAND)] for s in range(n)}
            new["phase"], new["deal"], new["waiting"] = "look", 2, list(range(n))
            return new
        if kind == "reveal" and state["phase"] == "show":
            new["shown"], new["phase"] = dict(action["cards"]), "over"
            return new
        raise IllegalAction(f"{kind} not now")

    def auto_action(self, state: dict[str, Any], seat: int, knowledge: Knowledge | None) -> Action:
        return {"type": "ok", "seat": seat}

    def view(self, state: dict[str, Any], knowledge: Knowledge) -> JSON:
        return state

    def to_json(self, state: dict[str, Any]) -> JSON:
        return state


async def play(peer_class: dict[int, type[Peer]] | None = None) -> Any:
    h = await make_table(
        3, rules=BlindRules(), players={i: RandomBot(i) for i in range(3)}, peer_class=peer_class
    )
    await h.peers[0].start({"seats": 3}, timer=30)
    await h.settle()
    await h.advance(1.0)
    return h


async def test_unseen_cards_are_reshuffled_without_being_shown_and_audit_clean() -> None:
    h = await play()
    table = h.peers[0].table
    (transcript,) = table.reshuffles
    assert sorted(transcript.hidden) == list(range(len(CARDS))), "nothing was revealed first"
    assert len(transcript.pass0) == 3 and len(transcript.pass2) == 3
    assert not table.past_reveals, "no card was shown before the re-shuffle"
    shown = table.state["shown"]
    assert Counter(shown.values()) == Counter(CARDS), "every card is still there, once"
    for peer in h.peers:
        # Each seat learnt its second hand privately, and it matches what the reveal showed.
        second = table.state["hands"][str(peer.seat)]
        assert {s: peer.knowledge.cards[s] for s in second} == {s: shown[str(s)] for s in second}
    assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    assert len({p.table.digest() for p in h.peers}) == 1
    await h.bus.close()


class WrongStripSeed(ShuffleSeed):
    """Takes off another slot's key in pass 0 (the points stay valid, the cards do not)."""

    def slot_key(self, slot: int, epoch: int = 0) -> int:
        if epoch == 0 and slot == 0:
            return super().slot_key(1, epoch)
        return super().slot_key(slot, epoch)


class WrongStripPeer(Peer):
    async def _reshuffle_body(self, owed: str, seed: ShuffleSeed) -> dict[str, Any]:
        if owed.startswith("reshuffle0"):
            seed = WrongStripSeed(seed.seed)
        return await super()._reshuffle_body(owed, seed)


async def test_a_wrong_pass_zero_is_named_by_the_audit() -> None:
    h = await play({1: WrongStripPeer})
    table = h.peers[0].table
    assert table.result is not None and not table.result["ok"]
    assert set(table.result["blame"]) == {1}
    assert "pass 0" in table.result["blame"][1]
    assert len({p.table.digest() for p in h.peers}) == 1
    await h.bus.close()


class LeavesAtOnce(Waiting):
    """A player who never answers (its seat leaves before the re-shuffle)."""


async def test_a_seat_gone_before_the_reshuffle_has_its_keys_taken_off_from_its_escrow() -> None:
    h = await make_table(3, rules=BlindRules(), players={0: RandomBot(0), 1: RandomBot(1)})
    h.peers[2].player = LeavesAtOnce()
    await h.peers[0].start({"seats": 3}, timer=30)
    await h.settle()
    await h.peers[2].leave()
    await h.settle()
    await h.advance(100, steps=10)
    table = h.peers[0].table
    (transcript,) = table.reshuffles
    assert transcript.seats == [0, 1] and 2 in table.recovered
    assert sorted(transcript.hidden) == list(range(len(CARDS)))
    assert Counter(table.state["shown"].values()) == Counter(CARDS)
    assert table.result == {"ok": True, "blame": {}}
    survivors = h.peers[:2]
    assert len({p.table.digest() for p in survivors}) == 1
    await h.bus.close()
