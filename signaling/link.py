"""One WebRTC link of the mesh: a peer connection, its "table" data channel and media sinks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiortc import (
    MediaStreamTrack,
    RTCConfiguration,
    RTCDataChannel,
    RTCIceCandidate,
    RTCIceServer,
    RTCPeerConnection,
    RTCSessionDescription,
)
from aiortc.contrib.media import MediaBlackhole
from aiortc.sdp import candidate_from_sdp

log = logging.getLogger(__name__)

CHANNEL_LABEL = "table"
SendSignal = Callable[[str, dict[str, Any]], Awaitable[None]]
OnData = Callable[["PeerLink", str], None]
OnChange = Callable[["PeerLink"], None]


def parse_candidate(data: Any) -> RTCIceCandidate | None:
    """A browser's trickled candidate, or None for the end-of-candidates marker."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("candidate must be an object or null")
    line = data.get("candidate")
    if not isinstance(line, str):
        raise ValueError("candidate.candidate must be a string")
    if line.startswith("a="):
        line = line[2:]
    if line.startswith("candidate:"):
        line = line[len("candidate:") :]
    if not line.strip():
        return None
    try:
        candidate = candidate_from_sdp(line)
    except (AssertionError, ValueError, IndexError) as exc:
        raise ValueError(f"malformed candidate {line[:80]!r}") from exc
    mid = data.get("sdpMid")
    index = data.get("sdpMLineIndex")
    candidate.sdpMid = mid if isinstance(mid, str) else None
    candidate.sdpMLineIndex = index if isinstance(index, int) else None
    if candidate.sdpMid is None and candidate.sdpMLineIndex is None:
        candidate.sdpMLineIndex = 0
    return candidate


@dataclass
class PeerLink:
    """The link to one remote peer, as seen by the local MeshPeer."""

    id: str
    name: str
    role: str
    order: int
    offerer: bool
    pc: RTCPeerConnection
    send_signal: SendSignal
    on_data: OnData
    on_change: OnChange
    channel: RTCDataChannel | None = None
    hello: dict[str, Any] | None = None
    said_hello: bool = False
    closed: bool = False
    pending: list[RTCIceCandidate] = field(default_factory=list)
    inbox: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    sink: MediaBlackhole = field(default_factory=MediaBlackhole)
    worker: asyncio.Task[None] | None = None

    @classmethod
    def open(
        cls,
        peer: dict[str, Any],
        offerer: bool,
        ice_servers: list[RTCIceServer],
        send_signal: SendSignal,
        on_data: OnData,
        on_change: OnChange,
    ) -> PeerLink:
        """Create the link and start its signal worker (the offerer also sends its offer)."""
        pc = RTCPeerConnection(RTCConfiguration(iceServers=ice_servers))
        link = cls(
            id=str(peer["id"]),
            name=str(peer.get("name", "")),
            role=str(peer.get("role", "player")),
            order=int(peer.get("order", 0)),
            offerer=offerer,
            pc=pc,
            send_signal=send_signal,
            on_data=on_data,
            on_change=on_change,
        )
        pc.on("datachannel", link._adopt_channel)
        pc.on("track", link._on_track)
        pc.on("connectionstatechange", lambda: link.on_change(link))
        link.worker = asyncio.create_task(link._run(), name=f"link-{link.id}")
        if offerer:
            link.inbox.put_nowait("offer")
        return link

    @property
    def state(self) -> str:
        """ "open" once the data channel is open, else the peer connection state."""
        if self.closed:
            return "closed"
        if self.channel is not None and self.channel.readyState == "open":
            return "open"
        return str(self.pc.connectionState)

    @property
    def ready(self) -> bool:
        """The channel is open and the remote peer has said hello."""
        return self.state == "open" and self.hello is not None

    def signal(self, data: Any) -> None:
        """Queue a signal from this peer for the worker."""
        self.inbox.put_nowait(data)

    def send_text(self, text: str) -> bool:
        """Send on the data channel; False when it is not open."""
        if self.channel is None or self.channel.readyState != "open":
            return False
        self.channel.send(text)
        return True

    async def close(self) -> None:
        """Stop everything of this link."""
        if self.closed:
            return
        self.closed = True
        if self.worker is not None:
            self.worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.worker
        with contextlib.suppress(Exception):
            await self.sink.stop()
        await self.pc.close()
        self.on_change(self)

    async def _run(self) -> None:
        """Apply signals one at a time, in arrival order."""
        while True:
            item = await self.inbox.get()
            try:
                if item == "offer":
                    await self._make_offer()
                else:
                    await self._apply(item)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("signal from %s (%s) failed", self.name, self.id)

    async def _make_offer(self) -> None:
        """Offerer: data channel "table", then audio and video transceivers, then the offer."""
        self._adopt_channel(self.pc.createDataChannel(CHANNEL_LABEL, ordered=True))
        self.pc.addTransceiver("audio", direction="sendrecv")
        self.pc.addTransceiver("video", direction="sendrecv")
        await self.pc.setLocalDescription(await self.pc.createOffer())
        await self._send_description()

    async def _send_description(self) -> None:
        """Send the local description (aiortc's SDP already carries its candidates)."""
        desc = self.pc.localDescription
        await self.send_signal(self.id, {"sdp": {"type": desc.type, "sdp": desc.sdp}})

    async def _apply(self, data: Any) -> None:
        """Apply one signal: a description or a candidate."""
        if not isinstance(data, dict):
            raise ValueError(f"signal data must be an object, got {type(data).__name__}")
        if "sdp" in data:
            sdp = data["sdp"]
            if not isinstance(sdp, dict) or sdp.get("type") not in ("offer", "answer"):
                raise ValueError("sdp must be {type: offer|answer, sdp}")
            if not isinstance(sdp.get("sdp"), str):
                raise ValueError("sdp.sdp must be a string")
            await self.pc.setRemoteDescription(RTCSessionDescription(sdp["sdp"], sdp["type"]))
            for queued in self.pending:
                await self.pc.addIceCandidate(queued)
            self.pending.clear()
            if sdp["type"] == "offer":
                await self.pc.setLocalDescription(await self.pc.createAnswer())
                await self._send_description()
        elif "candidate" in data:
            candidate = parse_candidate(data["candidate"])
            if candidate is None:
                return
            if self.pc.remoteDescription is None:
                self.pending.append(candidate)
            else:
                await self.pc.addIceCandidate(candidate)
        else:
            raise ValueError("signal data has neither sdp nor candidate")

    def _adopt_channel(self, channel: RTCDataChannel) -> None:
        """Use the "table" channel (ours or the offerer's)."""
        if channel.label != CHANNEL_LABEL:
            log.info("ignoring data channel %r from %s", channel.label, self.id)
            return
        self.channel = channel
        channel.on("message", lambda message: self._on_message(message))
        channel.on("close", lambda: self.on_change(self))
        if channel.readyState == "open":
            self._on_open()
        else:
            channel.on("open", self._on_open)

    def _on_open(self) -> None:
        """The channel opened: let the mesh say hello."""
        self.on_change(self)

    def _on_message(self, message: str | bytes) -> None:
        """Pass text to the mesh; binary is not part of the protocol."""
        if isinstance(message, bytes):
            log.warning("binary data-channel message from %s ignored", self.id)
            return
        self.on_data(self, message)

    def _on_track(self, track: MediaStreamTrack) -> None:
        """Consume remote audio/video without playing it."""
        self.sink.addTrack(track)
        task = asyncio.ensure_future(self.sink.start())
        task.add_done_callback(lambda _: None)


def encode(obj: dict[str, Any]) -> str:
    """A data-channel message as compact JSON."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
