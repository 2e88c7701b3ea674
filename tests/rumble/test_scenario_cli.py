"""``python -m engine.games.rumble.scenario``: plays a file, refuses bad input with exit code 2."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.rumble.scenario import main
from web.ui.phrases import render_log

ROOT = Path(__file__).resolve().parents[2]


def run(path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.games.rumble.scenario", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_scenario_file_prints_the_resulting_state(tmp_path: Path) -> None:
    scenario = {
        "players": [
            {"hand": ["src_spark_ognevitsa"], "seal": ["src_spark_ognevitsa"]},
            {"life": 10, "treasures": ["t_cloak"]},
        ]
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario, ensure_ascii=False), "utf-8")
    done = run(path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["life"] == [20, 9]
    said = render_log("rumble", result["log"], "ru", result["names"])
    assert any("Огневицы" in line for line in said)
    assert {"alive", "medals", "treasures", "diseases", "creatures", "palace", "piles"} <= set(
        result
    )


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    done = run(tmp_path / "nope.json")
    assert done.returncode == 2
    assert "не найден" in done.stderr and "Traceback" not in done.stderr


def test_malformed_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{players: [", "utf-8")
    done = run(path)
    assert done.returncode == 2
    assert "не JSON" in done.stderr and "Traceback" not in done.stderr


def test_unknown_card_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps({"players": [{"hand": ["dragon"]}, {}]}), "utf-8")
    done = run(path)
    assert done.returncode == 2
    assert "dragon" in done.stderr and "Traceback" not in done.stderr


def test_bad_extra_card_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    data = {"players": [{}, {}], "extra_cards": {"spells": [{"id": "x", "name": "X", "count": 1}]}}
    path.write_text(json.dumps(data), "utf-8")
    done = run(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_documented_examples_run(tmp_path: Path) -> None:
    for example in sorted((ROOT / "seeds/rumble/scenarios").glob("*.json")):
        done = run(example)
        assert done.returncode == 0, (example.name, done.stderr)
        assert json.loads(done.stdout)["log"]


CARDS = ["src_spark_lord", "d_thicket_troll", "wild", "q_storm_icy", "nope", 3, None]
FIELD = st.one_of(
    st.integers(-3, 30),
    st.sampled_from(CARDS),
    st.lists(st.sampled_from(CARDS), max_size=9),
    st.booleans(),
    st.none(),
)
PLAYER = st.dictionaries(
    st.sampled_from(
        ["life", "hand", "seal", "creatures", "treasures", "diseases", "alive", "kills", "x"]
    ),
    FIELD,
    max_size=5,
)
SCENARIO = st.fixed_dictionaries(
    {"players": st.lists(PLAYER, min_size=0, max_size=7)},
    optional={
        "dice": st.lists(st.integers(0, 7), max_size=12),
        "deck_top": st.lists(st.sampled_from(CARDS), max_size=4),
        "palace": FIELD,
        "stop": st.sampled_from(["round", "fight", "game", "never"]),
        "draws": st.one_of(st.none(), st.just({"disease": ["warts"]}), st.just([1])),
        "choices": st.lists(st.fixed_dictionaries({"seat": st.integers(0, 3)}), max_size=2),
    },
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCENARIO)
def test_any_input_ends_in_a_result_or_a_clear_error(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.json"
        path.write_text(json.dumps(data), "utf-8")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main([str(path)])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().startswith("ошибка")


def test_help_prints_the_usage() -> None:
    for flag in ("--help", "-h"):
        done = run(flag)
        assert done.returncode == 0, done.stderr
        assert "использование: python -m engine.games.rumble.scenario FILE.json" in done.stdout
        assert "не найден" not in done.stderr


def test_a_discard_pile_and_a_cut_deck_reach_the_reshuffle() -> None:
    from .helpers import lines, play

    cut = play(
        [{"hand": ["x_add", "x_d3"], "seal": ["x_add", "x_d3"]}, {}],
        deck_top=["x_q_left1"],
        deck_size=1,
    )
    assert lines(cut, "В заклинание добавлен компонент «Тест x_q_left1»")
    assert lines(cut, "Колода кончилась: сброс перемешан и стал колодой.")  # the next draw
    assert cut["piles"]["discard"] == 0
    kept = play([{}, {}], discard=["x_right5", "wild"])
    assert kept["piles"]["discard"] == 2
    assert kept["seats"][0]["view"]["discard_top"] == "wild"


def test_a_ghost_held_palace_stays_with_the_ghost_in_the_next_fight() -> None:
    from .helpers import play

    result = play(
        [{"hand": ["x_left5"], "seal": ["x_left5"]}, {"alive": False}, {"life": 3}],
        palace=1,
        stop="fight",
        dice=[1] * 10,
    )
    assert result["fight"] == 2
    assert result["palace"] == 1


def test_each_seat_sees_its_own_hand_and_view() -> None:
    from .helpers import play

    result = play(
        [{"hand": ["x_left5", "x_d3"], "seal": ["x_left5"]}, {"hand": ["x_right5"], "seal": []}]
    )
    seats = result["seats"]
    assert [s["seat"] for s in seats] == [0, 1]
    assert "x_d3" in seats[0]["hand"] and "x_right5" in seats[1]["hand"]
    assert [h["card"] for h in seats[0]["view"]["hand"]] == seats[0]["hand"]
    assert "log" not in seats[0]["view"]
    assert seats[0]["view"]["seats"][1]["hand_count"] == len(seats[1]["hand"])


def test_a_scripted_true_is_not_seat_1() -> None:
    import pytest

    from engine.core.scenario import ScenarioError

    from .helpers import play

    players = [{"hand": ["x_weak2"], "seal": ["x_weak2"]}, {"life": 9}, {"life": 9}]
    assert play(players, choices=[{"seat": 0, "phase": "target", "target": 1}])["life"][1] == 7
    with pytest.raises(ScenarioError):
        play(players, choices=[{"seat": 0, "phase": "target", "target": True}])
