"""The static site: MIME types, CSP, room links, 404s, traversal and the missing-build page."""

from __future__ import annotations

from pathlib import Path

import pytest

from signaling.static import CSP
from tests.signaling.conftest import Server, StartServer

FILES = {
    "index.html": ("<!doctype html><title>t</title>", "text/html"),
    "pyodide/pyodide.asm.wasm": ("\0asm", "application/wasm"),
    "pyodide/pyodide.mjs": ("export {}", "text/javascript"),
    "app.js": ("1", "text/javascript"),
    "wheels/engine-0.1-py3-none-any.whl": ("PK", "application/zip"),
    "pyodide/python_stdlib.zip": ("PK", "application/zip"),
    "pyodide/pyodide-lock.json": ("{}", "application/json"),
    "art/hero.svg": ("<svg/>", "image/svg+xml"),
    "style.css": ("body{}", "text/css"),
}


@pytest.fixture
async def site(start_server: StartServer, tmp_path: Path) -> Server:
    """A server over a small built site."""
    dist = tmp_path / "site"
    for rel, (body, _) in FILES.items():
        path = dist / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    (tmp_path / "secret.txt").write_text("do not serve")
    return await start_server(static_dir=dist)


@pytest.mark.parametrize("rel", sorted(FILES))
async def test_mime_types(site: Server, rel: str) -> None:
    async with site.session.get(f"{site.base}/{rel}") as resp:
        assert resp.status == 200
        assert resp.content_type == FILES[rel][1]
        assert await resp.text() == FILES[rel][0]
        assert resp.headers["Cache-Control"] == "no-cache"
        assert ("Content-Security-Policy" in resp.headers) == (rel == "index.html")


@pytest.mark.parametrize("path", ["/", "/r/ABC234", "/index.html"])
async def test_page_and_room_links_serve_index_with_csp(site: Server, path: str) -> None:
    async with site.session.get(site.base + path) as resp:
        assert resp.status == 200
        assert resp.content_type == "text/html"
        assert resp.headers["Content-Security-Policy"] == CSP
        assert "'wasm-unsafe-eval'" in resp.headers["Content-Security-Policy"]
        assert await resp.text() == FILES["index.html"][0]


async def test_head_request(site: Server) -> None:
    async with site.session.head(f"{site.base}/app.js") as resp:
        assert resp.status == 200
        assert resp.content_type == "text/javascript"
        assert await resp.read() == b""


@pytest.mark.parametrize(
    "path",
    [
        "/missing.js",
        "/art/",
        "/art",
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/art/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/art/..%5c..%5csecret.txt",
    ],
)
async def test_missing_files_directories_and_traversal_are_404(site: Server, path: str) -> None:
    async with site.session.get(site.base + path) as resp:
        assert resp.status == 404
        assert "do not serve" not in await resp.text()


async def test_healthz(server: Server) -> None:
    async with server.session.get(f"{server.base}/healthz") as resp:
        assert resp.status == 200
        assert await resp.text() == "ok"


async def test_missing_build_is_a_clear_503(server: Server) -> None:
    for path in ("/", "/r/ABC234"):
        async with server.session.get(server.base + path) as resp:
            assert resp.status == 503
            assert "python -m web.build" in await resp.text()
