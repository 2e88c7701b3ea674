"""The table looks and feels like a game: screenshots of each game's key moments at 1280×900 and
390×844 (test-artifacts/feel-*.png), the spell composing its name while it is sealed, effects
played from what happened (reveal, dice, hits, death; the Circle spell flying; the Nevermore draft
and called suit), the audit's verdict in words, a volume kept across a reload, and no console
errors; axe-core finds no serious or critical violation on each game's table and Tab reaches
every control of «Схватка»'s. Each game is played by one desktop page, one phone page and a
server bot."""

from __future__ import annotations

import re

import pytest

from engine.games.rumble.cards import WILD, load_catalog
from engine.games.rumble.text import spell_name

from . import circle_driver, nevermore_driver, rumble_driver
from .feel_driver import (
    axe_violations,
    effects,
    hand_stays_on_screen,
    keyboard_reach,
    nevermore_view,
    shots,
)
from .harness import Player, chromium, signaling_server
from .table_driver import play_until, say_ready, seat_players

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"Аня": DESKTOP, "Боря": PHONE}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
NO_SIDEWAYS_SCROLL = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"


def expected_name(card_ids: list[str]) -> str:
    """The engine's name for a spell of these cards (wild cards left out)."""
    spells = load_catalog().spells
    pairs = [(spells[c], str(spells[c]["slot"])) for c in card_ids if c != WILD]
    return spell_name(pairs) if pairs else ""


def without_names(text: str) -> str:
    """The text without the players' own names (the only Russian an English page keeps)."""
    for name in ("Аня", "Боря", "Бот"):
        text = text.replace(name, "")
    return text


def assert_clean(players: list[Player]) -> None:
    for player in players:
        assert not player.errors, (player.name, player.errors)


async def test_the_volume_is_kept_across_a_reload() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            page = (await Player.open(browser, server.origin + "/", "Аня", voice=False)).page
            assert float(await page.input_value("#sound-volume")) == 0.4  # a player's quiet default
            await page.click("#sound")
            assert await page.get_attribute("#sound", "aria-pressed") == "true"
            await page.fill("#sound-volume", "0.7")
            await page.dispatch_event("#sound-volume", "input")
            await page.reload()
            await page.wait_for_function("() => window.magicTable && window.magicTable.ready")
            assert float(await page.input_value("#sound-volume")) == 0.7
            assert await page.evaluate("() => localStorage.getItem('mt.volume')") == "0.70"


async def test_rumble_sealing_reveal_dice_death_and_summary() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, list(SIZES), viewports=SIZES)
            anya, borya = players
            await shots(players, "lobby")
            await borya.page.click('nav button[data-lang="en"]')  # the phone plays in English
            await borya.page.wait_for_selector('#ready:has-text("ready")')
            await rumble_driver.setup_lobby(players)
            await rumble_driver.start_rumble(anya, "tournament", 1, 30, 60)
            await rumble_driver.play_until(
                players, lambda s: s["phase"] == "assembly", idle=frozenset(SIZES)
            )

            # Sealing: the spell's name composes as cards are picked.
            page = anya.page
            await page.wait_for_selector("#spell-building.empty")
            picked: list[str] = []
            for slot_card in await page.locator("#hand button.hand-card").all():
                card = str(await slot_card.get_attribute("data-card"))
                role = str(load_catalog().spells[card]["slot"]) if card != WILD else WILD
                roles = {str(load_catalog().spells[c]["slot"]) for c in picked if c != WILD}
                if role in roles or (card == WILD and WILD in picked) or len(picked) == 2:
                    continue
                await slot_card.click()
                picked.append(card)
                await page.wait_for_selector(f"#spell-building img:nth-of-type({len(picked)})")
            title = await page.inner_text("#spell-building .spell-title")
            if expected_name(picked):
                assert expected_name(picked) in title, (picked, title)
            assert await page.locator("#hand .card-text").first.is_visible()  # text on the card
            await shots(players, "rumble-sealing")
            for player in players:
                assert await axe_violations(player, "#table") == [], player.name
            controls, reached = await keyboard_reach(anya)
            assert controls and controls <= reached, controls - reached
            for part in ("#hand", "#prompt", ".rumble-head", "#table-status"):
                shown = await borya.page.inner_text(part)
                assert not CYRILLIC.search(shown), (part, shown)

            # Play on: the reveal, the dice, a death, the summary.
            await rumble_driver.play_until(players, rumble_driver.mid_fight, timeout=180)
            await shots(players, "rumble-reveal")
            await rumble_driver.play_until(players, lambda s: s["stage"] == "done", timeout=600)
            await page.wait_for_selector("#summary")
            await shots(players, "rumble-summary")
            summary = without_names(await borya.page.inner_text("#summary"))
            assert not CYRILLIC.search(summary), summary
            whole = without_names(await borya.page.inner_text("#table"))  # the log included
            assert not CYRILLIC.search(whole), CYRILLIC.findall(whole)[:20]
            for player in players:
                shown = await effects(player)
                assert {"reveal", "hit"} <= set(shown["shown"]), (player.name, shown)
                assert "death" in shown["shown"], (player.name, shown)
                verdict = await player.page.inner_text("#table-result")
                passed = "Audit passed" if player is borya else "Проверка пройдена"
                assert passed in verdict and "{" not in verdict, verdict
                assert await player.page.evaluate(NO_SIDEWAYS_SCROLL)
                panel = await player.page.inner_text("#table")
                assert not re.search(r'[{}]|"ok"|\b[0-9a-f]{16,}\b', panel), panel[-400:]
            assert_clean(players)


async def test_circle_spell_in_flight() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, list(SIZES), viewports=SIZES)
            await say_ready(players)
            await circle_driver.start_circle(players[0], 3)
            for player in players:
                await player.page.wait_for_selector("#circle", timeout=90_000)

            async def act(player: Player) -> None:
                state = await circle_driver.table_state(player)
                await circle_driver.blow_away(player, state, keep=2)

            def flown(state: dict[str, object]) -> bool:
                spell = state.get("spell")
                return isinstance(spell, dict) and int(spell.get("changes", 0)) >= 1

            await play_until(players, flown, state=circle_driver.table_state, act=act, timeout=240)
            await shots(players, "circle-spell-in-flight")
            await hand_stays_on_screen(players[1].page)  # the phone's dock, fixed at the bottom
            for player in players:
                assert await axe_violations(player, "#table") == [], player.name
            for player in players:
                assert "fly" in (await effects(player))["shown"], player.name
            assert_clean(players)


async def test_nevermore_draft_and_called_suit() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            players = await seat_players(browser, server, list(SIZES), viewports=SIZES)
            borya = players[1]
            await borya.page.click('nav button[data-lang="en"]')  # the phone plays in English
            await borya.page.wait_for_selector('#ready:has-text("ready")')
            await say_ready(players)
            await nevermore_driver.start_nevermore(players[0], 20)
            await play_until(
                players,
                lambda s: s["phase"] == "pass_commit",
                state=nevermore_view,
                act=nevermore_driver.act,
                idle=frozenset(SIZES),
                timeout=120,
            )
            await players[0].page.click("#hand button.hand-card")
            await players[0].page.wait_for_selector("#hand .hand-card.selected")
            await shots(players, "nevermore-draft")
            await hand_stays_on_screen(players[1].page)  # the phone's dock, fixed at the bottom
            for player in players:
                assert await axe_violations(player, "#table") == [], player.name
            await play_until(
                players,
                lambda s: len(s["tokens"]) >= 1,
                state=nevermore_view,
                act=nevermore_driver.act,
                timeout=240,
            )
            await shots(players, "nevermore-resolution")
            for player in players:
                shown = (await effects(player))["shown"]
                assert "called" in shown, (player.name, shown)
            board = without_names(await borya.page.inner_text("#nevermore"))  # the log included
            assert not CYRILLIC.search(board), CYRILLIC.findall(board)[:20]
            assert_clean(players)
