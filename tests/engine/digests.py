"""Seeded games of every game, replayed to recorded digests: the safety net of engine rewrites.

For each game, 300 seeded games are played by the game's bots on a ``LocalTable``; a game's record
is two digests:

- ``state``: SHA-256 over the canonical JSON of ``rules.to_json(state)`` after every step, with
  every ``log`` list in it *rendered*: each entry becomes the Russian sentence it stands for (a
  string entry is that sentence; an event ``{"e": kind, ...}`` is rendered by the game's phrase
  table, or by its ``text`` field while the engine still carries one). So the digest is the same
  whether the engine writes sentences or events — as long as the events render to the very same
  Russian text;
- ``play``: what the table and the page see, whatever the state's inner shape: every decision
  (kind, seats, phase, range, slots, deck), the legal actions of every seat it waits for, every
  action applied, the rendered log, and every 25 steps (and at the end) the views of seat 0 and a
  spectator (logs rendered the same way).

A change of behaviour — a state, a log sentence, an order of legal actions, a view — changes a
digest. Scenario outputs (``seeds/*/scenarios`` and the files under ``tests/engine/scenarios``)
are recorded the same way, logs rendered.

Re-record (only for an intended change, named in the commit): ``python -m tests.engine.digests``
(every game), or ``python -m tests.engine.digests nevermore`` (that game's games and scenarios
only).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.local_table import LocalTable
from engine.core.model import Action, Kind, Knowledge, Rules, canonical_json
from engine.games import rules_for

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("digests.json")
SCENARIOS = Path(__file__).with_name("scenarios")
GAMES = 300
VIEW_EVERY = 25
MAX_STEPS = 50_000


# ----- logs rendered to their Russian sentences ----------------------------------------------


def render_entry(game: str, entry: Any, names: list[str]) -> str:
    """The Russian sentence a log entry stands for."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and isinstance(entry.get("text"), str):
        return str(entry["text"])
    from web.ui.phrases import render  # the phrase tables: the engine logs events

    return render(game, entry, "ru", names)


def names_in(value: dict[str, Any]) -> list[str]:
    """The seats' names beside a log: the data's ``names``, a view's ``seats``, or the
    ``names`` of the seats' views (a «Невермор» scenario's output)."""
    if isinstance(value.get("names"), list):
        return [str(n) for n in value["names"]]
    seats = value.get("seats")
    if isinstance(seats, list) and all(isinstance(s, dict) and "name" in s for s in seats):
        return [str(s["name"]) for s in seats]
    if isinstance(seats, list) and seats and isinstance(seats[0], dict):
        view = seats[0].get("view")
        if isinstance(view, dict) and isinstance(view.get("names"), list):
            return [str(n) for n in view["names"]]
    return []


def is_event(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("e"), str)


def rendered(game: str, value: Any) -> Any:
    """``value`` with every ``log`` list in it rendered to sentences (the entries of a log and
    the names beside it: the same dict), and a ``result`` that is an event (how a «Невермор»
    game ended) rendered the same way."""
    if isinstance(value, dict):
        names = names_in(value) if isinstance(value.get("log"), list) else []
        return {
            k: [render_entry(game, e, names) for e in v]
            if k == "log" and isinstance(v, list)
            else render_entry(game, v, names_in(value))
            if k == "result" and is_event(v)
            else rendered(game, v)
            for k, v in value.items()
            if not shared_part(k, v)
        }
    if isinstance(value, list):
        return [rendered(game, v) for v in value]
    return value


def shared_part(key: str, value: Any) -> bool:
    """A view's shared part (``engine.core.view_schema``): made from the view's other fields and
    checked at every step by ``test_view_schema``; left out, so the digests recorded before it
    was added stand."""
    return key == "table" and isinstance(value, dict) and "prompt" in value


def blob(game: str, value: Any) -> bytes:
    return canonical_json(rendered(game, value))


# ----- the recorded games --------------------------------------------------------------------


Policy = Callable[[Rules[Any], Any, int, Knowledge], Action | None]


@dataclass(frozen=True)
class Spec:
    """One recorded game: which game, its config, the table's seed, and which bots play it."""

    game: str
    seed: int
    config: dict[str, Any]
    smart: bool

    @property
    def key(self) -> str:
        cfg = ",".join(f"{k}={v}" for k, v in sorted(self.config.items()))
        return f"{self.game}/{self.seed}/{cfg}/{'smart' if self.smart else 'random'}"


def specs(game: str) -> list[Spec]:
    """The 300 recorded games of ``game``: every table size and mode, a share with smart bots."""
    out = []
    for seed in range(GAMES):
        if game == "rumble":
            mode = "two_wins" if seed % 6 == 5 else "tournament"
            cfg: dict[str, Any] = {"seats": 2 + seed % 5, "mode": mode}
            smart = seed % 10 == 3
        elif game == "nevermore":
            cfg = {"seats": 3 + seed % 4, "max_rounds": 0 if seed % 25 == 7 else 8}
            smart = seed % 5 == 0
        elif game == "circle":
            seats = 3 + seed % 6
            cfg = {"seats": seats, "first": seed % seats}
            smart = seed % 3 == 0
        else:
            cfg = {"seats": 2 + seed % 5}
            if seed % 2:
                cfg["reshuffle"] = True
            smart = False
        out.append(Spec(game, seed, cfg, smart))
    return out


def bots(spec: Spec) -> dict[int, Policy]:
    """The seats' policies: the game's random bot, its heuristic bot on even seats when smart."""
    n = spec.config["seats"]
    seed = spec.seed
    if spec.game == "circle":
        from engine.bots.random_bot import RandomBot as CircleRandom
        from engine.games.circle.bot import HeuristicBot as CircleSmart

        return {
            s: (
                CircleSmart(seed + s) if spec.smart and s % 2 == 0 else CircleRandom(seed * 7 + s)
            ).choose
            for s in range(n)
        }
    if spec.game == "nevermore":
        from engine.bots.random_bot import RandomBot as NevermoreRandom
        from engine.games.nevermore.bot import HeuristicBot as NevermoreSmart

        return {
            s: (NevermoreSmart() if spec.smart and s % 2 else NevermoreRandom(seed * 7 + s)).choose
            for s in range(n)
        }
    from engine.bots.random_bot import RandomBot

    if spec.game == "rumble":
        from engine.games.rumble.bot import HeuristicBot as RumbleSmart

        return {
            s: (
                RumbleSmart(seed + s) if spec.smart and s % 2 == 0 else RandomBot(seed * 7 + s)
            ).choose
            for s in range(n)
        }
    return {s: toy_policy(RandomBot(seed * 7 + s).choose) for s in range(n)}


def toy_policy(choose: Policy) -> Policy:
    """«Проба» seals with ``{"seal": [slot]}``: the table's commitment and opening done here."""

    def policy(rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge) -> Action | None:
        action = choose(rules, state, seat, knowledge)
        if action is None:
            return None
        data = getattr(rules, "data", None)
        g = data(state) if data is not None else state  # the game data, whatever the shape
        if "seal" in action:
            slots = action.pop("seal")
            action["secret"] = {"items": [{"slot": slot} for slot in slots]}
            sealed = knowledge.secrets.setdefault("sealed", {})
            if slots and g["phase"] == "seal":
                sealed[str(g["commits"][seat])] = slots[0]
            if slots:
                knowledge.secrets["resealed"] = slots[0]
        for entry in action.get("open") or []:
            if "slot" not in entry:
                key = "resealed" if g["phase"] == "reopen" else None
                slot = (
                    knowledge.secrets[key]
                    if key
                    else knowledge.secrets["sealed"][str(entry["index"])]
                )
                entry["slot"] = slot
                entry["card"] = knowledge.cards[slot]
        return action

    return policy


def decision_blob(table: LocalTable) -> bytes:
    d = table.decision()
    return canonical_json(
        [d.kind.value, list(d.seats), d.phase, d.chance_range, list(d.slots), d.deck]
    )


def play(spec: Spec) -> tuple[str, str]:
    """The ``state`` and ``play`` digests of one seeded game played to its end."""
    rules = rules_for(spec.game)
    table = LocalTable(rules, spec.config, seed=spec.seed)
    policies = bots(spec)
    state_h = hashlib.sha256()
    play_h = hashlib.sha256()

    def views() -> None:
        for knowledge in (table.knowledge.get(0, Knowledge(0)), Knowledge(None)):
            play_h.update(blob(spec.game, rules.view(table.state, knowledge)))

    steps = 0
    while True:
        state_h.update(hashlib.sha256(blob(spec.game, rules.to_json(table.state))).digest())
        play_h.update(decision_blob(table))
        decision = table.decision()
        if decision.kind in (Kind.MOVE, Kind.SIMULTANEOUS, Kind.RACE):
            for seat in decision.seats:
                legal = rules.legal_actions(table.state, seat, table.knowledge[seat])
                play_h.update(canonical_json(legal))
        if steps % VIEW_EVERY == 0:
            views()
        if not table.step(policies):
            break
        steps += 1
        play_h.update(canonical_json(table.history[-1]))
        if steps >= MAX_STEPS:
            raise AssertionError(f"{spec.key}: no end after {MAX_STEPS} steps")
    views()
    play_h.update(str(steps).encode())
    return state_h.hexdigest(), play_h.hexdigest()


# ----- scenario outputs ----------------------------------------------------------------------

RUNNERS = {
    "rumble": "engine.games.rumble.scenario",
    "nevermore": "engine.games.nevermore.scenario",
    "circle": "engine.games.circle.scenario",
}


def scenario_files() -> Iterator[tuple[str, Path]]:
    """(game, file) of every recorded scenario: the seeds' examples and the tests' own."""
    for game in sorted(RUNNERS):
        for folder in (ROOT / "seeds" / game / "scenarios", SCENARIOS / game):
            if folder.is_dir():
                for path in sorted(folder.glob("*.json")):
                    yield game, path


def scenario_key(game: str, path: Path) -> str:
    return f"{game}/{path.relative_to(ROOT).as_posix()}"


def scenario_digest(game: str, path: Path) -> str:
    """The digest of a scenario's output (logs rendered)."""
    import importlib

    runner = importlib.import_module(RUNNERS[game])
    data = json.loads(path.read_text("utf-8"))
    out = runner.run_scenario(data)
    if game == "rumble" and data.get("extra_cards"):
        out = {**out, "log": rumble_with_its_cards(out, data["extra_cards"])}
    return hashlib.sha256(blob(game, out)).hexdigest()


def rumble_with_its_cards(out: dict[str, Any], extra: dict[str, Any]) -> list[str]:
    """A «Схватка» scenario's log said in Russian with the scenario's own test cards named."""
    from engine.games.rumble.cards import load_catalog
    from web.ui.phrases import rumble

    catalog = load_catalog().extended(extra)
    return [rumble.say(e, "ru", out["names"], catalog) for e in out["log"]]


# ----- the fixture ---------------------------------------------------------------------------


def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text("utf-8"))
    return data


def record(games: list[str]) -> None:
    """Re-record the seeded games and the scenarios of ``games``; every other game's entries
    stay as they are."""
    data = recorded() if FIXTURE.exists() else {"games": {}, "scenarios": {}}
    for game in games:
        for spec in specs(game):
            data["games"][spec.key] = list(play(spec))
        print(f"recorded {game}", file=sys.stderr, flush=True)
    kept = {k: v for k, v in data["scenarios"].items() if k.split("/", 1)[0] not in games}
    data["scenarios"] = kept | {
        scenario_key(game, path): scenario_digest(game, path)
        for game, path in scenario_files()
        if game in games
    }
    FIXTURE.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", "utf-8")


if __name__ == "__main__":
    record(sys.argv[1:] or ["circle", "nevermore", "rumble", "toy"])
