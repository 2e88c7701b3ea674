"""The static site: MIME types, CSP, room links, 404s, traversal, the missing-build page and the
build's pre-compressed copies."""

from __future__ import annotations

import gzip
from pathlib import Path

import aiohttp
import brotli
import pytest
from multidict import CIMultiDict

from signaling.static import CSP
from tests.signaling.conftest import Server, StartServer
from web.precompress import precompress

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


BIG_JS = "export const words = [" + ", ".join(f'"word{i % 37}"' for i in range(4000)) + "];\n"


@pytest.fixture
async def compressed_site(start_server: StartServer, tmp_path: Path) -> Server:
    """A server over a site built with pre-compressed copies, the way ``web.build`` writes them."""
    dist = tmp_path / "site"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>t</title>" + "<p>x</p>" * 200)
    (dist / "app.mjs").write_text(BIG_JS)
    (dist / "plain.js").write_text(BIG_JS)  # no copies: served as it is, without Vary
    precompress(dist, tmp_path / "cache")
    assert (dist / "app.mjs.br").is_file() and (dist / "app.mjs.gz").is_file()
    (dist / "plain.js.br").unlink()
    (dist / "plain.js.gz").unlink()
    return await start_server(static_dir=dist)


async def raw_get(
    server: Server, path: str, accept: str | None, method: str = "GET"
) -> tuple[int, CIMultiDict[str], bytes]:
    """Status, headers and the body exactly as sent (no client-side decoding)."""
    headers = {"Accept-Encoding": accept} if accept is not None else {}
    async with (
        aiohttp.ClientSession(auto_decompress=False, skip_auto_headers=["Accept-Encoding"]) as s,
        s.request(method, server.base + path, headers=headers) as resp,
    ):
        return resp.status, resp.headers.copy(), await resp.read()


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("br", "br"),
        ("gzip", "gzip"),
        ("GZIP;q=0.5, identity", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("*", "br"),
        ("br;q=0, gzip;q=0", None),
        ("deflate", None),
        ("", None),
        (None, None),
    ],
)
async def test_precompressed_copies_follow_accept_encoding(
    compressed_site: Server, accept: str | None, coding: str | None
) -> None:
    status, headers, body = await raw_get(compressed_site, "/app.mjs", accept)
    assert status == 200
    assert headers["Content-Type"].startswith("text/javascript")
    assert headers["Vary"] == "Accept-Encoding"
    assert headers.get("Content-Encoding") == coding
    assert int(headers["Content-Length"]) == len(body)
    if coding == "br":
        assert brotli.decompress(body).decode() == BIG_JS
    elif coding == "gzip":
        assert gzip.decompress(body).decode() == BIG_JS
    else:
        assert body.decode() == BIG_JS
    assert len(body) < len(BIG_JS) / 5 if coding else True


async def test_compressed_page_keeps_its_csp_and_type(compressed_site: Server) -> None:
    for path in ("/", "/r/ABC234"):
        status, headers, body = await raw_get(compressed_site, path, "br")
        assert status == 200 and headers["Content-Encoding"] == "br"
        assert headers["Content-Type"].startswith("text/html")
        assert headers["Content-Security-Policy"] == CSP
        assert brotli.decompress(body).startswith(b"<!doctype html>")


async def test_representations_have_their_own_etags(compressed_site: Server) -> None:
    etags = {(await raw_get(compressed_site, "/app.mjs", a))[1]["ETag"] for a in ("br", "gzip", "")}
    assert len(etags) == 3
    status, headers, _ = await raw_get(compressed_site, "/app.mjs", "br", method="HEAD")
    assert status == 200 and headers["Content-Encoding"] == "br"


async def test_a_file_without_copies_is_sent_as_it_is(compressed_site: Server) -> None:
    status, headers, body = await raw_get(compressed_site, "/plain.js", "br, gzip")
    assert status == 200 and "Content-Encoding" not in headers and "Vary" not in headers
    assert body.decode() == BIG_JS


async def test_the_compression_cache_outside_the_site_is_not_served(
    compressed_site: Server, tmp_path: Path
) -> None:
    cached = sorted((tmp_path / "cache").glob("*.br"))
    assert cached
    for path in (f"/../cache/{cached[0].name}", f"/%2e%2e/cache/{cached[0].name}"):
        status, _, _ = await raw_get(compressed_site, path, "br")
        assert status == 404
