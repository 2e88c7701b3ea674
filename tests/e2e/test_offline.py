"""The service worker: a second visit starts with the server gone, from the interpreter snapshot
the first visit made, and a new build is offered; a damaged snapshot is dropped, not used. Its
install fetches only what a start needs; card art is kept once a page has used it.

Each test serves a folder of its own with the real server, so it can stop the server or rebuild
under a page that is already open. The site is built once per run of this file and each test gets
a fresh copy of that build (a build is deterministic: ``test_build`` checks that the same sources
give the same build).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from web import build as site_build

from .harness import Player, Server, chromium, signaling_server
from .wire import counting

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
SNAPSHOT = "async () => window.magicTable.snapshot"
STARTED_FROM = "() => window.magicTable.marks.from"
RANDOM = "() => window.magicTable.pyodide.runPython('import random; random.random()')"
SNAPSHOT_PATH = "/pyodide/snapshot-{version}.bin"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build of the site for this file's tests (never served itself)."""
    folder = tmp_path_factory.mktemp("site") / "dist"
    site_build.build(folder, "", [])
    return folder


@pytest.fixture
def dist(site: Path, tmp_path: Path) -> Path:
    """A fresh copy of that build, served from its own folder."""
    folder = tmp_path / "dist"
    shutil.copytree(site, folder)
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


def manifest_of(dist: Path) -> dict[str, list[str]]:
    manifest = json.loads((dist / "build.json").read_text())
    return {"start": manifest["start"], "later": manifest["later"]}


def pyodide_version() -> str:
    return str(json.loads((site_build.PYODIDE_DIR / "package.json").read_text())["version"])


def snapshot_path() -> str:
    return SNAPSHOT_PATH.format(version=pyodide_version())


async def first_visit(browser: Browser, server: Server, dist: Path, origin: str = "") -> Player:
    """A first visit (to ``origin``, the server's own by default), until the worker holds this
    build and the interpreter snapshot is made."""
    url = (origin or server.origin) + "/"
    player = await Player.open(browser, url, "offline", voice=False, snapshot=True)
    assert not await player.page.evaluate(CONTROLLED), "a first visit comes from the network"
    assert await player.page.evaluate(STARTED_FROM) == "start"
    kept = await player.page.evaluate(KEPT)
    assert kept == {"active": "activated", "caches": [f"magic-table-{build_of(dist)}"]}
    assert await player.page.evaluate(SNAPSHOT) == "made"
    assert await snapshot_size(player, build_of(dist)) > 1_000_000
    return player


async def snapshot_size(player: Player, build: str) -> int:
    """The bytes of the snapshot kept in a build's cache (0 when there is none)."""
    script = """async ([name, path]) => { const hit = await (await caches.open(name)).match(path);
      return hit ? (await hit.arrayBuffer()).byteLength : 0; }"""
    return int(await player.page.evaluate(script, [f"magic-table-{build}", snapshot_path()]))


async def test_a_second_visit_starts_with_the_server_stopped(
    browser: Browser, served: Server, dist: Path
) -> None:
    player = await first_visit(browser, served, dist)
    served.process.terminate()
    served.process.wait(timeout=10)
    seen = len(player.requests)
    draws = set()
    for url in (served.origin + "/", served.origin + "/r/ABC234"):
        await player.page.goto(url)
        await player.wait_ready()
        assert await player.page.evaluate(CONTROLLED)
        assert await player.page.evaluate(STARTED_FROM) == "snapshot"
        assert await player.page.evaluate(SNAPSHOT) == "kept"
        assert await player.page.is_visible("#create"), "the lobby is usable"
        draws.add(await player.page.evaluate(RANDOM))
    assert len(draws) == 2, "each start from the snapshot seeds its random numbers anew"
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
    assert await player.page.evaluate(STARTED_FROM) == "start", "the new build has no snapshot yet"
    assert await player.page.evaluate(SNAPSHOT) == "made"
    await player.context.close()


# A snapshot that is not one, one labelled with another Pyodide version, and one of another build
# of the runtime (its build id changed: only Pyodide's own restore can tell).
DAMAGES = ("garbage", "other version", "other runtime build")
DAMAGE = """async ([name, path, damage, version]) => {
  const cache = await caches.open(name);
  let bytes = new Uint8Array(await (await cache.match(path)).arrayBuffer());
  if (damage === "garbage") bytes = new Uint8Array(1 << 20).fill(7);
  if (damage === "other runtime build") bytes[20] ^= 0xff;
  const headers = { "content-type": "application/octet-stream", "x-pyodide-version": version };
  await cache.put(path, new Response(bytes, { headers }));
}"""


async def test_a_damaged_snapshot_is_dropped_and_made_again(
    browser: Browser, served: Server, dist: Path
) -> None:
    player = await first_visit(browser, served, dist)
    for damage in DAMAGES:
        version = "0.0.1" if damage == "other version" else pyodide_version()
        args = [f"magic-table-{build_of(dist)}", snapshot_path(), damage, version]
        await player.page.evaluate(DAMAGE, args)
        await player.page.reload()
        await player.wait_ready()
        assert await player.page.evaluate(STARTED_FROM) == "start", damage
        assert await player.page.is_visible("#create"), "the lobby is usable"
        assert await player.page.evaluate(SNAPSHOT) == "made", "the damaged copy was replaced"
    await player.page.reload()
    await player.wait_ready()
    assert await player.page.evaluate(STARTED_FROM) == "snapshot"
    assert not [e for e in player.errors if "pageerror" in e], player.errors
    await player.context.close()


CACHED = """async (name) => (await (await caches.open(name)).keys())
  .map((request) => new URL(request.url).pathname)"""
FETCH = """async (path) => { try { const r = await fetch(path);
    return [r.status, Array.from(new Uint8Array(await r.arrayBuffer()))]; }
  catch (error) { return [0, String(error)]; } }"""


async def test_the_install_fetches_only_what_a_start_needs(
    browser: Browser, served: Server, dist: Path
) -> None:
    manifest = manifest_of(dist)
    async with counting(served.port) as proxy:
        player = await first_visit(browser, served, dist, proxy.origin)
        asked = set(proxy.paths)
        fetched = await player.page.evaluate(
            "() => performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
        )
        cached = set(await player.page.evaluate(CACHED, f"magic-table-{build_of(dist)}"))
        await player.context.close()
    assert proxy.down > 1_000_000, "the proxy saw the runtime go by"
    assert set(fetched) <= set(manifest["start"]), "a start needs only start files"
    assert set(manifest["start"]) <= asked, "the install fetched every start file"
    assert not asked & set(manifest["later"]), "no card art nor table picture was downloaded"
    assert cached == set(manifest["start"]) | {snapshot_path()}


async def test_a_picture_used_once_is_served_with_the_server_stopped(
    browser: Browser, served: Server, dist: Path
) -> None:
    later = manifest_of(dist)["later"]
    used, unused = (  # card pictures as the pages show them: bitmaps
        next(f for f in later if f.startswith(f"/art/{g}/") and f.endswith(".webp"))
        for g in ("rumble", "circle")
    )
    player = await first_visit(browser, served, dist)
    await player.page.reload()  # now the worker serves the page and its fetches
    await player.wait_ready()
    assert await player.page.evaluate(CONTROLLED)
    status, picture = await player.page.evaluate(FETCH, used)
    assert status == 200 and bytes(picture) == (dist / used.lstrip("/")).read_bytes()
    assert used in await player.page.evaluate(CACHED, f"magic-table-{build_of(dist)}")
    served.process.terminate()
    served.process.wait(timeout=10)
    await player.page.goto(served.origin + "/")
    await player.wait_ready()
    assert await player.page.evaluate(FETCH, used) == [200, picture], "kept from its first use"
    status, _ = await player.page.evaluate(FETCH, unused)
    assert status == 0, "a picture never used was not kept: with the server gone it cannot come"
    await player.context.close()
