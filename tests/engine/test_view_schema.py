"""The shared part of every game's view (``engine.core.view_schema``): at every step of seeded
games of all four games, each seat's and a spectator's view holds a ``TableView`` that fits the
schema and agrees with the table (who is waited on, the end) and with the game's own fields; the
schema check refuses what breaks it; the page's table panel reads seats and prompt from it."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, get_args

import pytest

from engine.core import view_schema
from engine.core.local_table import LocalTable
from engine.core.model import Kind, Knowledge, Rules
from engine.core.view_schema import KEY, TableView, problems, table_of
from engine.games import rules_for
from tests.engine.digests import Spec, bots, specs

GAMES = ("rumble", "circle", "nevermore", "toy")
PER_GAME = 3  # seeded games per game, each checked at every step
MAX_STEPS = 4_000


def chosen(game: str) -> list[Spec]:
    """A few recorded games of different table sizes and modes (smart bots among them)."""
    every = specs(game)
    picked = every[:PER_GAME]
    smart = next((s for s in every if s.smart), None)
    return picked + ([smart] if smart is not None and smart not in picked else [])


def own_facts(game: str, view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A seat's name, life and score as the game's own view fields say them."""
    if game == "rumble":
        own = view["seats"][seat]
        score = own["kills"] + own["survivals"]
        return {"name": own["name"], "life": own["life"], "score": score, "out": not own["alive"]}
    if game == "circle":
        own = view["seats"][seat]
        return {"name": own["name"], "life": own["life"], "score": None, "out": not own["alive"]}
    if game == "nevermore":
        return {
            "name": view["names"][seat],
            "life": view["health"][seat],
            "score": view["vp"][seat],
            "out": False,
        }
    return {
        "name": "",
        "life": None,
        "score": view["scores"][seat] if "scores" in view else None,
        "out": False,
    }


def check_view(
    game: str, rules: Rules[Any], table: LocalTable, seats: int, viewer: int | None
) -> TableView:
    """The shared part of ``viewer``'s view now, checked against the schema, the table's
    decision and the game's own fields."""
    knowledge = Knowledge(None) if viewer is None else table.knowledge[viewer]
    view = rules.view(table.state, knowledge)
    assert isinstance(view, dict)
    shared = view[KEY]
    assert problems(shared) == [], (game, viewer)
    decision = table.decision()
    prompt = shared["prompt"]
    assert prompt["kind"] == decision.kind.value
    assert prompt["seats"] == list(decision.seats)
    assert prompt["mine"] == (viewer is not None and viewer in decision.seats)
    timed = decision.kind in (Kind.MOVE, Kind.SIMULTANEOUS, Kind.RACE)
    assert prompt["timer"] == ("race" if decision.kind == Kind.RACE else "turn" if timed else None)
    assert shared["over"] == (decision.kind == Kind.TERMINAL)
    assert [s["seat"] for s in shared["seats"]] == list(range(seats))
    for s in shared["seats"]:
        mine = {"name": s["name"], "life": s["life"], "score": s["score"], "out": s["out"]}
        assert mine == own_facts(game, view, s["seat"]), (game, s["seat"])
    if shared["turn"] is not None:
        assert "turn" in shared["seats"][shared["turn"]]["marks"] or game == "circle"
    for p in shared["piles"]:
        assert p["count"] >= 0
    return shared


@pytest.mark.parametrize("game", GAMES)
def test_every_view_of_seeded_games_holds_the_shared_part(game: str) -> None:
    checked = 0
    for spec in chosen(game):
        rules = rules_for(game)
        table = LocalTable(rules, spec.config, seed=spec.seed)
        policies = bots(spec)
        seats = spec.config["seats"]
        waited: set[int] = set()
        for _ in range(MAX_STEPS):
            for viewer in [*range(seats), None]:
                shared = check_view(game, rules, table, seats, viewer)
                checked += 1
            waited.update(shared["prompt"]["seats"])
            if not table.step(policies):
                break
        else:
            raise AssertionError(f"{spec.key}: no end after {MAX_STEPS} steps")
        final = check_view(game, rules, table, seats, None)
        assert final["over"] and final["prompt"]["kind"] == "terminal"
        assert waited == set(range(seats)), "every seat was waited on at some point"
        view = rules.view(table.state, Knowledge(None))
        if game == "rumble":
            assert final["winners"] == view["winners"] and final["winners"]
            assert all("winner" in final["seats"][w]["marks"] for w in final["winners"])
        if game == "circle":
            assert final["winners"] == ([] if view["winner"] is None else [view["winner"]])
        if game == "nevermore":
            assert final["winners"] == ([] if view["winner"] is None else [view["winner"]])
    assert checked > 100


def a_view(game: str = "rumble", steps: int = 40) -> dict[str, Any]:
    spec = chosen(game)[0]
    table = LocalTable(rules_for(game), spec.config, seed=spec.seed)
    policies = bots(spec)
    for _ in range(steps):
        table.step(policies)
    view = table.rules.view(table.state, table.knowledge[0])
    assert isinstance(view, dict)
    return view


def test_the_schema_check_refuses_each_kind_of_break() -> None:
    shared = a_view()[KEY]
    assert problems(shared) == []

    def broken(change: Any) -> list[str]:
        value = copy.deepcopy(shared)
        change(value)
        return problems(value)

    assert broken(lambda v: v.pop("prompt")) == ["table.prompt: нет поля"]
    assert broken(lambda v: v.update(extra=1)) == ["table.extra: лишнее поле"]
    assert broken(lambda v: v["seats"][1].update(hand="8")) == ["table.seats[1].hand: '8' не int"]
    assert broken(lambda v: v["seats"][0].update(hand=True)) == ["table.seats[0].hand: True не int"]
    assert broken(lambda v: v["prompt"].update(kind="wait"))[0].startswith("table.prompt.kind:")
    assert broken(lambda v: v.update(turn="1"))[0].startswith("table.turn:")
    assert broken(lambda v: v["piles"][0].update(top=3))[0].startswith("table.piles[0].top:")
    assert broken(lambda v: v["prompt"].update(options={}))[0].startswith("table.prompt.options:")
    assert table_of({KEY: shared}) == shared
    assert table_of({"seats": []}) is None
    assert table_of({KEY: {k: v for k, v in shared.items() if k != "prompt"}}) is None
    assert table_of(None) is None


def test_a_seat_with_an_unknown_mark_is_refused() -> None:
    shared = a_view()[KEY]
    value = copy.deepcopy(shared)
    value["seats"][0]["marks"] = ["crown"]
    marks = get_args(view_schema.Mark)
    assert problems(value) == [f"table.seats[0].marks[0]: 'crown' не из {marks}"]


# ----- the page reads seats and prompt from the shared part ----------------------------------


def test_the_turn_line_names_the_seats_the_prompt_waits_for() -> None:
    from web.ui import table_views

    view = a_view("rumble", 0)  # the assembly: every living seat seals at once
    shared = table_of(view)
    assert shared is not None and len(shared["prompt"]["seats"]) > 1
    names = [s["name"] for s in shared["seats"]]
    html = table_views.turn_line("ru", shared, names, 0)
    assert f'data-waiting="{",".join(map(str, shared["prompt"]["seats"]))}"' in html
    assert f"{names[0]} (вы)" in html and all(names[s] in html for s in shared["prompt"]["seats"])
    assert 'data-mine="true"' in html and 'data-timer="turn"' in html
    # the same view with the game's own fields gone: the line only needs the shared part
    assert table_views.turn_line("en", table_of({KEY: shared}) or shared, names, None, True) == (
        table_views.turn_line("en", shared, names, None, True)
    )
    moved = copy.deepcopy(shared)
    moved["prompt"]["seats"] = [1]
    moved["prompt"]["mine"] = False
    other = table_views.turn_line("en", moved, names, 0)
    assert "Waiting for " + names[1] in other and "(you)" not in other


def test_a_game_without_a_board_is_drawn_from_the_shared_part() -> None:
    from web.ui import table_views

    view = a_view("toy", 200)
    shared = table_of(view)
    assert shared is not None and shared["over"]
    names = ["Аня", "Боря", "Вера", "Гоша"][: len(shared["seats"])]
    html = table_views.seats_table("ru", shared, names)
    for s in shared["seats"]:
        assert f'data-seat="{s["seat"]}"' in html and names[s["seat"]] in html
        assert f"очки {s['score']}" in html
    assert f"deck {shared['piles'][0]['count']}" in html
    line = table_views.turn_line("ru", shared, names, None)
    assert "Партия окончена." in line and 'class="turn-line"' in line


@dataclass
class Member:
    peer: str
    seat: int | None


@dataclass
class Hello:
    name: str


@dataclass
class Table:
    roster: list[Member]


@dataclass
class Peer:
    table: Table


@dataclass
class Session:
    hellos: dict[str, Hello]
    peer: Peer


def test_a_seat_the_game_does_not_name_gets_the_room_s_name_for_it() -> None:
    from web.ui import table_views

    shared = table_of(a_view("toy", 0))
    assert shared is not None and [s["name"] for s in shared["seats"]] == ["", ""]
    roster = [Member("p-watch", None), Member("p-ann", 0)]
    hellos = {"p-ann": Hello("Аня"), "p-watch": Hello("Зритель")}
    session: Any = Session(hellos, Peer(Table(roster)))
    assert table_views.seat_names("ru", session, shared) == ["Аня", "место 2"]
    assert table_views.seat_names("en", session, shared) == ["Аня", "seat 2"]
    named = table_of(a_view("circle", 0))
    assert named is not None
    game_names = [s["name"] for s in named["seats"]]
    assert table_views.seat_names("en", session, named) == game_names
