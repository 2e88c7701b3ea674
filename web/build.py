"""Assemble the static site in ``web/dist``: Pyodide runtime, our wheels, a custom lock, the app.

Run ``python -m web.build`` after ``npm ci``. Nothing is fetched from a CDN: the Pyodide runtime
comes from the pinned npm package, the engine and the browser UI are packed into one pure-Python
wheel, and third-party pure-Python wheels (segno for QR codes) are downloaded once from PyPI by pip.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from wheel.wheelfile import WheelFile

from web.assets.bitmaps import BitmapError, write_bitmaps
from web.offline import OfflineError, write_manifest
from web.precompress import precompress
from web.slim import slim
from web.stdlib import StdlibError, repack_stdlib

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
STDLIB_ZIP = "python_stdlib.zip"
APP_WHEEL = "magic_table"
APP_PACKAGES = ("engine", "web/ui")
NOT_IN_BROWSER = frozenset(
    (
        "engine/core/scenario.py",
        "engine/games/circle/scenario.py",
        "engine/games/nevermore/scenario.py",
        "engine/games/rumble/scenario.py",
        "engine/fairness/backends/native.py",
    )
)
"""Modules of ``APP_PACKAGES`` that no page imports, left out of the app wheel: the seed-scenario
command lines (``python -m engine.games.<game>.scenario``) and the backend over ``cryptography``,
which the browser lacks (the page's guarded import of it fails alike without the module).
``tests/web/test_build.py`` checks that nothing in the wheel imports them unguarded."""
BROWSER_DEPS = ("segno",)
DEFAULT_ICE: list[object] = [{"urls": ["stun:stun.l.google.com:19302"]}]


class BuildError(RuntimeError):
    """A build step could not run; the message says what to do."""


@dataclass(frozen=True)
class Wheel:
    """One wheel placed in the site, as the custom lock file describes it."""

    name: str
    version: str
    path: Path
    imports: tuple[str, ...]

    def lock_entry(self) -> dict[str, object]:
        """This wheel's entry in ``pyodide-lock.json``."""
        return {
            "name": self.name,
            "version": self.version,
            "file_name": self.path.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(self.path.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": list(self.imports),
            "depends": [],
            "unvendored_tests": False,
        }


def project_version() -> str:
    """The version in ``pyproject.toml``."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def pinned(name: str) -> str:
    """The exact version ``pyproject.toml`` pins for a runtime dependency."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        deps = tomllib.load(handle)["project"]["dependencies"]
    for dep in deps:
        dep_name, _, version = dep.partition("==")
        if dep_name.strip().lower() == name:
            return version.strip()
    raise BuildError(f"{name} is not pinned in pyproject.toml")


def copy_runtime(dist: Path) -> None:
    """Copy the Pyodide runtime files from the pinned npm package (the standard library is
    repacked once the wheels are built: ``web.stdlib``)."""
    if not PYODIDE_DIR.is_dir():
        raise BuildError("node_modules/pyodide is missing: run `npm ci` first")
    target = dist / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_DIR / name, target / name)


@contextlib.contextmanager
def fixed_dates() -> Iterator[None]:
    """Date every wheel member 1980-01-01 (``SOURCE_DATE_EPOCH``, unless the caller set one), so
    the same sources give the same wheel, and so the same build hash (no needless update)."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = before or "315532800"
    try:
        yield
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]


def compact_json(text: str) -> str:
    """The same JSON without the whitespace between its tokens (keys in their order)."""
    return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))


def build_app_wheel(dist: Path) -> Wheel:
    """Pack the engine and the browser UI (pure Python, package data included; not the modules
    of ``NOT_IN_BROWSER``) into one wheel, its members stored (see ``store_slimmed``), its sources
    slimmed (``web.slim``), its JSON compact."""
    version = project_version()
    path = dist / "pyodide" / f"{APP_WHEEL}-{version}-py3-none-any.whl"
    path.unlink(missing_ok=True)
    with fixed_dates(), WheelFile(path, "w", compression=zipfile.ZIP_STORED) as wheel:
        for package in APP_PACKAGES:
            for file in sorted((ROOT / package).rglob("*")):
                name = file.relative_to(ROOT).as_posix()
                if (
                    file.is_file()
                    and "__pycache__" not in file.parts
                    and name not in NOT_IN_BROWSER
                ):
                    if file.suffix == ".py":  # without comments and docstrings (web/slim.py)
                        wheel.writestr(name, slim(file.read_text(encoding="utf-8")))
                    elif file.suffix == ".json":  # the catalogs, without their indentation
                        wheel.writestr(name, compact_json(file.read_text(encoding="utf-8")))
                    else:
                        wheel.write(file, name)
        wheel.write(ROOT / "web" / "__init__.py", "web/__init__.py")
        info = f"{APP_WHEEL}-{version}.dist-info"
        metadata = f"Metadata-Version: 2.1\nName: {APP_WHEEL}\nVersion: {version}\n"
        wheel.writestr(f"{info}/METADATA", metadata)
        tags = "Wheel-Version: 1.0\nGenerator: web.build\nRoot-Is-Purelib: true\n"
        tags += "Tag: py3-none-any\n"
        wheel.writestr(f"{info}/WHEEL", tags)
    return Wheel(APP_WHEEL, version, path, ("engine", "web"))


def fetch_dependency(name: str, dist: Path, cache: Path) -> Wheel:
    """A pure-Python dependency's wheel, downloaded by pip into a cache once."""
    version = pinned(name)
    cache.mkdir(parents=True, exist_ok=True)
    found = sorted(cache.glob(f"{name}-{version}-py3-none-any.whl"))
    if not found:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
        command += ["-q", "-d", str(cache), f"{name}=={version}"]
        if subprocess.run(command, check=False).returncode != 0:
            raise BuildError(f"could not download the {name} {version} wheel from PyPI")
        found = sorted(cache.glob(f"{name}-{version}-py3-none-any.whl"))
    if not found:
        raise BuildError(f"pip gave no pure-Python wheel for {name} {version}")
    target = dist / "pyodide" / found[0].name
    store_slimmed(found[0], target)
    return Wheel(name, version, target, (name,))


def store_slimmed(source: Path, target: Path) -> None:
    """Copy a wheel with its members stored, not deflated, and its Python sources slimmed like
    ours (``web.slim``; each file's opening comments, its copyright notice, kept). The server's
    brotli copy of one stored archive is smaller than the deflated members (it compresses across
    files); the members' names, order and dates stay, and the wheel's RECORD is written anew, so
    it lists the bytes the wheel holds."""
    target.unlink(missing_ok=True)
    with (
        zipfile.ZipFile(source) as src,
        fixed_dates(),
        WheelFile(target, "w", compression=zipfile.ZIP_STORED) as out,
    ):
        for info in src.infolist():
            if info.filename == out.record_path:
                continue
            data = src.read(info)
            if info.filename.endswith(".py"):
                data = slim(data.decode("utf-8"), keep_notice=True).encode("utf-8")
            member = zipfile.ZipInfo(info.filename, info.date_time)
            member.external_attr = info.external_attr
            out.writestr(member, data)


def canonical_name(name: str) -> str:
    """A package name as Pyodide's lock file keys it (PEP 503 normalisation)."""
    return name.lower().replace("_", "-").replace(".", "-")


def write_lock(dist: Path, wheels: list[Wheel]) -> None:
    """A small ``pyodide-lock.json`` listing only our wheels, with Pyodide's own ``info``."""
    original = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    packages = {canonical_name(w.name): w.lock_entry() for w in wheels}
    lock = {"info": original["info"], "packages": packages}
    (dist / "pyodide" / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))


def without_comment_lines(script: str) -> str:
    """A script of ours without its whole-line ``//`` comments: what they explain is for its
    readers, not first-visit bytes (about 2.5 kB brotli over our scripts). Our scripts hold no
    string that spans lines, so no such line is part of a string (``tests/web/test_build.py``
    checks each built script with ``node --check``)."""
    lines = script.splitlines(keepends=True)
    return "".join(line for line in lines if not line.lstrip().startswith("//"))


def without_css_comments(style: str) -> str:
    """A style sheet of ours without its ``/* … */`` comments (about 0.6 kB brotli). Ours hold
    no ``/*`` inside a string or a URL (``tests/web/test_build.py`` checks that the built sheet
    keeps every rule)."""
    return re.sub(r"/\*.*?\*/\n?", "", style, flags=re.DOTALL)


def copy_site(dist: Path, signaling: str, ice: list[object]) -> None:
    """The app's own static files, and ``config.json`` with the deploy settings."""
    shutil.copytree(ROOT / "web" / "static", dist, dirs_exist_ok=True)
    for script in sorted(dist.glob("*.js")):
        script.write_text(without_comment_lines(script.read_text()))
    for style in sorted(dist.glob("*.css")):
        style.write_text(without_css_comments(style.read_text()))
    art = ROOT / "seeds"
    for svg in sorted(art.glob("*/art/*.svg")):
        target = dist / "art" / svg.parent.parent.name / svg.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(svg, target)
    from web.assets import write_assets  # every card's face, the table's icons, the font

    write_assets(dist)
    config = {"signaling": signaling, "iceServers": ice, "version": project_version()}
    (dist / "config.json").write_text(json.dumps(config, ensure_ascii=False, indent=1))


def build(dist: Path, signaling: str, ice: list[object]) -> list[Wheel]:
    """Build the whole site into ``dist`` and return the wheels it holds."""
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)
    copy_runtime(dist)
    wheels = [build_app_wheel(dist)]
    wheels += [fetch_dependency(name, dist, ROOT / "build" / "wheels") for name in BROWSER_DEPS]
    stdlib = dist / "pyodide" / STDLIB_ZIP
    repack_stdlib(PYODIDE_DIR / STDLIB_ZIP, stdlib, [wheel.path for wheel in wheels])
    write_lock(dist, wheels)
    copy_site(dist, signaling, ice)
    write_bitmaps(dist, ROOT / "build" / "bitmaps")
    write_manifest(dist, project_version())
    precompress(dist, ROOT / "build" / "compressed")
    return wheels


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m web.build [--dist DIR] [--signaling URL] [--ice-servers JSON]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "web" / "dist")
    parser.add_argument(
        "--signaling",
        default=os.environ.get("SIGNALING_URL", ""),
        help="WebSocket URL of the signalling server (default: same origin, /ws)",
    )
    parser.add_argument(
        "--ice-servers",
        default=os.environ.get("ICE_SERVERS", ""),
        help="JSON list of RTCIceServer objects (default: one public STUN server)",
    )
    args = parser.parse_args(argv)
    try:
        ice = json.loads(args.ice_servers) if args.ice_servers else list(DEFAULT_ICE)
        if not isinstance(ice, list):
            raise BuildError("--ice-servers must be a JSON list")
        wheels = build(args.dist, args.signaling, ice)
    except (BuildError, BitmapError, OfflineError, StdlibError, json.JSONDecodeError) as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 2
    size = sum(f.stat().st_size for f in args.dist.rglob("*") if f.is_file())
    names = ", ".join(w.path.name for w in wheels)
    print(f"built {args.dist} ({size / 1e6:.1f} MB): {names}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
