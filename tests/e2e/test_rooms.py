"""Rooms end to end: three Chromium pages and one aiortc peer meet through the real server."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import pytest

from .harness import Player, PythonPeer, chromium, signaling_server

pytestmark = pytest.mark.browser


async def test_three_pages_and_a_python_peer_share_a_room() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            anya = await Player.open(browser, server.origin + "/", "Аня")
            code = await anya.create_room()
            assert len(code) == 6
            # Boris joins by typing the code, Vera by opening the room link.
            boris = await Player.open(browser, server.origin + "/", "Боря")
            await boris.join_room(code)
            vera = await Player.open(browser, f"{server.origin}/r/{code}", "Вера")
            assert await vera.page.input_value("#code") == code
            await vera.join_room(code)
            bot = PythonPeer(server, "--room", code, "--name", "Робот", "--echo")
            pages = [anya, boris, vera]
            try:
                for player in pages:
                    await player.wait_open_channels(3)

                # Every page's message reaches every other page and the Python peer,
                # whose echo reaches every page: each pair has talked over the mesh.
                for player in pages:
                    await player.say(f"привет от {player.name}")
                for player in pages:
                    for other in pages:
                        await other.wait_chat(f"{player.name}: привет от {player.name}")
                        await other.wait_chat(f"Робот: echo: привет от {player.name}")
                    await bot.wait_line(f"CHAT {player.name}: привет от {player.name}")

                # Every page hears every other page: a live remote audio track with bytes flowing.
                for player in pages:
                    await wait_audio_from(player, {p.name for p in pages} - {player.name})
                    voices = {
                        peer["name"]: peer["audioPlaying"]
                        for peer in (await player.mesh_debug()).values()
                    }
                    assert all(voices[p.name] for p in pages if p is not player), voices

                await boris.screenshot("rooms-before-reload")
                # Boris reloads: back in the same room, under the same name, chat history kept.
                await boris.page.reload()
                await boris.wait_ready()
                await boris.page.wait_for_selector("#room-code", timeout=20_000)
                assert (await boris.page.inner_text("#room-code")).strip() == code
                await boris.wait_chat("Аня: привет от Аня")
                await boris.wait_open_channels(3)
                for player in (anya, vera):
                    await player.wait_open_channels(3)
                    roster = await player.page.inner_text("#roster")
                    assert roster.count("Боря") == 1, roster
                await boris.say("я вернулся")
                for player in (anya, vera):
                    await player.wait_chat("Боря: я вернулся")
                await bot.wait_line("CHAT Боря: я вернулся")
                assert await badges_of(anya, "Боря") == "место 2"
                assert await badges_of(boris, "Аня") == "место 1 · ведущий"
                await anya.say("с возвращением")
                await boris.wait_chat("Аня: с возвращением")
                await boris.wait_chat("Робот: echo: с возвращением")

                # Vera turns her camera on: video flows to the others without renegotiation.
                await vera.page.click("#camera")
                for player in (anya, boris):
                    await wait_media_from(player, "Вера", "video")
                # Muting stops Vera's microphone track.
                await vera.page.click("#mute")
                assert (
                    await vera.page.evaluate(
                        "() => window.magicTableApp.mesh.micStream.getAudioTracks()[0].enabled"
                    )
                    is False
                )
            finally:
                await bot.stop()
            # The bot has gone: every page says so in its chat.
            for player in pages:
                await player.wait_chat("Робот покидает комнату")

            for player in pages:
                hosts = {urlsplit(url).netloc for url in player.requests}
                assert hosts == {f"127.0.0.1:{server.port}"}, (player.name, hosts)
                assert not player.errors, (player.name, player.errors)


async def badges_of(player: Player, name: str) -> str:
    """The seat and role badges shown next to ``name`` in ``player``'s roster."""
    script = """(name) => [...document.querySelectorAll('#roster li')]
        .find((li) => li.querySelector('.who').textContent === name)
        .querySelector('.badges').textContent"""
    return str(await player.page.evaluate(script, name))


async def wait_media_from(player: Player, name: str, kind: str, timeout: float = 20) -> None:
    """Poll until ``player`` receives ``kind`` bytes from the page of ``name``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        debug = await player.mesh_debug()
        if any(p["name"] == name and p["inbound"].get(kind, 0) > 0 for p in debug.values()):
            return
        if loop.time() > deadline:
            raise AssertionError(f"{player.name} gets no {kind} from {name}: {debug}")
        await asyncio.sleep(0.3)


async def wait_audio_from(player: Player, names: set[str], timeout: float = 20) -> None:
    """Poll until ``player`` receives audio bytes on a live track from every page in ``names``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        debug = await player.mesh_debug()
        hearing = {
            peer["name"]
            for peer in debug.values()
            if peer["audioTrack"] == "live" and peer["inbound"].get("audio", 0) > 0
        }
        if names <= hearing:
            return
        if loop.time() > deadline:
            raise AssertionError(f"{player.name} hears only {hearing}: {debug}")
        await asyncio.sleep(0.3)
