"""The service worker: a second visit starts with the server gone, and a new build is offered.

Each test builds the site into its own folder and serves that folder with the real server, so it
can stop the server or rebuild under a page that is already open.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from web import build as site_build

from .harness import Player, Server, chromium, signaling_server

pytestmark = pytest.mark.browser

# ``ready`` resolves once the worker is active, which may still be "activating" (its clean-up
# running): wait for "activated" rather than race it.
KEPT = """async () => {
  await window.magicTable.offline;
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker.state !== "activated") {
    await new Promise((done) => worker.addEventListener("statechange", () => {
      if (worker.state === "activated") done();
    }));
  }
  return { active: worker.state, caches: await caches.keys() };
}"""
CONTROLLED = "() => Boolean(navigator.serviceWorker.controller)"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A fresh build of the site, served from its own folder."""
    folder = tmp_path / "dist"
    site_build.build(folder, "", [])
    return folder


@pytest.fixture
def served(dist: Path) -> Iterator[Server]:
    with signaling_server("--static", str(dist)) as server:
        yield server


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as launched:
        yield launched


def build_of(dist: Path) -> str:
    return str(json.loads((dist / "build.json").read_text())["build"])


async def first_visit(browser: Browser, server: Server, dist: Path) -> Player:
    """A first visit, until the worker holds this build."""
    player = await Player.open(browser, server.origin + "/", "offline", voice=False)
    assert not await player.page.evaluate(CONTROLLED), "a first visit comes from the network"
    kept = await player.page.evaluate(KEPT)
    assert kept == {"active": "activated", "caches": [f"magic-table-{build_of(dist)}"]}
    return player


async def test_a_second_visit_starts_with_the_server_stopped(
    browser: Browser, served: Server, dist: Path
) -> None:
    player = await first_visit(browser, served, dist)
    served.process.terminate()
    served.process.wait(timeout=10)
    seen = len(player.requests)
    for url in (served.origin + "/", served.origin + "/r/ABC234"):
        await player.page.goto(url)
        await player.wait_ready()
        assert await player.page.evaluate(CONTROLLED)
        assert await player.page.is_visible("#create"), "the lobby is usable"
    fetched = await player.page.evaluate(
        "() => performance.getEntriesByType('resource').map(e => [e.name, e.transferSize])"
    )
    assert any(name.endswith("pyodide.asm.wasm") for name, _ in fetched)
    assert all(size == 0 for _, size in fetched), "nothing came over the network"
    assert all(url.startswith(served.origin) for url in player.requests[seen:])
    assert not [e for e in player.errors if "service worker" in e], player.errors
    await player.context.close()


async def test_a_new_build_is_offered_and_the_reload_takes_it(
    browser: Browser, served: Server, dist: Path
) -> None:
    player = await first_visit(browser, served, dist)
    old = build_of(dist)
    site_build.build(dist, "ws://127.0.0.1:9/ws", [])  # any change is a new build
    new = build_of(dist)
    assert new != old
    await player.page.reload()
    await player.wait_ready()
    assert await player.page.evaluate(CONTROLLED)
    assert await player.page.evaluate("async () => (await fetch('/config.json')).json()") == {
        "signaling": "",
        "iceServers": [],
        "version": site_build.project_version(),
    }, "until the reload is accepted the page runs the build it started with"
    offer = player.page.locator("#update")
    await offer.wait_for(state="visible", timeout=30_000)
    assert "новая версия" in (await offer.inner_text()).lower()
    async with player.page.expect_navigation(timeout=30_000):
        await offer.locator("button").click()
    await player.wait_ready()
    config = await player.page.evaluate("async () => (await fetch('/config.json')).json()")
    assert config["signaling"] == "ws://127.0.0.1:9/ws"
    assert await player.page.evaluate("async () => caches.keys()") == [f"magic-table-{new}"]
    assert await player.page.is_hidden("#update")
    await player.context.close()
