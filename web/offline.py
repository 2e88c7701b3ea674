"""The build manifest and the service worker that serves a build without the network.

``build.json`` lists every file of the site and a hash of all their contents; the same manifest is
written into ``sw.js``, so any change to any file is a new service worker, which installs the new
files next to the old ones and lets the page offer a reload.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from web.precompress import ENCODINGS

SERVICE_WORKER = "sw.js"
MANIFEST = "build.json"
MARKER = "/* build manifest */ null"


class OfflineError(RuntimeError):
    """The service worker template cannot take the manifest."""


def site_files(dist: Path) -> list[str]:
    """The URL paths of the site's files, sorted; compressed copies and the worker left out."""
    skipped = {SERVICE_WORKER, MANIFEST}
    paths = []
    for path in sorted(dist.rglob("*")):
        rel = path.relative_to(dist).as_posix()
        if path.is_file() and rel not in skipped and path.suffix not in ENCODINGS:
            paths.append("/" + rel)
    return paths


def build_hash(dist: Path, files: list[str], template: str) -> str:
    """SHA-256 over every file's path and contents and the worker's own code (16 hex digits)."""
    digest = hashlib.sha256(template.encode())
    for url in files:
        content = hashlib.sha256((dist / url.lstrip("/")).read_bytes()).hexdigest()
        digest.update(f"{url}\0{content}\n".encode())
    return digest.hexdigest()[:16]


def write_manifest(dist: Path, version: str) -> dict[str, object]:
    """Write ``build.json`` and stamp the manifest into ``sw.js``; return the manifest."""
    worker = dist / SERVICE_WORKER
    if not worker.is_file():
        raise OfflineError(f"{worker} is missing: web/static/{SERVICE_WORKER} was not copied")
    template = worker.read_text()
    if template.count(MARKER) != 1:
        raise OfflineError(f"{worker} must hold the marker {MARKER!r} exactly once")
    files = site_files(dist)
    manifest: dict[str, object] = {
        "build": build_hash(dist, files, template),
        "version": version,
        "files": files,
    }
    (dist / MANIFEST).write_text(json.dumps(manifest, indent=1))
    worker.write_text(template.replace(MARKER, json.dumps(manifest, separators=(",", ":"))))
    return manifest
