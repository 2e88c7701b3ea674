"""Property-based fuzzing of the table layer: mutated copies of every message kind, at every
stage, from a member and from a stranger. No peer dies, no honest peer is blamed, the peers'
digests stay equal.

Tables are frozen at each stage by a seat that withholds one contribution (or by players that
never move); the corpus is every wire message of an honest game. Each example sends a batch of
mutated messages to one peer; the default suite sends over 5 000, ``-m slow`` over 100 000.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.model import canonical_json
from engine.protocol.envelope import make_envelope
from engine.protocol.peer import Peer
from engine.protocol.players import Waiting
from tests.engine.attacks.common import Never, stranger
from tests.engine.harness import Harness, make_table, play
from tests.engine.race_game import StoneRules
from tests.engine.test_race import PushOnce

ATTACKER = "p1"
BATCH = 10


def withholding(owed: str) -> type[Peer]:
    """A peer that never posts the obligation ``owed`` (so the table waits there)."""

    class Withholds(Peer):
        async def _act_once(self) -> bool:
            due = self.table.obligations().get(self.seat) if self.seat is not None else None
            if due is not None and due.split(" ")[0] == owed:
                return False
            return await super()._act_once()

    return Withholds


STAGES: dict[str, dict[str, Any]] = {
    "chains": {"peer_class": {2: withholding("chain")}},
    "shuffle1": {"peer_class": {2: withholding("pass1")}},
    "shuffle2": {"peer_class": {2: withholding("pass2")}},
    "seal": {"players": {i: Never() for i in range(3)}},
    "cardkeys": {"peer_class": {2: withholding("cardkeys")}},
    "die": {"peer_class": {2: withholding("preimage")}},
    "reveal": {"peer_class": {2: withholding("keys")}},
    "audit": {"peer_class": {2: withholding("audit")}},
    "done": {},
    # A real-time node (the hot stone): nobody pushes, so the stone stays in the air.
    "race": {"rules": StoneRules(), "players": {i: Waiting() for i in range(3)}},
}


class World:
    """One event loop holding a frozen table per stage and the corpus of real messages."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.tables: dict[str, Harness] = {}
        self.corpus: list[dict[str, Any]] = []
        self.sent = 0
        self.loop.run_until_complete(self._build())

    async def _build(self) -> None:
        honest = await make_table(3)

        def record(sender: str, to: str, message: str) -> str:
            if len(self.corpus) < 2000:
                self.corpus.append(json.loads(message))
            return message

        honest.bus.tamper = record
        await play(honest, 3)
        await honest.bus.close()
        racing = await make_table(3, rules=StoneRules(), players={i: PushOnce() for i in range(3)})
        racing.bus.tamper = record
        await play(racing, 3)
        await racing.advance(10, steps=5)
        await racing.bus.close()
        for name, kwargs in STAGES.items():
            h = await make_table(3, **kwargs)
            await play(h, 3)
            self.tables[name] = h

    def close(self) -> None:
        for h in self.tables.values():
            self.loop.run_until_complete(h.bus.close())
        self.loop.close()


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    built = World()
    yield built
    built.close()


JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=80),
    st.sampled_from(["00" * 32, "ff" * 64, "p0", "p2", "intruder", "", "action", "post"]),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (the root is ``()``)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the subtree at ``path`` replaced (or removed, for ``...``)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        if rest or new is not ...:
            copy[head] = replaced(value[head], rest, new)
        else:
            copy.pop(head)
        return copy
    copy_list = list(value)
    if rest or new is not ...:
        copy_list[head] = replaced(value[head], rest, new)
    else:
        copy_list.pop(head)
    return copy_list


MUTATION = st.tuples(
    st.integers(min_value=0, max_value=10**6),  # which corpus message
    st.integers(min_value=0, max_value=10**6),  # which path in it
    st.one_of(JSON_VALUE, st.just(...)),  # its new value (``...``: delete it)
    st.sampled_from(["raw", "resign", "stranger", "text"]),
    st.integers(min_value=0, max_value=2),  # target peer (never the attacker)
)


async def send(world: World, h: Harness, mutation: tuple[Any, ...]) -> None:
    pick, where, new, how, target = mutation
    original = world.corpus[pick % len(world.corpus)]
    targets = [p for p in h.peers if p.id != ATTACKER]
    to = targets[target % len(targets)].id
    if how == "text":
        raw = canonical_json(original).decode()
        h.bus.endpoints[ATTACKER].send(to, raw[: where % (len(raw) + 1)] + str(new)[:20])
        return
    if how == "resign" and isinstance(original.get("m"), dict) and "body" in original["m"]:
        body = original["m"]["body"]
        all_paths = paths(body)
        body = replaced(body, all_paths[where % len(all_paths)], new if new is not ... else 0)
        attacker = h.peers[1]
        try:
            envelope = await make_envelope(
                h.backend,
                attacker.bundle.sign,
                "room-1",
                "game-1",
                ATTACKER,
                attacker.table.head,
                body,
            )
        except (TypeError, ValueError):
            return
        h.bus.endpoints[ATTACKER].send(to, canonical_json({**original, "m": envelope}).decode())
        return
    all_paths = paths(original)
    message = replaced(original, all_paths[where % len(all_paths)], new)
    sender = "intruder" if how == "stranger" else ATTACKER
    endpoint = stranger(h) if sender == "intruder" else h.bus.endpoints[sender]
    try:
        endpoint.send(to, canonical_json(message).decode())
    except (TypeError, ValueError):
        endpoint.send(to, json.dumps(message, default=str))


def check(h: Harness) -> None:
    """No honest peer blamed by anyone, every peer alive, one digest."""
    for peer in h.peers:
        blamed = {e.peer for e in peer.errors} - {ATTACKER, "intruder"}
        assert not blamed, [str(e) for e in peer.errors if e.peer in blamed][:3]
        assert peer.halted is None, peer.halted
    assert len({p.table.digest() for p in h.peers}) == 1


async def batch(world: World, stage: str, mutations: list[tuple[Any, ...]]) -> None:
    h = world.tables[stage]
    for mutation in mutations:
        await send(world, h, mutation)
        world.sent += 1
    await h.settle()  # raises if a receiver died
    check(h)


def fuzz(world: World, stage: str, mutations: list[tuple[Any, ...]]) -> None:
    world.loop.run_until_complete(batch(world, stage, mutations))


STAGE = st.sampled_from(sorted(STAGES))
SETTINGS = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@settings(max_examples=520, derandomize=True, **SETTINGS)  # type: ignore[arg-type]
@given(stage=STAGE, mutations=st.lists(MUTATION, min_size=BATCH, max_size=BATCH))
def test_mutated_messages_never_kill_a_peer_nor_blame_an_honest_one(
    world: World, stage: str, mutations: list[tuple[Any, ...]]
) -> None:
    fuzz(world, stage, mutations)


def test_the_default_fuzz_sent_enough_messages(world: World) -> None:
    if world.sent == 0:
        pytest.skip("counts the messages of the fuzz test above: run the whole module")
    assert world.sent >= 5000, world.sent
    stages = {h.peers[0].table.stage for h in world.tables.values()}
    assert {"chains", "shuffle1", "shuffle2", "play", "audit", "done"} <= stages
    assert any(h.peers[0].table.racing_node() for h in world.tables.values())


@pytest.mark.slow
@settings(max_examples=10_000, **SETTINGS)  # type: ignore[arg-type]
@given(stage=STAGE, mutations=st.lists(MUTATION, min_size=BATCH, max_size=BATCH))
def test_many_more_mutated_messages(
    world: World, stage: str, mutations: list[tuple[Any, ...]]
) -> None:
    fuzz(world, stage, mutations)
