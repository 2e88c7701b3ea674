"""«Схватка» at the table: three browsers and a server bot play a whole tournament over WebRTC.

The tournament has two fights: the least that goes from one fight to the next (a third only
repeated that). Along the way one player lets the assembly timer run out (the automatic choice
seals for her), the host hurries a player and pauses the table, and one player reloads mid-fight;
at the end every page's fairness audit passes and all pages agree on the table. Screenshots go to
test-artifacts/.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from .harness import ROOT, Player, chromium, signaling_server
from .rumble_driver import mid_fight, play_until, setup_lobby, start_rumble, table_state
from .table_driver import count, seat_players

pytestmark = pytest.mark.browser

TIMER = 12
ASSEMBLY = 12
FIGHTS = 2


async def test_three_browsers_and_a_bot_play_a_tournament() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            names = ["Аня", "Боря", "Вера"]
            players = await seat_players(browser, server, names)
            anya, borya = players[:2]
            await setup_lobby(players)
            await anya.screenshot("rumble-lobby")
            await start_rumble(anya, "tournament", FIGHTS, TIMER, ASSEMBLY)

            # Vera lets the first assembly timer run out: her seat seals one card by itself.
            state = await play_until(
                players,
                lambda s: count(s, "Вера запечатывает") >= 1,
                idle=frozenset({"Вера"}),
                timeout=120,
            )
            assert count(state, "Вера запечатывает 1 карту") == 1

            # Borya dawdles over his next spell; the host hurries him.
            before = count(state, "Боря запечатывает")
            await play_until(
                players,
                lambda s: s["phase"] == "assembly" and s["waiting"] == [1],
                idle=frozenset({"Боря"}),
                timeout=120,
            )
            await anya.page.click('button[data-command="hurry-all"]')
            state = await play_until(
                players,
                lambda s: count(s, "Боря запечатывает") > before,
                idle=frozenset({"Боря"}),
                timeout=TIMER / 2,  # well before his own timer would have run out
            )

            # The host pauses while the table waits for people only (the bot would move, and
            # moves are not stopped by a pause): no timer fires; then it resumes.
            everyone = frozenset(names)

            def people_only(s: dict[str, object]) -> bool:
                waiting = s["waiting"]
                assert isinstance(waiting, list)
                seats = s["names"]
                assert isinstance(seats, list)
                return (
                    bool(waiting)
                    and all(seats[seat] in everyone for seat in waiting)
                    and s["phase"] not in ("initiative", "open")
                )

            await play_until(players, people_only, idle=everyone, timeout=60)
            await anya.page.click('button[data-command="pause"]')
            for player in players:
                await player.page.wait_for_function(
                    "() => document.querySelector('#table-status').textContent.includes('пауза')"
                )
            paused_log = len((await table_state(anya))["log"])
            await asyncio.sleep(TIMER + 6)
            assert len((await table_state(anya))["log"]) == paused_log, "timers ran while paused"
            await anya.page.click('button[data-command="resume"]')

            shots: set[str] = set()

            async def screenshots(player: Player, phase: str) -> None:
                if phase == "absorb" and "absorb" not in shots:
                    shots.add("absorb")
                    await player.screenshot("rumble-creature-prompt-live")

            state = await play_until(players, mid_fight, timeout=120)
            await anya.screenshot("rumble-table-mid-spell")

            # Borya reloads in the middle of the fight and carries on.
            await borya.page.reload()
            await borya.wait_ready()
            await borya.page.wait_for_selector("#table-status", timeout=60_000)
            state = await play_until(
                players,
                lambda s: s["stage"] == "done",
                timeout=900,
                on_phase=screenshots,
            )
            await anya.page.wait_for_selector("#summary")
            await anya.screenshot("rumble-tournament-summary")
            if "absorb" not in shots:  # no creature was hit in this game: show the prompt anyway
                await show_creature_prompt(anya)
                await anya.screenshot("rumble-creature-prompt")

            for player in players[1:]:  # the last entry reaches the others a moment later
                await player.page.wait_for_selector('#table-status[data-stage="done"]')
            finals = [await table_state(p) for p in players]
            assert {f["digest"] for f in finals} == {finals[0]["digest"]}
            for final, player in zip(finals, players, strict=True):
                assert final["result"] == {"ok": True, "blame": {}}, (player.name, final)
                assert final["fight"] == FIGHTS
                assert not player.errors, (player.name, player.errors)
            assert any("Партия окончена" in line for line in state["log"])
            assert count(state, "Схватка окончена") == FIGHTS, state["log"][-5:]


# The app wheel leaves the scenario command lines out (web/build.py NOT_IN_BROWSER): the test
# brings the two modules it needs into the page's copy of the engine first.
CREATURE_PROMPT = """([scenario, modules]) => { const py = window.magicTable.pyodide;
py.globals.set("scenario", scenario);
py.globals.set("modules", modules);
return py.runPython(`
import importlib
import json
import pathlib
import engine
from js import document
for name, source in json.loads(modules).items():
    pathlib.Path(engine.__file__).parent.joinpath(name).write_text(source)
importlib.invalidate_caches()
from engine.games.rumble.scenario import ScenarioRun
from web.ui import rumble_views
run = ScenarioRun(json.loads(scenario))
for _ in range(500):
    decision = run.table.decision()
    if decision.phase == "absorb":
        break
    run.table.step(run._choice)
seat = decision.seats[0]
knowledge = run.table.knowledge[seat]
view = run.rules.view(run.table.state, knowledge)
moves = run.rules.legal_actions(run.table.state, seat, knowledge)
document.getElementById("table").innerHTML = rumble_views.board(view, seat, moves, [])
document.getElementById("prompt").textContent
`); }"""


async def show_creature_prompt(player: Player) -> None:
    """Render the creature prompt of a scripted position (the seeds' scenario 02) in the page."""
    scenario = (ROOT / "seeds" / "rumble" / "scenarios" / "02_cloak_and_creature.json").read_text()
    modules = {
        name: (ROOT / "engine" / name).read_text(encoding="utf-8")
        for name in ("core/scenario.py", "games/rumble/scenario.py")
    }
    text = await player.page.evaluate(CREATURE_PROMPT, [scenario, json.dumps(modules)])
    assert "В вас летит удар" in text and "Сбросить тварь «Лесной Тролль»" in text, text
