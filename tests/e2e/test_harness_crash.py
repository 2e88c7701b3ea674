"""The harness tells a renderer crash while a page starts from a page that is just slow: the
crash is opened once more, recorded with how the renderer ended and what the browser printed, and
fails on a second crash."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import Error as PlaywrightError

from .harness import (
    BROWSER_LOG,
    CHROMIUM_ARGS,
    CRASHES,
    PLAYWRIGHT_DISABLED,
    PageCrashed,
    Player,
    chromium,
    chromium_binary,
    signaling_server,
)

pytestmark = pytest.mark.browser


async def crash_every_page(browser: Browser) -> None:
    """Crash each page of ``browser`` once it exists (Chrome DevTools' ``Page.crash``)."""
    crashed: list[Page] = []
    while True:
        for context in browser.contexts:
            for page in context.pages:
                if page not in crashed:
                    crashed.append(page)
                    session = await context.new_cdp_session(page)
                    with contextlib.suppress(PlaywrightError, asyncio.TimeoutError):
                        await asyncio.wait_for(session.send("Page.crash"), 2)
        await asyncio.sleep(0.05)


async def test_a_page_that_crashes_on_every_start_fails_after_one_retry() -> None:
    before = CRASHES.read_text(encoding="utf-8") if CRASHES.exists() else ""
    async with chromium() as browser:
        crasher = asyncio.create_task(crash_every_page(browser))
        try:
            with (
                pytest.warns(UserWarning, match="crashed while it started"),
                pytest.raises(PageCrashed, match="Аня: the page crashed while it started"),
            ):
                await Player.open(browser, "about:blank", "Аня", voice=False)
        finally:
            crasher.cancel()
    recorded = CRASHES.read_text(encoding="utf-8")[len(before) :]
    assert recorded.count("Аня: the page crashed") == 1  # the first crash; the second raised
    assert "renderer crashed (code 5)" in recorded, recorded  # SIGTRAP: a deliberate crash
    assert "SIGTRAP at chromium+0x" in recorded, recorded  # and where, from its minidump
    assert "MemAvailable" in recorded, recorded
    assert "pw:browser" in BROWSER_LOG.read_text(encoding="utf-8")  # the browser's stderr was kept


async def test_the_browser_keeps_playwrights_disabled_features_beside_ours() -> None:
    async with chromium() as browser:
        await browser.new_context()
    launches = [
        x for x in BROWSER_LOG.read_text(encoding="utf-8").splitlines() if "<launching>" in x
    ]
    switches = [arg for arg in launches[-1].split() if arg.startswith("--disable-features=")]
    last = set(switches[-1].removeprefix("--disable-features=").split(","))  # Chromium reads it
    assert "WebRtcHideLocalIpsWithMdns" in last
    assert set(PLAYWRIGHT_DISABLED) <= last
    assert {"HttpsUpgrades", "AimEnabled"} <= last  # read from the driver, not only our copy


async def kill_renderers_at(browser: Browser, ending: str) -> None:
    """SIGKILL every renderer of ``browser`` (as the kernel's OOM killer would) once its first
    page asks for a file whose address ends with ``ending``."""
    while not browser.contexts:  # listened to before its page asks for anything: a page's first
        await asyncio.sleep(0.005)  # files could be asked for before a poll for pages saw it
    await browser.contexts[0].wait_for_event(
        "request", lambda request: request.url.endswith(ending)
    )
    session = await browser.new_browser_cdp_session()
    processes = (await session.send("SystemInfo.getProcessInfo"))["processInfo"]
    for process in processes:
        if process["type"] == "renderer":
            with contextlib.suppress(ProcessLookupError):
                os.kill(process["id"], signal.SIGKILL)


# Killed while Pyodide's WebAssembly loads, and earlier, before the page's load event (while its
# first script loads): either way the page is opened again.
@pytest.mark.parametrize("ending", [".wasm", "/boot.js"])
async def test_a_page_killed_while_it_loads_is_recorded_as_killed_and_opened_again(
    ending: str,
) -> None:
    before = CRASHES.read_text(encoding="utf-8") if CRASHES.exists() else ""
    with signaling_server("--no-bots") as server:
        async with chromium() as browser:
            killer = asyncio.create_task(kill_renderers_at(browser, ending))
            try:
                with pytest.warns(UserWarning, match="crashed while it started"):
                    player = await Player.open(browser, server.origin + "/", "Боря", voice=False)
                await killer
            finally:
                killer.cancel()
            assert await player.page.evaluate("() => window.magicTable.ready")
    recorded = CRASHES.read_text(encoding="utf-8")[len(before) :]
    assert recorded.count("Боря: the page crashed") == 1, recorded
    assert "renderer killed (code 9)" in recorded, recorded  # SIGKILL, told apart from a crash


# Chromium's in-process heap profiler, forced on for every session with a fine sampling rate:
# this crashed every page that loaded Pyodide (docs/testing.md).
HEAP_PROFILING = (
    "--enable-features=HeapProfilerReporting:stable-probability/1.0/nonstable-probability/1.0"
    "/renderer-sampling-rate-bytes/10000"
)


async def renderers_that_profile_their_heap(args: list[str]) -> int:
    """How many renderers of a browser started with ``args`` were told to profile their heap."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_binary(), args=args)
        try:
            page = await browser.new_page()
            await page.goto("about:blank")
            session = await browser.new_browser_cdp_session()
            processes = (await session.send("SystemInfo.getProcessInfo"))["processInfo"]
            profiling = 0
            for process in processes:
                if process["type"] == "renderer":
                    # A child rewrites its title: its switches are one string, spaces between.
                    command = Path(f"/proc/{process['id']}/cmdline").read_bytes()
                    profiling += b"--subproc-heap-profiling" in command
            return profiling
        finally:
            await browser.close()


async def test_the_tests_browsers_never_run_the_heap_profiler_that_crashed_pages() -> None:
    ours = [*CHROMIUM_ARGS, HEAP_PROFILING]
    assert await renderers_that_profile_their_heap(ours) == 0
    # Without our switch the same forced setting reaches the renderers: the check can fail.
    without = [
        arg.replace(",HeapProfilerReporting", "") if arg.startswith("--disable-features=") else arg
        for arg in ours
    ]
    assert without != ours
    assert await renderers_that_profile_their_heap(without) >= 1
