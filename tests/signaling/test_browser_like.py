"""A hand-written offerer that behaves like the page: trickled candidates, media transceivers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription

from signaling.ice import use_loopback_candidates
from signaling.mesh import MeshPeer
from tests.signaling.conftest import Server, recv, send


def split_candidates(sdp: str) -> tuple[str, list[dict[str, Any]]]:
    """SDP without its candidates, and the candidates as a browser would trickle them."""
    lines, trickled = [], []
    mid, index = None, -1
    for line in sdp.splitlines():
        if line.startswith("m="):
            index += 1
        elif line.startswith("a=mid:"):
            mid = line[len("a=mid:") :]
        if line.startswith("a=candidate:"):
            trickled.append({"candidate": line[2:], "sdpMid": mid, "sdpMLineIndex": index})
        elif line != "a=end-of-candidates":
            lines.append(line)
    return "\r\n".join(lines) + "\r\n", trickled


async def test_trickled_candidates_before_the_offer_are_queued(server: Server) -> None:
    use_loopback_candidates("auto")
    answerer = MeshPeer(server.ws_url, "Bot")
    code = await answerer.create()
    ws = await server.ws()
    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    try:
        await send(ws, {"type": "join", "room": code, "name": "Browser"})
        joined = await recv(ws)
        bot_id = joined["roster"][0]["id"]
        channel = pc.createDataChannel("table")
        pc.addTransceiver("audio", direction="sendrecv")
        pc.addTransceiver("video", direction="sendrecv")
        opened = asyncio.Event()
        inbox: asyncio.Queue[str] = asyncio.Queue()
        channel.on("open", opened.set)
        channel.on("message", inbox.put_nowait)
        await pc.setLocalDescription(await pc.createOffer())
        bare, trickled = split_candidates(pc.localDescription.sdp)
        assert trickled, "the offerer gathered no candidate"
        for cand in trickled:  # candidates first: the answerer must queue them
            await send(ws, {"type": "signal", "to": bot_id, "data": {"candidate": cand}})
        await send(ws, {"type": "signal", "to": bot_id, "data": {"candidate": None}})
        offer = {"sdp": {"type": "offer", "sdp": bare}}
        await send(ws, {"type": "signal", "to": bot_id, "data": offer})
        answer = await recv(ws)
        assert answer["type"] == "signal" and answer["from"] == bot_id
        assert answer["data"]["sdp"]["type"] == "answer"
        assert "a=candidate:" in answer["data"]["sdp"]["sdp"]  # aiortc does not trickle
        await pc.setRemoteDescription(RTCSessionDescription(**answer["data"]["sdp"]))
        await asyncio.wait_for(opened.wait(), 10)
        channel.send(json.dumps({"t": "hello", "name": "Browser", "id": joined["you"]}))
        hello = json.loads(await asyncio.wait_for(inbox.get(), 10))
        assert hello == {"t": "hello", "name": "Bot", "id": bot_id}
        channel.send(json.dumps({"t": "ping", "n": 7, "ts": 123}))
        assert json.loads(await asyncio.wait_for(inbox.get(), 10)) == {
            "t": "pong",
            "n": 7,
            "ts": 123,
        }
        await answerer.wait_connected(1)
        assert answerer.peers[joined["you"]].name == "Browser"
        kinds = sorted(t.kind for t in pc.getTransceivers())
        assert kinds == ["audio", "video"]
    finally:
        await pc.close()
        await answerer.close()
        if not ws.closed:
            await ws.close()


async def test_answerer_ignores_junk_signals(server: Server) -> None:
    answerer = MeshPeer(server.ws_url, "Bot")
    code = await answerer.create()
    ws: aiohttp.ClientWebSocketResponse = await server.ws()
    try:
        await send(ws, {"type": "join", "room": code, "name": "Junk"})
        bot_id = (await recv(ws))["roster"][0]["id"]
        for data in (5, {"sdp": "x"}, {"candidate": {"candidate": "garbage"}}, {"what": 1}):
            await send(ws, {"type": "signal", "to": bot_id, "data": data})
        await send(ws, {"type": "ping"})
        assert await recv(ws) == {"type": "pong"}
        # the bot still works: a real peer can connect to it
        other = MeshPeer(server.ws_url, "Real")
        await other.join(code)
        await other.wait_connected(1)
        assert await other.ping(bot_id) >= 0
        await other.close()
    finally:
        await answerer.close()
        await ws.close()


async def test_python_newcomer_offers_table_channel_audio_and_video(server: Server) -> None:
    ws = await server.ws()
    await send(ws, {"type": "create", "name": "Page"})
    joined = await recv(ws)
    newcomer = MeshPeer(server.ws_url, "Bot")
    try:
        await newcomer.join(joined["room"])
        assert (await recv(ws))["type"] == "peer-joined"
        offer = await recv(ws)
        assert offer["type"] == "signal" and offer["from"] == newcomer.id
        sdp = offer["data"]["sdp"]
        assert sdp["type"] == "offer"
        kinds = [line.split()[0][2:] for line in sdp["sdp"].splitlines() if line.startswith("m=")]
        assert sorted(kinds) == ["application", "audio", "video"]
        assert kinds.index("audio") < kinds.index("video")
        assert "a=sendrecv" in sdp["sdp"] and "a=candidate:" in sdp["sdp"]
    finally:
        await newcomer.close()
        await ws.close()
