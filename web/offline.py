"""The build manifest and the service worker that serves a build without the network.

``build.json`` lists every file of the site (in two lists, below) and a hash of all their
contents; the same manifest is written into ``sw.js`` (with the ``later`` files named by their
folders), so any change to any file is a new service worker, which installs the new files next
to the old ones and lets the page offer a reload.

The files are split in two: ``start`` files (the page, its scripts and styles, the runtime, the
wheels, the lock file, the fonts, the lobby's icons) are what a start needs up to the lobby, and
the worker's install fetches them; ``later`` files (card art and the table's pictures under
``/art/``) are fetched the first time a page uses one and kept in the build's cache from then on.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from web.precompress import ENCODINGS

SERVICE_WORKER = "sw.js"
MANIFEST = "build.json"
MARKER = "/* build manifest */ null"
# Folders whose files no start needs, fetched when first used; but for the lobby's own icons (its
# sound button shows one of these two).
LATER = ("/art/",)
LOBBY = frozenset({"/art/ui/sound.svg", "/art/ui/mute.svg"})


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


def is_later(url: str) -> bool:
    """Whether a file is fetched when first used rather than by the worker's install."""
    return url.startswith(LATER) and url not in LOBBY


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
        "start": [url for url in files if not is_later(url)],
        "later": [url for url in files if is_later(url)],
    }
    (dist / MANIFEST).write_text(json.dumps(manifest, indent=1))
    worker.write_text(
        template.replace(MARKER, json.dumps(worker_manifest(manifest), separators=(",", ":")))
    )
    return manifest


def worker_manifest(manifest: dict[str, object]) -> dict[str, object]:
    """What ``sw.js`` carries: the ``later`` files named by their folders, not one by one (a
    first visit downloads the worker; the build's hash still covers every file)."""
    return {**manifest, "later": list(LATER)}
