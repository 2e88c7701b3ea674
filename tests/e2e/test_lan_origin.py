"""LAN play in Chromium: which origins are secure contexts, what a non-secure page says and does,
and the HTTPS page served with the generated certificate.

A non-secure origin is had without leaving loopback: Chromium maps the name ``magic.test`` to
127.0.0.1 (``--host-resolver-rules``), and ``http://magic.test:PORT`` is not potentially
trustworthy, as a LAN address is not. Such a page shows the «not secure» message with the
``https://`` address, its Python finds no WebCrypto and picks the pure-Python backend, and it
still plays «Проба» to a clean audit with a secure page (WebCrypto) at the same table.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from .harness import (
    CHROMIUM_ARGS,
    DIST,
    ROOT,
    Player,
    click_until,
    free_port,
    signaling_server,
)
from .rumble_driver import setup_lobby

pytestmark = pytest.mark.browser

NAME = "magic.test"
SECURITY = """() => ({
  secure: window.isSecureContext,
  subtle: typeof (window.crypto && window.crypto.subtle),
  media: typeof navigator.mediaDevices,
})"""
BACKENDS = """async () => await window.magicTable.pyodide.runPythonAsync(`
from engine.fairness.backends import available_backends, select_backend
names = [b.name for b in available_backends()]
chosen = (await select_backend()).name
",".join(names) + "|" + chosen
`)"""


@contextlib.asynccontextmanager
async def chromium_mapping() -> AsyncIterator[Browser]:
    """Debian's Chromium, headless, with ``magic.test`` resolved to 127.0.0.1 (no DNS)."""
    executable = shutil.which("chromium")
    if executable is None:
        raise RuntimeError("chromium is not installed: `apt-get install chromium`")
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, args=args)
        try:
            yield browser
        finally:
            await browser.close()


@contextlib.contextmanager
def tls_server(data_home: Path, *extra: str) -> Iterator[tuple[int, str]]:
    """``python -m signaling --tls on`` on 127.0.0.1; yields its port and printed fingerprint."""
    if not (DIST / "index.html").is_file():
        raise RuntimeError("web/dist is missing: run `python -m web.build` before the tests")
    command = [sys.executable, "-m", "signaling", "--host", "127.0.0.1", "--port", "0"]
    command += ["--tls", "on", "--log-level", "WARNING", *extra]
    env = dict(os.environ, XDG_DATA_HOME=str(data_home), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(command, cwd=ROOT, text=True, env=env, stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.match(r"^serving .* at https://127\.0\.0\.1:(\d+)/$", first.strip())
        assert found, f"no https serving line: {first!r}"
        fingerprint = ""
        while not fingerprint:
            line = process.stdout.readline()
            assert line, "the server printed no fingerprint"
            if line.startswith("SHA-256 fingerprint "):
                fingerprint = line.split()[-1]
        yield int(found[1]), fingerprint
    finally:
        process.terminate()
        process.wait(timeout=10)


async def test_which_loopback_origins_chromium_counts_as_secure() -> None:
    """Measured, not assumed: localhost and all of 127.0.0.0/8 are potentially trustworthy in
    Chromium; a name that merely resolves to 127.0.0.1 is not (as a LAN address is not)."""
    port = free_port()
    command = [sys.executable, "-m", "signaling", "--host", "127.0.0.2", "--port", str(port)]
    command += ["--no-bots", "--log-level", "WARNING"]
    other = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None
        assert other.stdout.readline().startswith("serving "), "the 127.0.0.2 server did not start"
        with signaling_server() as server:
            async with chromium_mapping() as browser:
                page = await browser.new_page()
                seen = {}
                for origin in (
                    f"http://127.0.0.1:{server.port}",
                    f"http://localhost:{server.port}",
                    f"http://127.0.0.2:{port}",
                    f"http://{NAME}:{server.port}",
                ):
                    await page.goto(origin + "/healthz")
                    seen[origin] = await page.evaluate(SECURITY)
                secure = {origin for origin, s in seen.items() if s["secure"]}
                assert secure == set(list(seen)[:3]), seen
                for origin, s in seen.items():
                    want = "object" if s["secure"] else "undefined"
                    assert s["subtle"] == want and s["media"] == want, (origin, s)
    finally:
        other.terminate()
        other.wait(timeout=10)


async def test_a_non_secure_page_says_what_to_do_and_plays_with_pure_python_crypto() -> None:
    with signaling_server() as server:
        async with chromium_mapping() as browser:
            lan = await Player.open(browser, f"http://{NAME}:{server.port}/", "Боря", voice=False)
            page = lan.page
            assert await page.evaluate(SECURITY) == {
                "secure": False,
                "subtle": "undefined",
                "media": "undefined",
            }
            assert await page.evaluate("() => window.magicTable.secure") is False
            message = page.locator("#insecure")
            assert await message.is_visible()
            text = await message.inner_text()
            assert "https://" in text and "сертификат" in text, text
            link = f"https://{NAME}:{server.port}/"
            shown = page.locator("#insecure [lang=ru] .insecure-link")
            assert await shown.get_attribute("href") == link
            assert (await shown.inner_text()).strip() == link
            assert not await page.locator("#insecure [lang=en]").is_visible()
            # The engine sees no WebCrypto and falls back to pure Python.
            names, chosen = (await page.evaluate(BACKENDS)).split("|")
            assert "webcrypto" not in names.split(","), names
            assert chosen == "pure", (names, chosen)
            await lan.screenshot("lan-origin-not-secure")
            # In English when the page is (the language chosen last time is kept).
            await page.evaluate("() => localStorage.setItem('mt.lang', 'en')")
            await page.reload()
            await lan.wait_ready()
            english = page.locator("#insecure [lang=en]")
            assert await english.is_visible()
            assert not await page.locator("#insecure [lang=ru]").is_visible()
            assert "https://" in await english.inner_text()
            assert (await english.locator(".insecure-link").inner_text()).strip() == link

            # A secure page (WebCrypto) and the non-secure one play «Проба» together.
            home = await Player.open(browser, f"{server.origin}/", "Аня", voice=False)
            assert not await home.page.locator("#insecure").is_visible()
            code = await home.create_room()
            await lan.join_room(code)
            players = [home, lan]
            for player in players:
                await player.wait_open_channels(1)
            await setup_lobby(players)
            host = home.page
            # Generous waits: the pure-Python page is slow on a busy machine (nothing is timed).
            await host.wait_for_selector("#open-table:not([disabled])", timeout=90_000)
            await host.wait_for_function(
                "() => window.magicTableApp.table.session.hellos.length === 2", timeout=90_000
            )
            await host.select_option("#table-game", "toy")
            await host.fill("#table-timer", "60")
            await host.click("#open-table")
            for player, backend in ((home, "webcrypto"), (lan, "pure")):
                await player.page.wait_for_selector("#table-status", timeout=90_000)
                table = await player.page.inner_text("#table")
                assert backend in table, (player.name, table)
            await click_until(players, {"done"}, timeout=400)
            for player in players:
                assert await player.page.get_attribute("#table-result", "data-ok") == "true"
            digests = {await p.page.get_attribute("#table-status", "data-digest") for p in players}
            assert len(digests) == 1, digests
            for player in players:
                assert not player.errors, (player.name, player.errors)


async def test_the_https_page_is_a_secure_context_and_signals_over_wss(tmp_path: Path) -> None:
    with tls_server(tmp_path / "data", "--no-bots") as (port, fingerprint):
        assert re.fullmatch(r"(?:[0-9A-F]{2}:){31}[0-9A-F]{2}", fingerprint)
        async with chromium_mapping() as browser:
            # What a friend gets after clicking through the certificate warning once.
            player = await Player.open(
                browser, f"https://127.0.0.1:{port}/", "Аня", voice=False, ignore_https_errors=True
            )
            page = player.page
            assert await page.evaluate(SECURITY) == {
                "secure": True,
                "subtle": "object",
                "media": "object",
            }
            assert not await page.locator("#insecure").is_visible()
            names, chosen = (await page.evaluate(BACKENDS)).split("|")
            assert chosen == "webcrypto", (names, chosen)
            code = await player.create_room()
            assert len(code) == 6
            sockets = [url for url in player.requests if url.startswith(("ws:", "wss:"))]
            assert sockets == [f"wss://127.0.0.1:{port}/ws"], sockets
            # Every request stayed on the page's own https origin.
            foreign = [
                u
                for u in player.requests
                if not u.startswith((f"https://127.0.0.1:{port}/", f"wss://127.0.0.1:{port}/"))
                and not u.startswith(("data:", "blob:"))
            ]
            assert not foreign, foreign
            # Typing http:// (or no scheme) lands on the https page.
            await page.goto(f"http://127.0.0.1:{port}/r/{code}")
            assert page.url == f"https://127.0.0.1:{port}/r/{code}"
            await player.wait_ready()
            assert not player.errors, player.errors
            await player.screenshot("lan-origin-https")
