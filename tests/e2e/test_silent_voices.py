"""A room where nobody has the microphone on plays no remote audio: each peer's audio track is
there (a voice can start later without renegotiation) but silent, and a page plays a remote track
only while it sends (a silent one kept playing held the audio output open and its receiver
pulled every 10 ms: a constant hum of CPU on every page). The other half — a voice that comes is
played — is ``test_rooms.py``'s."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.harness import Player, chromium, signaling_server

pytestmark = pytest.mark.browser


async def test_a_room_without_voices_plays_no_remote_audio() -> None:
    with signaling_server() as server:
        async with chromium() as browser:
            pages = [
                await Player.open(browser, server.origin + "/", name, voice=False)
                for name in ("Аня", "Боря")
            ]
            code = await pages[0].create_room()
            await pages[1].join_room(code)
            for page in pages:
                await page.wait_open_channels(1)
            await asyncio.sleep(1.5)  # time enough for a track that would send to start sending
            for page in pages:
                peers = list((await page.mesh_debug()).values())
                assert [p["audioTrack"] for p in peers] == ["live"], peers
                assert [p["audioPlaying"] for p in peers] == [False], peers
                assert not page.errors, page.errors
