"""Serving the built site (``web/dist``) with exact MIME types and a CSP on HTML."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from aiohttp import web

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' ws: wss:; "
    "img-src 'self' data: blob:; media-src 'self' blob: mediastream:; "
    "style-src 'self' 'unsafe-inline'; worker-src 'self' blob:"
)

MIME_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".wasm": "application/wasm",
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
    ".webmanifest": "application/manifest+json",
}

MISSING_BUILD_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Site not built</title></head>
<body><h1>The web page is not built yet</h1>
<p>Run <code>python -m web.build</code> to assemble <code>web/dist</code>,
then reload this page.</p></body></html>
"""


def mime_type(path: Path) -> str:
    """The Content-Type for a file, by extension."""
    suffix = path.suffix.lower()
    if suffix in MIME_TYPES:
        return MIME_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def dev_headers(content_type: str) -> dict[str, str]:
    """Headers for every static response; HTML also gets the CSP."""
    headers = {
        "Content-Type": content_type,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
    }
    if content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = CSP
    return headers


class StaticSite:
    """Request handlers for the static folder."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def resolve(self, rel: str) -> Path | None:
        """The regular file under the root for a request path, or None."""
        if "\x00" in rel or "\\" in rel:
            return None
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if any(p == ".." for p in parts):
            return None
        candidate = self.root.joinpath(*parts).resolve() if parts else self.root
        if not candidate.is_relative_to(self.root):
            return None
        if candidate.is_dir():
            candidate = candidate / "index.html"
        return candidate if candidate.is_file() else None

    def _file(self, path: Path) -> web.FileResponse:
        """A file response with the product's headers."""
        return web.FileResponse(path, headers=dev_headers(mime_type(path)))

    def _missing_build(self) -> web.Response:
        """The 503 page shown when ``web/dist`` has not been built."""
        return web.Response(
            status=503, text=MISSING_BUILD_PAGE, headers=dev_headers("text/html; charset=utf-8")
        )

    async def index(self, request: web.Request) -> web.StreamResponse:
        """``/`` and ``/r/{code}``: the page itself."""
        page = self.root / "index.html"
        if not page.is_file():
            return self._missing_build()
        return self._file(page)

    async def asset(self, request: web.Request) -> web.StreamResponse:
        """Any other path: a file from the static folder, or 404."""
        path = self.resolve(request.match_info.get("path", ""))
        if path is None:
            if not self.root.is_dir():
                return self._missing_build()
            raise web.HTTPNotFound(text="not found")
        return self._file(path)
