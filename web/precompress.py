"""Pre-compressed copies of the built site's files: ``x.br`` and ``x.gz`` next to each ``x``.

The signalling server's static handler serves them by ``Accept-Encoding``. Both are reproducible
(gzip without a name or time stamp, brotli at its highest quality), and brotli's slow output is kept
in a cache keyed by the file's SHA-256, so the runtime files are compressed once per machine.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

COMPRESSIBLE = frozenset(
    {".wasm", ".mjs", ".js", ".json", ".css", ".html", ".svg", ".whl", ".zip", ".txt", ".map"}
)
ENCODINGS = (".br", ".gz")
MIN_BYTES = 512  # smaller files gain nothing worth a second request header's worth of bytes
MAX_RATIO = 0.95  # a copy must save at least 5 % or it is not written


@dataclass(frozen=True)
class Compressed:
    """What compressing one file gave: its size and the sizes of the copies written."""

    path: Path
    size: int
    br: int | None
    gz: int | None


def brotli_module() -> ModuleType | None:
    """The ``brotli`` package, or None when it is not installed."""
    try:
        import brotli
    except ImportError:
        return None
    return brotli


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip: no file name, time stamp 0, level 9."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def brotli_bytes(data: bytes, cache: Path, brotli: ModuleType) -> bytes:
    """Brotli at quality 11, from the cache when the same bytes were compressed before."""
    cached = cache / f"{hashlib.sha256(data).hexdigest()}.br"
    if cached.is_file():
        return cached.read_bytes()
    out: bytes = brotli.compress(data, quality=11)
    store(cached, out)
    return out


def store(path: Path, data: bytes) -> None:
    """Put ``data`` in a build cache at ``path`` whole or not at all (a build stopped midway
    leaves no half-written entry for the next one to take)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(path)


def candidates(dist: Path) -> Iterable[Path]:
    """The files under ``dist`` worth compressing, in a stable order."""
    for path in sorted(dist.rglob("*")):
        suffix = path.suffix.lower()
        if suffix in COMPRESSIBLE and path.is_file() and path.stat().st_size >= MIN_BYTES:
            yield path


def write_copy(path: Path, suffix: str, data: bytes, size: int) -> int | None:
    """Write ``path + suffix`` if it saves enough; its size, or None when not written."""
    target = path.with_name(path.name + suffix)
    if len(data) > size * MAX_RATIO:
        target.unlink(missing_ok=True)
        return None
    target.write_bytes(data)
    return len(data)


def precompress(dist: Path, cache: Path) -> list[Compressed]:
    """Write ``.br`` (when brotli is installed) and ``.gz`` copies of every compressible file."""
    brotli = brotli_module()
    done = []
    for path in list(candidates(dist)):
        data = path.read_bytes()
        br = None
        if brotli is not None:
            br = write_copy(path, ".br", brotli_bytes(data, cache, brotli), len(data))
        gz = write_copy(path, ".gz", gzip_bytes(data), len(data))
        done.append(Compressed(path, len(data), br, gz))
    return done
