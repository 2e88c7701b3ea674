"""Serving the built site (``web/dist``) with exact MIME types, a CSP on HTML, and the build's
pre-compressed copies (``x.br``, ``x.gz`` next to ``x``) by the request's ``Accept-Encoding``."""

from __future__ import annotations

import mimetypes
import os
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

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))  # in order of preference

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


def accepted_encodings(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header allows (``q=0`` refuses one)."""
    accepted = set()
    for item in header.lower().split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name and quality > 0:
            accepted.add(name.strip())
    if "*" in accepted:
        accepted.update(coding for coding, _ in ENCODINGS)
    return accepted


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


class ExactFile(web.FileResponse):
    """A file response for exactly its path: ``_file`` has already chosen the encoded copy, and
    aiohttp's own look-up of ``.br``/``.gz`` siblings (which ignores ``q=0``) is skipped."""

    def _get_file_path_stat_encoding(
        self, accept_encoding: str
    ) -> tuple[Path | None, os.stat_result, str | None]:
        return super()._get_file_path_stat_encoding("")


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

    def _file(self, path: Path, request: web.Request) -> ExactFile:
        """A file response with the product's headers: the pre-compressed copy the client
        accepts if the build wrote one, with the original's type and ``Vary: Accept-Encoding``."""
        headers = dev_headers(mime_type(path))
        variants = [(coding, path.with_name(path.name + ext)) for coding, ext in ENCODINGS]
        variants = [(coding, copy) for coding, copy in variants if copy.is_file()]
        if not variants:
            return ExactFile(path, headers=headers)
        headers["Vary"] = "Accept-Encoding"
        accepted = accepted_encodings(request.headers.get("Accept-Encoding", ""))
        for coding, copy in variants:
            if coding in accepted:
                headers["Content-Encoding"] = coding
                return ExactFile(copy, headers=headers)
        return ExactFile(path, headers=headers)

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
        return self._file(page, request)

    async def asset(self, request: web.Request) -> web.StreamResponse:
        """Any other path: a file from the static folder, or 404."""
        path = self.resolve(request.match_info.get("path", ""))
        if path is None:
            if not self.root.is_dir():
                return self._missing_build()
            raise web.HTTPNotFound(text="not found")
        return self._file(path, request)
