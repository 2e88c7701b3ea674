"""Short sound effects synthesised with Web Audio (no sound files), with a volume kept across
reloads. Runs only under Pyodide; the browser's AudioContext is made once the page has joined a
room and is idle (``prepare``), and suspended while no sound plays (a running context keeps the
audio device busy with silence, a thread of the page and one of the browser); an effect resumes it.

Each effect is synthesised once, off the page's thread (an ``OfflineAudioContext``), into a
buffer, one effect each time the page is idle after it joined a room; it is then one buffer
source played through the volume's gain (an effect not synthesised yet is built live, and
synthesised). Building its voices live took ten Web Audio calls a voice from the page's thread:
a roll of the dice (six voices) 1–2 ms at the median in a «Схватка» fight, and up to 13–40 ms.

Spectators start silent (volume 0) until they choose a volume; players start at a low volume.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from js import localStorage, setTimeout, window
from pyodide.ffi import create_once_callable, to_js

from .idle import when_idle

VOLUME_KEY = "mt.volume"
PLAYER_VOLUME = 0.4
QUIET_S = 1.0  # the context is suspended this long after its last sound has ended
PREPARE_WAIT_MS = 2000  # ``prepare``: the longest each piece waits for the page to be idle
# Each effect is a few voices: (waveform or "noise", start Hz, end Hz, start s, length s, gain).
RECIPES: dict[str, list[tuple[str, float, float, float, float, float]]] = {
    "cast": [("triangle", 320, 960, 0, 0.32, 0.5), ("sine", 640, 1920, 0.05, 0.28, 0.25)],
    "hit": [("square", 150, 55, 0, 0.16, 0.45), ("noise", 0, 0, 0, 0.08, 0.35)],
    "heal": [("sine", 660, 660, 0, 0.14, 0.35), ("sine", 990, 990, 0.12, 0.2, 0.3)],
    "death": [("sawtooth", 420, 70, 0, 0.9, 0.35), ("sine", 210, 50, 0.1, 0.9, 0.3)],
    "wind": [("noise", 0, 0, 0, 0.55, 0.5)],
    "raven": [("square", 720, 480, 0, 0.13, 0.3), ("square", 700, 450, 0.2, 0.15, 0.3)],
    "dice": [("noise", 0, 0, t / 20, 0.03, 0.5) for t in range(6)],
    "vp": [("sine", 988, 988, 0, 0.09, 0.3), ("sine", 1319, 1319, 0.08, 0.22, 0.3)],
    "called": [("triangle", 520, 780, 0, 0.25, 0.4)],
}
MOMENT_SOUNDS = {
    "reveal": "cast",
    "hit": "hit",
    "heal": "heal",
    "death": "death",
    "fly": "wind",
    "dispel": "wind",
    "pass": "wind",
    "raven": "raven",
    "human": "heal",
    "vp": "vp",
    "called": "called",
    "dice": "dice",
    "palace": "vp",
}


def duration(name: str) -> float:
    """Seconds from an effect's start to the end of its last voice (and a little silence)."""
    return max(at + length for _, _, _, at, length, _ in RECIPES[name]) + 0.02


def stored_volume(spectator: bool) -> float:
    """The volume this browser chose (0–1), else the default for a player or a spectator."""
    text = localStorage.getItem(VOLUME_KEY)
    try:
        value = float(text) if text else (0.0 if spectator else PLAYER_VOLUME)
    except ValueError:
        value = 0.0 if spectator else PLAYER_VOLUME
    return min(1.0, max(0.0, value))


class Sound:
    """The page's effects: ``play(kind)`` at the stored volume (silent at 0)."""

    def __init__(self, spectator: bool = False) -> None:
        self.volume = stored_volume(spectator)
        self._before_mute = self.volume or PLAYER_VOLUME
        self._ctx: Any = None
        self._volume_gain: Any = None  # the live context's gain at ``volume``, before its output
        self._noise: Any = None
        self._buffers: dict[str, Any] = {}  # each effect once synthesised (``_render``)
        self._rendering: set[str] = set()
        self._quiet_at = 0.0  # the context's time when its last sound has ended
        self.played: list[str] = []  # what was played, for the page's own checks
        self._prepared = False  # ``prepare`` has been asked

    def set_volume(self, value: float) -> None:
        """Set and keep the volume (0 mutes)."""
        self.volume = min(1.0, max(0.0, value))
        if self.volume:
            self._before_mute = self.volume
        if self._volume_gain is not None:
            self._volume_gain.gain.value = self.volume
        localStorage.setItem(VOLUME_KEY, f"{self.volume:.2f}")
        self.prepare()

    def toggle(self) -> None:
        """Mute, or back to the volume before muting."""
        self.set_volume(0.0 if self.volume else self._before_mute)

    def context(self) -> Any:
        """The audio context, running (resumed if it was suspended); None without Web Audio."""
        ctx = self._made_context()
        if ctx is not None and str(ctx.state) == "suspended":
            ctx.resume()
        return ctx

    def _made_context(self) -> Any:
        if self._ctx is None:
            factory = getattr(window, "AudioContext", None) or getattr(
                window, "webkitAudioContext", None
            )
            if factory is None:
                return None
            self._ctx = factory.new()
            self._volume_gain = self._ctx.createGain()
            self._volume_gain.gain.value = self.volume
            self._volume_gain.connect(self._ctx.destination)
        return self._ctx

    def prepare(self) -> None:
        """Make the audio context, the noise and every effect's buffer before the first effects,
        one piece each time the page is idle (nothing when muted: ``set_volume`` asks again).
        A game's first effects made them all in one task: 42–74 ms on every page."""
        if self._prepared or self.volume <= 0:
            return
        self._prepared = True
        pieces: list[Callable[[Any], object]] = [self._hold, self._noise_buffer]
        pieces += [partial(self._render, name=name) for name in RECIPES]

        def step() -> None:
            ctx = self._made_context()
            if ctx is None:
                return
            pieces.pop(0)(ctx)
            if pieces:
                when_idle(step, PREPARE_WAIT_MS)

        when_idle(step, PREPARE_WAIT_MS)

    def _hold(self, ctx: Any) -> None:
        """A context just made runs (and keeps the audio device busy): silent until an effect."""
        if str(ctx.state) == "running" and not self.played:
            ctx.suspend()

    def moment(self, kind: str) -> None:
        """The sound for one of ``web.ui.moments``' kinds, if it has one."""
        name = MOMENT_SOUNDS.get(kind)
        if name:
            self.play(name)

    def play(self, name: str) -> None:
        """One effect, now (nothing when muted or when the browser has no Web Audio)."""
        if self.volume <= 0 or name not in RECIPES:
            return
        ctx = self.context()
        if ctx is None:
            return
        self.played.append(name)
        now = float(ctx.currentTime)
        buffer = self._buffers.get(name)
        if buffer is not None:
            source = ctx.createBufferSource()
            source.buffer = buffer
            source.connect(self._volume_gain)
            source.start()
        else:  # its first time: live, while it is synthesised for the next
            for kind, start, end, at, length, gain in RECIPES[name]:
                self._voice(ctx, self._volume_gain, kind, start, end, now + at, length, gain)
            self._render(ctx, name)
        ends = now + duration(name)
        self._quiet_at = max(self._quiet_at, ends)
        later = (self._quiet_at - now + QUIET_S) * 1000
        setTimeout(create_once_callable(self._suspend_if_quiet), round(later))

    def _suspend_if_quiet(self) -> None:
        """Suspend the context once its time is half ``QUIET_S`` past its last sound's end (a
        sound started meanwhile moved that end and planned a later check)."""
        ctx = self._ctx
        running = ctx is not None and str(ctx.state) == "running"
        if running and float(ctx.currentTime) >= self._quiet_at + QUIET_S * 0.5:
            ctx.suspend()

    def _render(self, ctx: Any, name: str) -> None:
        """Synthesise ``name`` into a buffer off the page's thread, kept for its next plays
        (nothing where the browser has no ``OfflineAudioContext``)."""
        offline_factory = getattr(window, "OfflineAudioContext", None)
        if offline_factory is None or name in self._rendering:
            return
        self._rendering.add(name)
        rate = int(ctx.sampleRate)
        offline = offline_factory.new(1, max(1, round(duration(name) * rate)), rate)
        for kind, start, end, at, length, gain in RECIPES[name]:
            self._voice(offline, offline.destination, kind, start, end, at, length, gain)

        def rendered(buffer: Any) -> None:
            self._buffers[name] = buffer

        offline.startRendering().then(create_once_callable(rendered))

    def _voice(
        self,
        ctx: Any,
        out: Any,
        kind: str,
        start: float,
        end: float,
        at: float,
        length: float,
        gain: float,
    ) -> None:
        """One voice of an effect on ``ctx``, into ``out``, from ``at`` (s) for ``length``."""
        amp = ctx.createGain()
        amp.gain.setValueAtTime(0.0001, at)
        amp.gain.exponentialRampToValueAtTime(max(0.0002, gain), at + 0.01)
        amp.gain.exponentialRampToValueAtTime(0.0001, at + length)
        amp.connect(out)
        if kind == "noise":
            source = ctx.createBufferSource()
            source.buffer = self._noise_buffer(ctx)
            source.loop = True  # a tenth of a second of noise, looped for longer sounds
            band = ctx.createBiquadFilter()
            band.type = "bandpass"
            band.frequency.value = 900
            source.connect(band)
            band.connect(amp)
        else:
            source = ctx.createOscillator()
            source.type = kind
            source.frequency.setValueAtTime(start, at)
            source.frequency.exponentialRampToValueAtTime(max(1.0, end), at + length)
            source.connect(amp)
        source.start(at)
        source.stop(at + length + 0.02)

    def _noise_buffer(self, ctx: Any) -> Any:
        """White noise, made once: a tenth of a second (a half took one 70 ms task to make)."""
        if self._noise is None:
            rate = int(ctx.sampleRate)
            buffer = ctx.createBuffer(1, rate // 10, rate)
            samples = [random.uniform(-1, 1) for _ in range(rate // 10)]
            buffer.getChannelData(0).set(to_js(samples))
            self._noise = buffer
        return self._noise
