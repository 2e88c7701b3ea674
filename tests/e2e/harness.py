"""Real parts for end-to-end tests: the signalling server, Debian's Chromium, aiortc peers.

Browser tests are meant to run inside a loopback-only network namespace (see README); nothing here
talks to any address but 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import playwright
from playwright.async_api import Browser, BrowserContext, Page, Request, async_playwright
from playwright.async_api import Error as PlaywrightError

from .crash_dumps import crashes_since

ROOT = Path(__file__).resolve().parents[2]
# The built site the tests serve: web/dist, or a copy named by MT_TEST_DIST (a run that must not
# see a rebuild of web/dist halfway).
DIST = Path(os.environ.get("MT_TEST_DIST") or ROOT / "web" / "dist")
# Why pages crashed ("Target crashed") while they loaded Pyodide, found from the minidumps the
# browser keeps (crash_dumps.py, docs/testing.md): every such crash was a SIGSEGV at one
# instruction, in the stack walk of Chromium's in-process sampling heap profiler (the
# HeapProfilerReporting feature, switched on for a random few browser sessions). Sampling an
# allocation while Pyodide starts, it walks the frame pointers and scans past the end of a stack
# into an unmapped page. Forced on, it crashed 4 pages of 4; DISABLED_FEATURES switches it off.
# Also chosen here, each for a reason of its own:
# - Debian's launcher: /usr/bin/chromium is a shell script that adds its own flags (forced GPU
#   rasterization, --load-extension) and runs a /dev/shm test that breaks in a namespace; the
#   tests start /usr/lib/chromium/chromium itself, with only the flags below.
# - Shared memory: Playwright passes --disable-dev-shm-usage (/tmp instead); it stays.
# - Chromium reads only the last --disable-features switch, so CHROMIUM_ARGS holds Playwright's
#   list and ours in one.
# - `Player.open` waits for a page's warm-up imports, so at most one page is loading at a time.
# A page whose renderer still dies while it starts is opened once more and the crash is recorded
# in CRASHES with how the renderer ended (TERMINATIONS) and where (its minidump); a second crash,
# or a crash later in a test, fails the test.
# Playwright's own list (playwright-core's chromiumSwitches), kept when ours is added: read from
# the installed driver, so an upgrade that disables more is followed (the copy is the fallback).
PLAYWRIGHT_DISABLED_COPY = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
]


def playwright_disabled_features() -> list[str]:
    """The features Playwright's driver disables in Chromium (its ``disabledFeatures`` list)."""
    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    with contextlib.suppress(OSError):
        found = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(), re.DOTALL)
        if found:
            code = re.sub(r"//[^\n]*", "", found.group(1))
            names = re.findall(r'"(\w+)"', code)
            if names:
                return names
    return PLAYWRIGHT_DISABLED_COPY


PLAYWRIGHT_DISABLED = playwright_disabled_features()
DISABLED_FEATURES = ["WebRtcHideLocalIpsWithMdns", "HeapProfilerReporting"]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--allow-loopback-in-peer-connection",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
    "--disable-features=" + ",".join([*PLAYWRIGHT_DISABLED, *DISABLED_FEATURES]),  # the last one
]
READY = "() => window.magicTable && window.magicTable.ready"
WARMED = """() => window.magicTable.pyodide.runPython(
  "import sys; all(m in sys.modules for m in ('web.ui.table', 'web.ui.pages'))")"""

ARTIFACTS = ROOT / "test-artifacts"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A running ``python -m signaling`` process serving ``web/dist``."""

    process: subprocess.Popen[str]
    port: int
    command: list[str] = field(default_factory=list)

    def kill(self) -> None:
        """Kill the process at once (SIGKILL: no close frames, rooms lost with its memory)."""
        self.process.kill()
        self.process.wait(timeout=10)

    def restart(self) -> None:
        """Start the same server again on the same port (an empty, in-memory one)."""
        self.process = subprocess.Popen(self.command, cwd=ROOT, text=True)
        wait_healthy(self.port, self.process)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


def wait_healthy(port: int, process: subprocess.Popen[str]) -> None:
    """Wait until the server on ``port`` answers ``/healthz``."""
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the signalling server did not start") from None
            time.sleep(0.1)


@contextlib.contextmanager
def signaling_server(*extra: str) -> Iterator[Server]:
    """Start the real signalling server on a free loopback port and stop it afterwards."""
    if not (DIST / "index.html").is_file():
        raise RuntimeError("web/dist is missing: run `python -m web.build` before the tests")
    port = free_port()
    command = [sys.executable, "-m", "signaling", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--static", str(DIST), "--log-level", "WARNING", *extra]
    server = Server(subprocess.Popen(command, cwd=ROOT, text=True), port, command)
    try:
        wait_healthy(port, server.process)
        yield server
    finally:
        server.process.terminate()
        server.process.wait(timeout=10)


def chromium_binary() -> str:
    """Debian's Chromium itself, not its /usr/bin/chromium launcher script (see the top)."""
    binary = Path("/usr/lib/chromium/chromium")
    if binary.is_file() and os.access(binary, os.X_OK):
        return str(binary)
    executable = shutil.which("chromium")
    if executable is None:
        raise RuntimeError("chromium is not installed: `apt-get install chromium`")
    return executable


# What the browsers print on stderr (Playwright's `pw:browser` log), for the cause of a crash.
BROWSER_LOG = ARTIFACTS / "browser-stderr.log"
_browser_log_started: list[bool] = []
NOISE = ("dbus", "CONSOLE", "Slow network", "Floss", "ScreenSaver", "UPower")


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """Debian's Chromium, headless, with fake media and loopback WebRTC allowed. Its stderr goes to
    ``BROWSER_LOG`` (the driver process inherits the stderr and environment it starts with)."""
    executable = chromium_binary()
    ARTIFACTS.mkdir(exist_ok=True)
    with BROWSER_LOG.open("a" if _browser_log_started else "w", encoding="utf-8") as log:
        _browser_log_started.append(True)  # one log per test run
        saved = os.environ.get("DEBUG")
        os.environ["DEBUG"] = "pw:browser"
        try:
            with contextlib.redirect_stderr(log):
                manager = async_playwright()
                playwright = await manager.__aenter__()
        finally:
            if saved is None:
                del os.environ["DEBUG"]
            else:
                os.environ["DEBUG"] = saved
        try:
            browser = await playwright.chromium.launch(
                executable_path=executable, args=CHROMIUM_ARGS
            )
            try:
                await watch_renderers(browser)
                yield browser
            finally:
                await browser.close()
        finally:
            await manager.__aexit__(None, None, None)


def browser_log_tail(lines: int = 25) -> str:
    """The last lines the browsers printed, without the start-up noise of a machine with no
    D-Bus: what a crash report shows."""
    if not BROWSER_LOG.exists():
        return ""
    text = BROWSER_LOG.read_text(encoding="utf-8", errors="replace").splitlines()
    kept = [line for line in text if not any(word in line for word in NOISE)]
    return "\n".join(kept[-lines:])


CRASHES = ARTIFACTS / "page-crashes.txt"
# How each renderer of the tests' browsers ended when it did not end normally, as the browser
# reports it (DevTools' Target.targetCrashed): "killed" with the signal (9: SIGKILL, the kernel's
# OOM killer or someone's kill), "crashed" with the signal (5: SIGTRAP, a CHECK or V8's fatal
# error; 11: SIGSEGV), "oom" (an allocation failed), each with the machine's memory at that time.
TERMINATIONS: list[str] = []


def memory_note() -> str:
    """The machine's available memory, load, and its Chromium renderers' resident memory."""
    meminfo = dict(
        line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines() if ":" in line
    )
    rss = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if proc.name.isdigit() and b"--type=renderer" in (proc / "cmdline").read_bytes():
                found = re.search(r"VmRSS:\s+(\d+)", (proc / "status").read_text())
                rss.append(int(found.group(1)) // 1024 if found else 0)
    load = Path("/proc/loadavg").read_text().split()[:3]
    return (
        f"MemAvailable {meminfo['MemAvailable'].strip()}, load {' '.join(load)}, "
        f"{len(rss)} renderers on the machine (RSS {sum(rss)} MB, largest {max(rss, default=0)} MB)"
    )


async def watch_renderers(browser: Browser) -> None:
    """Record in ``TERMINATIONS`` how each of ``browser``'s renderers that died ended."""
    session = await browser.new_browser_cdp_session()

    def crashed(event: dict[str, Any]) -> None:
        status, code = event.get("status"), event.get("errorCode")
        TERMINATIONS.append(
            f"{time.strftime('%H:%M:%S')} renderer {status} (code {code}); {memory_note()}"
        )

    session.on("Target.targetCrashed", crashed)
    await session.send("Target.setDiscoverTargets", {"discover": True})


class PageCrashed(AssertionError):
    """A page's renderer died ("Target crashed"); the message carries the browser's last lines."""


@dataclass
class Player:
    """One browser context with one page of the site, and everything it asked the network for."""

    context: BrowserContext
    page: Page
    name: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # the loads that failed, with why
    since: int = 0  # the renderer terminations recorded before this page opened
    opened_at: float = field(default_factory=time.time)

    @classmethod
    async def open(
        cls,
        browser: Browser,
        url: str,
        name: str,
        *,
        voice: bool = True,
        viewport: Any = None,
        relay: bool = False,
        snapshot: bool = False,
        **options: Any,
    ) -> Player:
        """A fresh context (its own storage; ``options`` go to ``new_context``), no ICE servers of
        its own, optional voice, only TURN relays if ``relay``, at ``url``. The interpreter
        snapshot a first visit makes in a worker (``web/static/snapshot.js``) is off unless
        ``snapshot``: it would add a second Python start to every page of every test.

        A page whose renderer crashes while it starts is opened once more in a fresh context,
        and the crash is recorded with what the browser printed and where it crashed
        (``CRASHES``; see the top of this file). A second crash, or a crash later in a test,
        fails the test."""
        try:
            return await cls._open(browser, url, name, voice, viewport, relay, snapshot, options)
        except PageCrashed as crash:
            ARTIFACTS.mkdir(exist_ok=True)
            with CRASHES.open("a", encoding="utf-8") as record:
                record.write(f"{time.strftime('%H:%M:%S')} {crash}\n")
            warnings.warn(f"{name}: the page crashed while it started; opened again", stacklevel=2)
        return await cls._open(browser, url, name, voice, viewport, relay, snapshot, options)

    @classmethod
    async def _open(
        cls,
        browser: Browser,
        url: str,
        name: str,
        voice: bool,
        viewport: Any,
        relay: bool,
        snapshot: bool,
        options: dict[str, Any],
    ) -> Player:
        context = await browser.new_context(viewport=viewport, **options)
        settings = {"mt.ice": "[]", "mt.voice": "on" if voice else "off"}
        settings["mt.snapshot"] = "on" if snapshot else "off"
        if relay:
            settings["mt.relay"] = "on"
        await context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(settings)}))"
            " localStorage.setItem(k, v);"
        )
        page = await context.new_page()
        player = cls(context, page, name, since=len(TERMINATIONS))
        page.on("request", player._on_request)
        page.on("requestfailed", player._on_failed)
        page.on("websocket", lambda ws: player.requests.append(ws.url))
        page.on("pageerror", lambda error: player.errors.append(f"pageerror: {error}"))
        page.on("crash", lambda _page: player.errors.append(f"crash: the page of {name} crashed"))
        page.on("console", player._on_console)
        try:
            await player.wait_ready(url)
        except PageCrashed:
            with contextlib.suppress(PlaywrightError):
                await context.close()
            raise
        return player

    def _on_request(self, request: Request) -> None:
        self.requests.append(request.url)

    def _on_failed(self, request: Request) -> None:
        self.failed.append(f"{request.url} {request.failure}")

    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    async def wait_ready(self, url: str | None = None) -> None:
        """Until the page (at ``url``, when given) is interactive and has imported what it warms
        up after that (so the next page does not load while this one is still at its memory
        peak). A renderer that dies on the way, even before the page's load event, is
        ``PageCrashed``."""
        try:
            if url is not None:
                await self.page.goto(url)
            await self.page.wait_for_function(READY, timeout=90_000)
            await self.page.wait_for_function(WARMED, timeout=90_000, polling=250)
        except PlaywrightError as error:
            if any(e.startswith("crash:") for e in self.errors) or "crashed" in str(error):
                for _ in range(20):  # the browser's word of how the renderer ended follows,
                    if len(TERMINATIONS) > self.since and crashes_since(self.opened_at):
                        break  # and the crash handler's minidump
                    await asyncio.sleep(0.1)
                raise PageCrashed(
                    f"{self.name}: the page crashed while it started: {self.errors}\n"
                    f"how its browser's renderers ended: {TERMINATIONS[self.since :]}\n"
                    f"where (minidumps): {[str(c) for c in crashes_since(self.opened_at)]}\n"
                    f"the browser's last words:\n{browser_log_tail()}"
                ) from error
            raise AssertionError(f"{self.name}: the page did not start: {self.errors}") from error

    async def create_room(self) -> str:
        await self.page.fill("#name", self.name)
        await self.page.click("#create")
        await self.page.wait_for_selector("#room-code", timeout=20_000)
        return (await self.page.inner_text("#room-code")).strip()

    async def join_room(self, code: str) -> None:
        await self.page.fill("#name", self.name)
        await self.page.fill("#code", code)
        await self.page.click("#join")
        await self.page.wait_for_selector("#room-code", timeout=20_000)

    async def say(self, text: str) -> None:
        await self.page.fill("#chat-input", text)
        await self.page.press("#chat-input", "Enter")

    async def chat_text(self) -> str:
        return await self.page.inner_text("#chat-log")

    async def mesh_debug(self) -> dict[str, Any]:
        return dict(await self.page.evaluate("() => window.magicTableApp.mesh.debug()"))

    async def wait_open_channels(self, count: int, timeout: float = 30) -> None:
        """Poll until ``count`` peers have an open data channel; dump the mesh on failure."""
        deadline = time.monotonic() + timeout
        while True:
            debug = await self.mesh_debug()
            if sum(1 for peer in debug.values() if peer["channel"] == "open") >= count:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: channels not open: {debug}")
            await asyncio.sleep(0.2)

    async def wait_chat(self, needle: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while needle not in await self.chat_text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} never saw {needle!r}: {await self.chat_text()}")
            await asyncio.sleep(0.1)

    async def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        await self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


async def stage_of(player: Player) -> str:
    """The table stage the page shows (``""`` before a table opens)."""
    element = await player.page.query_selector("#table-status")
    return str(await element.get_attribute("data-stage")) if element else ""


async def click_until(players: list[Player], done: set[str], timeout: float = 120) -> None:
    """Each page clicks its first offered move until every page's table stage is in ``done``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        stages = [await stage_of(p) for p in players]
        if all(stage in done for stage in stages):
            return
        if loop.time() > deadline:
            raise AssertionError(f"tables stuck at {stages}")
        for player in players:
            button = player.page.locator("#moves button").first
            if await button.count():
                with contextlib.suppress(PlaywrightError):  # the move may just have been made
                    await button.click(timeout=1000)
        await asyncio.sleep(0.2)


class PythonPeer:
    """``python -m signaling.peer`` as a subprocess, its stdout lines collected."""

    def __init__(self, server: Server, *args: str) -> None:
        command = [sys.executable, "-u", "-m", "signaling.peer", "--server", server.ws_url, *args]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env
        )
        self._reader = asyncio.get_running_loop().run_in_executor(None, self._read)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    async def wait_line(self, needle: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while True:
            for line in list(self.lines):
                if needle in line:
                    return line
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"peer never printed {needle!r}: {self.lines}")
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()
        await self._reader
