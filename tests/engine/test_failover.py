"""Host failover: the host goes silent mid-game; the next peer in join order sequences the rest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core.model import Action, Knowledge, Rules
from engine.protocol.peer import Peer
from engine.protocol.players import RandomBot
from engine.protocol.transport import InProcessBus
from engine.protocol.watch import VOTES_PER_VOTER, Votes
from tests.engine.harness import Harness, make_table, play


async def test_silent_host_is_replaced_and_the_game_finishes() -> None:
    h = await make_table(4)

    def cut_host_after_seal(sender: str, to: str, message: str) -> str | None:
        if '"t":"seal"' in message.replace('"type":"seal"', '"t":"seal"'):
            h.bus.disconnect("p0")
        return message

    h.bus.tamper = cut_host_after_seal
    await play(h, 4, timer=30)
    h.bus.tamper = None
    survivors = h.peers[1:]
    assert all(p.table.stage == "play" for p in survivors)
    assert all(p.host == "p0" for p in survivors)
    for _ in range(40):
        await h.advance(5)
        if all(p.table.stage == "done" for p in survivors):
            break
    assert all(p.host == "p1" for p in survivors), [p.host for p in survivors]
    assert {p.table.digest() for p in survivors} == {survivors[0].table.digest()}
    for peer in survivors:
        assert peer.table.stage == "done", peer.table.stage
        result = peer.table.result
        assert result is not None
        # Only the silent host's seat is blamed, and for going silent, not for cheating.
        assert set(result["blame"]) == {0}, result
        assert result["blame"][0].startswith("timed out"), result
        assert set(peer.table.out) == {0}
    await h.bus.close()


async def test_the_new_host_neither_sends_nor_is_sent_checkpoints_of_its_entries() -> None:
    """After a takeover the entries' host is the successor: checkpoints of its entries go between
    the other two survivors only (``HostWatch._send_checkpoint``)."""
    h = await make_table(4)
    sent: list[tuple[str, str, str]] = []

    def cut_host_after_seal(sender: str, to: str, message: str) -> str | None:
        data = json.loads(message)
        if data.get("k") == "checkpoint":
            sent.append((sender, to, data["host"]))
        if '"t":"seal"' in message.replace('"type":"seal"', '"t":"seal"'):
            h.bus.disconnect("p0")
        return message

    h.bus.tamper = cut_host_after_seal
    await play(h, 4, timer=30)
    for _ in range(40):
        await h.advance(5)
        if all(p.table.stage == "done" for p in h.peers[1:]):
            break
    assert all(p.host == "p1" and p.table.stage == "done" for p in h.peers[1:])
    of_new_host = [(a, b) for a, b, host in sent if host == "p1"]
    assert of_new_host, "the survivors checkpoint the new host's entries"
    assert set(of_new_host) == {("p2", "p3"), ("p3", "p2")}, set(of_new_host)
    await h.bus.close()


class LeavesAtItsBid:
    """Plays as a random bot until its own bid is asked for; then its tab closes (the host's
    connection drops and it posts nothing), so nobody has a post waiting on the host."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.bus: InProcessBus | None = None

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        if rules.decision(state).phase == "bid":
            assert self.bus is not None
            self.bus.disconnect("p0")
            return None
        return await self.inner.choose(rules, state, seat, knowledge, legal)


async def test_a_host_gone_on_its_own_turn_is_voted_out_when_its_timer_runs_out() -> None:
    leaver = LeavesAtItsBid(0)
    h = await make_table(4, players={0: leaver})
    leaver.bus = h.bus
    await play(h, 4, timer=30)
    survivors = h.peers[1:]
    assert all(p.host == "p0" for p in survivors)
    assert all(not p.pending.posts and not p.outbox for p in survivors)
    for _ in range(40):
        await h.advance(5)
        if all(p.table.stage == "done" for p in survivors):
            break
    assert all(p.host == "p1" for p in survivors), [p.host for p in survivors]
    assert {p.table.digest() for p in survivors} == {survivors[0].table.digest()}
    for peer in survivors:
        result = peer.table.result
        assert peer.table.stage == "done" and result is not None, peer.table.stage
        assert set(result["blame"]) == {0}, result
        assert result["blame"][0].startswith("timed out"), result
    await h.bus.close()


def host_entry(sender: str, message: str) -> dict[str, Any] | None:
    """The log entry in ``message`` if the host (p0) is sending one, else ``None``."""
    if sender != "p0" or '"k":"entry"' not in message:
        return None
    entry: dict[str, Any] = json.loads(message)["e"]
    return entry


async def finish(h: Harness, survivors: list[Peer]) -> None:
    """Run the clock until every survivor's table is over (or five minutes have passed)."""
    for _ in range(300):
        await h.advance(1)
        if all(p.table.stage in {"done", "halted"} for p in survivors):
            break


def assert_one_finished_table(peers: list[Peer], out_within: set[int] | None = None) -> None:
    """Every peer follows p1, holds the same table, and that game is over (with only seats of
    ``out_within`` out, when given)."""
    assert all(p.host == "p1" for p in peers), [(p.host, p.errors) for p in peers]
    assert {p.table.digest() for p in peers} == {peers[0].table.digest()}
    for peer in peers:
        assert peer.table.stage == "done", (peer.id, peer.table.stage, peer.errors)
        if out_within is not None:
            assert set(peer.table.out) <= out_within, (peer.id, peer.table.out, peer.errors)


async def test_a_vote_cast_ahead_counts_once_the_successor_has_caught_up() -> None:
    """The host's last entry reaches p2 only, then its tab closes: p2 votes at that entry,
    p1 (the successor) one entry behind. p1 catches up from p2 and votes there; p2, which
    votes once a head, must not have to vote again for its vote to count."""
    h = await make_table(3)
    cut: dict[str, int] = {}

    def last_entry_to_p2_only(sender: str, to: str, message: str) -> str | None:
        entry = host_entry(sender, message)
        if entry is None:
            return message
        if "seq" not in cut and entry["msg"]["body"]["t"] == "action":
            cut["seq"] = entry["seq"]
        if cut.get("seq") == entry["seq"]:
            return message if to == "p2" else None
        if "seq" in cut:
            h.bus.disconnect("p0")
            return None
        return message

    h.bus.tamper = last_entry_to_p2_only
    await play(h, 3, timer=30)
    survivors = h.peers[1:]
    assert [len(p.table.log) for p in survivors] == [cut["seq"], cut["seq"] + 1]
    await finish(h, survivors)
    assert_one_finished_table(survivors, out_within={0})
    await h.bus.close()


async def test_a_timeout_passed_on_by_a_peer_is_not_judged_by_a_clock_that_never_saw_it_due() -> (
    None
):
    """From the host's bid on, its entries reach p2 only: p1 never sees its own bid
    come due, and the host rightly times it out before closing its tab. p1 then gets both
    entries from p2: it cannot tell when its time began, so it takes the host's word (as a
    reloaded page does) instead of refusing the timeout and leaving the two survivors on two
    heads that can never make a majority."""
    h = await make_table(3)
    cut: dict[str, bool] = {}

    def p1_cut_off_until_its_timeout(sender: str, to: str, message: str) -> str | None:
        entry = host_entry(sender, message)
        if entry is None:
            return message
        body = entry["msg"]["body"]
        action = body.get("action", {})
        if body["t"] == "action" and action.get("type") == "bid" and action.get("seat") == 0:
            cut["from"] = True  # seat 0's bid: seat 1 bids next
        if cut.get("timed out"):
            h.bus.disconnect("p0")
            return None
        if body["t"] == "timeout" and "from" in cut and to == "p2":
            assert body["seat"] == 1
            cut["timed out"] = True
        return message if to == "p2" or "from" not in cut else None

    h.bus.tamper = p1_cut_off_until_its_timeout
    await play(h, 3, timer=30)
    survivors = h.peers[1:]
    await finish(h, survivors)
    assert cut.get("timed out"), "the host never timed p1 out"
    refusals = [e for e in survivors[0].errors if "timed out seat 1" in str(e)]
    assert not refusals, refusals
    assert_one_finished_table(survivors)
    await h.bus.close()


@pytest.mark.parametrize("late", ["p1", "p2"])
async def test_entries_a_closing_host_sends_after_a_vote_give_way_to_the_takeover(
    late: str,
) -> None:
    """The host stalls, then sends its last two entries as its tab closes: one survivor never
    gets them, the other (``late``) only after it has voted. p1 (the successor) takes over at
    the head both voted at; ``late`` must follow the takeover, not the entries that came after
    its vote (with them p2 would be on another branch, timed out by p1, and a table of three
    could not go on)."""
    h = await make_table(3)
    other = "p2" if late == "p1" else "p1"
    stalled: list[str] = []
    cut: dict[str, int] = {}

    def stall_then_close(sender: str, to: str, message: str) -> str | None:
        entry = host_entry(sender, message)
        if entry is not None:
            body = entry["msg"]["body"]
            if "seq" not in cut and body["t"] == "action" and body["action"]["type"] == "bid":
                cut["seq"] = entry["seq"]
            if "seq" in cut:
                if to == late and entry["seq"] <= cut["seq"] + 1:
                    stalled.append(message)
                if entry["seq"] > cut["seq"] + 1:
                    h.bus.disconnect("p0")
                return None
        if sender == late and '"k":"vote"' in message and to == other and stalled:
            for held in stalled:  # the stalled host's entries come just after its vote
                h.bus.endpoints[late].queue.put_nowait(("p0", held))
            stalled.clear()
            h.bus.disconnect("p0")
        return message

    h.bus.tamper = stall_then_close
    await play(h, 3, timer=30)
    survivors = h.peers[1:]
    await finish(h, survivors)
    assert "seq" in cut and not stalled, "the host's late entries never went out"
    if late == "p2":  # it had gone past the vote: it starts over from p1's branch
        assert any("starting over" in str(e) for e in h.peers[2].errors), h.peers[2].errors
    assert_one_finished_table(survivors, out_within={0})
    await h.bus.close()


@pytest.mark.parametrize(
    ("seats", "stall_from", "release_on"),
    [(3, "action", "takeover"), (4, "action", "takeover"), (4, "deliver", "vote")],
)
async def test_a_slow_host_deposed_behind_its_own_log_follows_the_new_host(
    seats: int, stall_from: str, release_on: str
) -> None:
    """The host is alive but its entries stall on the way (its link, a busy tab) from its
    first ``stall_from`` entry of the game on, long enough for the others to vote it out at the
    head they have; it has gone past that head meanwhile. The stalled entries arrive with the
    takeover, or with the last seat's vote (before it): the host must yield to the takeover and
    play on as a seat, and its stalled entries must not move the others, nor a peer that is
    starting over from the new host's log (they are another branch)."""
    h = await make_table(seats)
    stalled: list[tuple[str, str]] = []
    cut: dict[str, int] = {}
    last = f"p{seats - 1}"

    def release() -> None:
        cut["released"] = 1
        for receiver, held in stalled:
            h.bus.endpoints[receiver].queue.put_nowait(("p0", held))
        stalled.clear()

    def stall_the_host(sender: str, to: str, message: str) -> str | None:
        entry = host_entry(sender, message)
        if entry is not None:
            body = entry["msg"]["body"]
            if "seq" not in cut and body["t"] == stall_from:
                cut["seq"] = entry["seq"]
            if "seq" in cut and "released" not in cut:
                stalled.append((to, message))
                return None
        if "released" in cut or not stalled:
            return message
        if release_on == "takeover" and sender == "p1" and '"t":"takeover"' in message:
            release()
        if release_on == "vote" and sender == last and '"k":"vote"' in message:
            h.bus.endpoints[to].queue.put_nowait((sender, message))
            release()
            return None
        return message

    h.bus.tamper = stall_the_host
    await play(h, seats, timer=30)
    await finish(h, h.peers)
    assert "released" in cut, "nobody took over"
    host = h.peers[0]
    assert any("starting over" in str(e) for e in host.errors), host.errors
    assert_one_finished_table(h.peers, out_within=set())
    await h.bus.close()


def test_a_voter_flooding_votes_at_made_up_heads_pushes_out_only_its_own() -> None:
    votes = Votes()

    def vote(voter: str, head: str) -> dict[str, Any]:
        return {"from": voter, "prev": head, "body": {"t": "depose", "host": "p0"}}

    votes.add(vote("p1", "real"))
    votes.add(vote("p2", "real"))
    for i in range(500):
        votes.add(vote("p3", f"made-up-{i}"))
    assert [v["from"] for v in votes.at("p0", "real")] == ["p1", "p2"]
    assert len(votes.ballots["p3"]) == VOTES_PER_VOTER
    votes.add(vote("p3", "real"))
    assert len(votes.at("p0", "real")) == 3
