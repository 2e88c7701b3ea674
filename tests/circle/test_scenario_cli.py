"""``python -m engine.games.circle.scenario``: the sample files, refused plays, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games.circle.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "seeds/circle/scenarios").glob("*.json"))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.games.circle.scenario", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_every_sample_scenario_runs() -> None:
    assert SAMPLES
    for path in SAMPLES:
        result = run_scenario(json.loads(path.read_text("utf-8")))
        assert result["unused_plays"] == [], path.name


def test_the_command_line_prints_the_result() -> None:
    out = run_cli(str(ROOT / "seeds/circle/scenarios/01_seed_example.json"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["totem"] == 1


def test_a_late_play_with_an_old_step_is_recorded_as_refused() -> None:
    result = run_scenario(
        {
            "players": [{"hand": ["wind_left"]}, {"hand": ["wind_left"]}, {"hand": []}],
            "spells": ["stone"],
            "plays": [
                {"seat": 0, "card": "wind_left"},
                {"seat": 1, "card": "wind_left", "step": 0},
            ],
        }
    )
    assert len(result["refused"]) == 1 and "опоздало" in result["refused"][0]["reason"]
    assert result["life"] == [5, 3, 5] and result["hands"][1][0] == "wind_left"


def test_a_whole_game_with_bots() -> None:
    result = run_scenario({"players": [{}, {}, {}, {}], "stop": "game", "bots": True, "seed": 3})
    assert result["result"] in ("winner", "nobody")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": [{}, {}]}, "players"),
        ({"players": [{"hand": ["teleport"]}, {}, {}]}, "нет карты"),
        ({"players": [{"hand": ["shield"] * 4}, {}, {}]}, "не хватает"),
        ({"players": [{}, {}, {}], "spells": ["sun"]}, "нет заклинания"),
        ({"players": [{}, {}, {}], "plays": [{"seat": 0, "card": "gust"}]}, "нет карты gust"),
        ({"players": [{"life": 9}, {}, {}]}, "life"),
    ],
)
def test_bad_scenarios_exit_with_code_2_and_one_line(
    tmp_path: Path, data: dict[str, object], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    out = run_cli(str(path))
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_missing_and_broken_files_exit_with_code_2(tmp_path: Path) -> None:
    assert run_cli(str(tmp_path / "none.json")).returncode == 2
    broken = tmp_path / "broken.json"
    broken.write_text("{", "utf-8")
    assert run_cli(str(broken)).returncode == 2
    assert run_cli().returncode == 2


def test_help_prints_the_usage() -> None:
    for flag in ("--help", "-h"):
        out = run_cli(flag)
        assert out.returncode == 0, out.stderr
        assert "использование: python -m engine.games.circle.scenario FILE.json" in out.stdout
        assert "docs/scenarios.md" in out.stdout and "не найден" not in out.stderr


def test_discard_piles_and_what_each_seat_sees() -> None:
    result = run_scenario(
        {
            "players": [{"hand": ["wind_left"]}, {"hand": ["dispel", "shield"]}, {}],
            "spells": ["fire"],
            "spell_discard": ["stone", "meteor"],
            "discard": ["mirror", "gust"],
            "plays": [{"seat": 1, "card": "dispel"}],
        }
    )
    assert result["spell_discard"][:2] == ["stone", "meteor"]
    assert result["piles"]["action_discard"] >= 3  # mirror, gust and the dispel
    seats = result["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert "shield" in seats[1]["hand"] and "dispel" not in seats[1]["hand"]
    assert seats[1]["hand"] == result["hands"][1]
    assert "log" not in seats[0]["view"]
