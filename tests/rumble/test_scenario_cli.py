"""``python -m engine.games.rumble.scenario``: plays a file, refuses bad input with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    assert any("Огневицы" in line for line in result["log"])
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
