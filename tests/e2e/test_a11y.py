"""Accessibility: axe-core finds no serious or critical violation on the home page, the room's
lobby (the host's table form and hero picks), the catalog and the rules, in both languages; every
control of the lobby's table panel is reached with Tab. The games' tables are checked the same way
in ``test_table_feel``."""

from __future__ import annotations

import pytest

from .feel_driver import axe_violations, keyboard_reach
from .harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser


async def test_home_lobby_catalog_and_rules_have_no_serious_violations() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            anya = await Player.open(browser, server.origin + "/", "Аня", voice=False)
            assert await axe_violations(anya) == []
            await anya.create_room()
            await anya.page.wait_for_selector("#table-form")
            assert await axe_violations(anya) == []
            controls, reached = await keyboard_reach(anya)
            assert controls and controls <= reached, controls - reached
            await anya.page.click('nav button[data-action="catalog"]')
            await anya.page.wait_for_selector("#catalog")
            assert await axe_violations(anya, "#overlay") == []
            await anya.page.click('#overlay button[data-action="close-overlay"]')
            await anya.page.click('nav button[data-lang="en"]')
            await anya.page.click('nav button[data-action="rules"]')
            await anya.page.wait_for_selector("#overlay h2")
            assert "Rules of" in await anya.page.inner_text("#overlay h2")
            assert await axe_violations(anya, "#overlay") == []
            await anya.page.click('#overlay button[data-action="close-overlay"]')
            # The check itself can fail: a button without a name is a critical violation.
            await anya.page.evaluate(
                "() => document.getElementById('app').insertAdjacentHTML('beforeend',"
                " '<button id=\"nameless\"></button>')"
            )
            found = await axe_violations(anya)
            assert any(v["id"] == "button-name" for v in found), found
            assert not anya.errors, anya.errors


async def test_reduced_motion_turns_the_effects_off() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            calm = await Player.open(
                browser, server.origin + "/", "Вера", voice=False, reduced_motion="reduce"
            )
            probe = """() => {
              const layer = document.createElement('div'); layer.className = 'fx-layer';
              const float = document.createElement('div'); float.className = 'fx-float hit';
              layer.appendChild(float); document.body.append(layer);
              return [getComputedStyle(layer).display, getComputedStyle(float).animationName,
                window.matchMedia('(prefers-reduced-motion: reduce)').matches];
            }"""
            assert await calm.page.evaluate(probe) == ["none", "none", True]
            calm_fx = "() => window.magicTable.pyodide.runPython('import web.ui.fx as f; f.calm()')"
            assert await calm.page.evaluate(calm_fx) is True  # no Web Animations either
            lively = await Player.open(browser, server.origin + "/", "Гена", voice=False)
            assert await lively.page.evaluate(probe) == ["block", "fx-float", False]
