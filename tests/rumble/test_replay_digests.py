"""Seeded random fights replay to the very same states: a recorded digest per game.

For every game the digest is the SHA-256 over the state's hash after every step, the canonical
JSON of every action applied, and (every 25 steps) seat 0's view — each with its log rendered to
the Russian sentences of ``web.ui.phrases`` (the engine logs events; the digests were recorded
when it logged those sentences, so they prove the phrase table says them alike). The recorded
digests (``replay_digests.json``) were taken before the step runner was optimised; any change of
behaviour — a different state, log line, legal-action order or view — changes them.

The default run checks a sample; ``pytest -m slow`` (or ``RUMBLE_SLOW=1``) checks all of them:
300 four-player fights (100 tournaments) and tournaments of 2, 3, 5 and 6, «До двух побед» and
heuristic-bot games. Re-record (only for an intended rule change):
``python -m tests.rumble.test_replay_digests``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.bots.random_bot import RandomBot
from engine.core import runner, view_schema
from engine.core.local_table import LocalTable
from engine.core.model import canonical_json
from engine.games.rumble import RumbleRules
from engine.games.rumble.base import Base
from engine.games.rumble.bot import HeuristicBot
from engine.games.rumble.runner import (
    SHARED_LISTS,
    SHARED_MAPS,
    SHARED_PER_SEAT,
    clone,
    clone_game,
)
from web.ui.phrases import render_log

RULES = RumbleRules()
FIXTURE = Path(__file__).with_name("replay_digests.json")


def games() -> list[tuple[int, str, bool, int]]:
    """(seats, mode, smart, seed) of every recorded game."""
    out = [(4, "tournament", False, seed) for seed in range(100)]
    out += [(n, "tournament", False, seed) for n in (2, 3, 5, 6) for seed in range(10)]
    out += [(n, "two_wins", False, seed) for n in (3, 4) for seed in range(5)]
    out += [(n, "tournament", True, seed) for n in (2, 4, 6) for seed in range(4)]
    return out


def key(seats: int, mode: str, smart: bool, seed: int) -> str:
    return f"{seats}-{mode}-{'smart' if smart else 'random'}-{seed}"


def spoken(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``data`` with its ``log`` of events rendered to the Russian sentences."""
    return {**data, "log": render_log("rumble", data["log"], "ru", names)}


def state_hash(state: dict[str, Any]) -> str:
    """``rules.state_hash`` of the state with its log rendered."""
    data = RULES.to_json(state)
    data = {**data, "g": spoken(data["g"], data["g"]["names"])}
    return hashlib.sha256(canonical_json(data)).hexdigest()


def view(table: LocalTable) -> dict[str, Any]:
    """Seat 0's view, its log rendered, without the shared part every game's view carries
    (``engine.core.view_schema``: made from the other fields, checked by its own test)."""
    seen = RULES.view(table.state, table.knowledge[0])
    seen = {k: v for k, v in seen.items() if k != view_schema.KEY}
    return spoken(seen, [s["name"] for s in seen["seats"]])


def digest(seats: int, mode: str, smart: bool, seed: int) -> str:
    """The digest of one seeded game played to its end."""
    table = LocalTable(RULES, {"seats": seats, "mode": mode}, seed=seed)
    bots: dict[int, Any] = {}
    for s in range(seats):
        bot = HeuristicBot(seed + s) if smart and s % 2 == 0 else RandomBot(seed * 7 + s)
        bots[s] = bot.choose
    h = hashlib.sha256(state_hash(table.state).encode())
    steps = 0
    while table.step(bots):
        steps += 1
        h.update(state_hash(table.state).encode())
        h.update(canonical_json(table.history[-1]))
        if steps % 25 == 0:
            h.update(canonical_json(view(table)))
        assert steps < 50_000
    h.update(str(steps).encode())
    return h.hexdigest()


def recorded() -> dict[str, str]:
    data: dict[str, str] = json.loads(FIXTURE.read_text("utf-8"))
    return data


SAMPLE = [g for i, g in enumerate(games()) if i % 12 == 0]


@pytest.mark.parametrize("game", SAMPLE, ids=lambda g: key(*g))
def test_sampled_games_replay_to_the_recorded_digests(game: tuple[int, str, bool, int]) -> None:
    assert digest(*game) == recorded()[key(*game)]


@pytest.mark.slow
def test_all_games_replay_to_the_recorded_digests() -> None:
    want = recorded()
    assert sorted(want) == sorted(key(*g) for g in games())
    wrong = [key(*g) for g in games() if digest(*g) != want[key(*g)]]
    assert not wrong


def main() -> None:
    out = {key(*g): digest(*g) for g in games()}
    FIXTURE.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n", "utf-8")
    print(f"recorded {len(out)} games in {FIXTURE}", file=sys.stderr)


if __name__ == "__main__":
    main()


SHARED = ("agenda", "results", "log", "spell")  # lists of never-changed records
FIXED = ("names", "heroes")  # set when the game starts: shared as they are


def containers(value: Any, seen: list[int]) -> None:
    """Ids of every list and dict inside ``value``."""
    if isinstance(value, dict):
        seen.append(id(value))
        for item in value.values():
            containers(item, seen)
    elif isinstance(value, list):
        seen.append(id(value))
        for item in value:
            containers(item, seen)


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_the_fast_clone_copies_all_that_steps_change(seats: int) -> None:
    """At every step: ``clone_game`` equals a marshal copy; it shares no list or dict with the
    original except the never-changed records (steps, fight results, creatures, sealed spells),
    what steps change only through a copy (``SHARED_LISTS``, ``SHARED_MAPS``) and each seat's
    treasures, ghosts, diseases and creatures (``Base.own_seat_list``); and no step has
    changed the data of the state before it (so sharing them is safe)."""
    table = LocalTable(RULES, {"seats": seats}, seed=seats)
    bots = {s: RandomBot(s).choose for s in range(seats)}
    before = table.state
    frozen = clone(before)
    while table.step(bots):
        assert before == frozen
        before = table.state
        frozen = clone(before)
        for data in (before["g"], RULES.current(before)):
            copy = clone_game(data)
            assert copy == clone(data)
            mine: list[int] = []
            theirs: list[int] = []
            for key in data:
                if key in FIXED or key in SHARED_LISTS or key in SHARED_MAPS:
                    assert copy[key] is data[key]
                elif key in SHARED_PER_SEAT:
                    assert copy[key] is not data[key]
                    assert all(a is b for a, b in zip(data[key], copy[key], strict=True))
                elif key not in SHARED:
                    containers(data[key], mine)
                    containers(copy[key], theirs)
                else:
                    assert copy[key] is not data[key]
            assert len(set(mine)) == len(mine)
            assert not set(mine) & set(theirs)


@pytest.mark.parametrize("seats", [3, 5])
def test_steps_run_in_place_ask_before_changing_anything(
    seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shared runner checks each in-place step that waits for an input against a copy."""
    monkeypatch.setattr(runner, "CHECK_IN_PLACE", True)
    for seed in range(3):
        table = LocalTable(RULES, {"seats": seats}, seed=seed)
        table.play({s: RandomBot(seed + s).choose for s in range(seats)})


def test_no_step_changes_a_list_an_earlier_state_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded games of 3–6 seats, the data of every state compared after the next step with a
    copy taken before it: a step that changed a shared list or map in place, not through
    ``Base.own_list``, ``Base.own_known`` or ``Base.own_seat_list``, would change the state
    before it. The games change every one of them."""
    owned: set[str] = set()
    own_list, own_seat_list, own_known = Base.own_list, Base.own_seat_list, Base.own_known

    def counted_list(g: Any, key: str) -> list[Any]:
        owned.add(key)
        return own_list(g, key)

    def counted_seat_list(g: Any, key: str, seat: int) -> list[Any]:
        owned.add(key)
        return own_seat_list(g, key, seat)

    def counted_known(g: Any) -> dict[str, str]:
        owned.add("known")
        return own_known(g)

    monkeypatch.setattr(Base, "own_list", staticmethod(counted_list))
    monkeypatch.setattr(Base, "own_known", staticmethod(counted_known))
    monkeypatch.setattr(Base, "own_seat_list", staticmethod(counted_seat_list))
    for seats in (3, 4, 5, 6):
        for seed in range(3):
            table = LocalTable(RULES, {"seats": seats}, seed=100 + seed)
            bots = {s: RandomBot(seed * 10 + s).choose for s in range(seats)}
            before, frozen = table.state, clone(table.state)
            while table.step(bots):
                assert before == frozen
                before, frozen = table.state, clone(table.state)
    # Winners are only ever set anew, never changed in place.
    assert owned == {*SHARED_LISTS, *SHARED_MAPS, *SHARED_PER_SEAT} - {"winners"}
