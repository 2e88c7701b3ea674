"""The built site: pre-compressed copies, stored wheels, the manifest the service worker keeps."""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli
import pytest

from web import build as site_build
from web.offline import MARKER, OfflineError, build_hash, site_files, write_manifest
from web.precompress import MIN_BYTES, precompress
from web.slim import slim

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two builds of the same sources into two folders."""
    root = tmp_path_factory.mktemp("sites")
    first, second = root / "one", root / "two"
    for dist in (first, second):
        site_build.build(dist, "", [])
    return first, second


def stamped_manifest(dist: Path) -> dict[str, object]:
    """The manifest as written into ``sw.js``."""
    line = next(ln for ln in (dist / "sw.js").read_text().splitlines() if "const MANIFEST" in ln)
    manifest: dict[str, object] = json.loads(line.split("=", 1)[1].strip().rstrip(";"))
    return manifest


def test_the_manifest_lists_every_file_and_the_worker_carries_it(built: tuple[Path, Path]) -> None:
    dist, _ = built
    manifest = json.loads((dist / "build.json").read_text())
    assert stamped_manifest(dist) == {**manifest, "later": ["/art/"]}  # the worker: folders
    start, later = manifest["start"], manifest["later"]
    files = start + later
    on_disk = {
        "/" + p.relative_to(dist).as_posix()
        for p in dist.rglob("*")
        if p.is_file() and p.suffix not in (".br", ".gz")
    }
    assert len(set(files)) == len(files), "no file is in both lists, nor twice in one"
    assert set(files) == on_disk - {"/sw.js", "/build.json"}
    for needed in (
        "/index.html",
        "/boot.js",
        "/snapshot.js",
        "/style.css",
        "/config.json",
        "/pyodide/pyodide.asm.wasm",
        "/pyodide/python_stdlib.zip",
        "/pyodide/pyodide-lock.json",
        "/art/ui/sound.svg",
        "/art/ui/mute.svg",
    ):
        assert needed in start, needed
    assert [f for f in start if f.endswith(".whl")] and [f for f in start if f.endswith(".woff2")]
    art = {f for f in files if f.startswith("/art/")} - {"/art/ui/sound.svg", "/art/ui/mute.svg"}
    assert set(later) == art, "the card art and the table's pictures wait until first used"
    for game in ("rumble", "circle", "nevermore"):
        assert [f for f in later if f.startswith(f"/art/{game}/")], game
    assert MARKER not in (dist / "sw.js").read_text()


def test_the_same_sources_give_the_same_build(built: tuple[Path, Path]) -> None:
    first, second = built
    one, two = (json.loads((d / "build.json").read_text()) for d in built)
    assert one == two
    for rel in ("sw.js", "pyodide/pyodide.asm.wasm.br", "index.html.gz", "boot.js.br"):
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


def test_a_changed_file_changes_the_build_hash(tmp_path: Path, built: tuple[Path, Path]) -> None:
    dist, _ = built
    files = site_files(dist)
    template = "const MANIFEST = /* build manifest */ null;"
    before = build_hash(dist, files, template)
    copy = tmp_path / "copy"
    for url in files:
        target = copy / url.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((dist / url.lstrip("/")).read_bytes())
    assert build_hash(copy, files, template) == before
    (copy / "config.json").write_text('{"signaling": "wss://elsewhere/ws"}')
    assert build_hash(copy, files, template) != before
    assert build_hash(dist, files, template + "\n") != before


def test_every_compressible_file_has_copies_that_decode_to_it(built: tuple[Path, Path]) -> None:
    dist, _ = built
    checked = 0
    for path in dist.rglob("*"):
        if path.suffix in (".wasm", ".mjs", ".js", ".html", ".css", ".json", ".whl"):
            if path.stat().st_size < MIN_BYTES:
                continue
            data = path.read_bytes()
            br = path.with_name(path.name + ".br").read_bytes()
            gz = path.with_name(path.name + ".gz").read_bytes()
            assert brotli.decompress(br) == data and gzip.decompress(gz) == data, path
            assert len(br) <= len(gz) < len(data), path
            checked += 1
    assert checked >= 10
    wasm = (dist / "pyodide" / "pyodide.asm.wasm").stat().st_size
    assert (dist / "pyodide" / "pyodide.asm.wasm.br").stat().st_size < wasm / 3


def test_wheels_are_stored_and_hold_what_the_lock_says(built: tuple[Path, Path]) -> None:
    dist, _ = built
    lock = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    assert set(lock["packages"]) == {"magic-table", "segno"}
    for entry in lock["packages"].values():
        with zipfile.ZipFile(dist / "pyodide" / entry["file_name"]) as wheel:
            assert wheel.testzip() is None
            assert {i.compress_type for i in wheel.infolist()} == {zipfile.ZIP_STORED}
            names = wheel.namelist()
            assert any(n.endswith(".dist-info/RECORD") or n.endswith("/WHEEL") for n in names)
    with zipfile.ZipFile(dist / "pyodide" / lock["packages"]["segno"]["file_name"]) as wheel:
        assert "segno/__init__.py" in wheel.namelist()
    app = lock["packages"]["magic-table"]["file_name"]
    with zipfile.ZipFile(dist / "pyodide" / app) as wheel:
        for name in ("engine/protocol/pace.py", "web/ui/table.py"):
            source = (ROOT / name).read_text(encoding="utf-8")
            assert wheel.read(name).decode() == slim(source), name
        for game in ("rumble", "circle", "nevermore"):
            name = f"engine/games/{game}/catalog.json"
            packed, source = wheel.read(name).decode(), (ROOT / name).read_text(encoding="utf-8")
            assert json.loads(packed) == json.loads(source), name
            assert len(packed) < len(source) and "\n" not in packed, name  # no indentation


def test_the_site_serves_the_standard_library_stored_and_trimmed(built: tuple[Path, Path]) -> None:
    """The build repacks Pyodide's standard library (``web.stdlib``): the same files but the
    left-out ones, stored, so its brotli copy is far smaller than the deflated zip."""
    first, second = built
    served = first / "pyodide" / site_build.STDLIB_ZIP
    assert served.read_bytes() == (second / "pyodide" / site_build.STDLIB_ZIP).read_bytes()
    original = site_build.PYODIDE_DIR / site_build.STDLIB_ZIP
    with zipfile.ZipFile(served) as zipped, zipfile.ZipFile(original) as pyodides:
        assert {i.compress_type for i in zipped.infolist()} == {zipfile.ZIP_STORED}
        assert "unittest/__init__.py" in pyodides.namelist()
        assert "unittest/__init__.py" not in zipped.namelist()
        assert zipped.read("asyncio/tasks.py") == pyodides.read("asyncio/tasks.py")
    assert served.with_name(served.name + ".br").stat().st_size < original.stat().st_size * 0.6


def test_a_dependency_wheel_is_slimmed_with_its_notice_and_a_true_record(
    built: tuple[Path, Path],
) -> None:
    dist, _ = built
    lock = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    name = lock["packages"]["segno"]["file_name"]
    original = ROOT / "build" / "wheels" / name
    with zipfile.ZipFile(original) as src, zipfile.ZipFile(dist / "pyodide" / name) as out:
        assert out.namelist() == src.namelist()
        record_path = next(n for n in out.namelist() if n.endswith(".dist-info/RECORD"))
        record = out.read(record_path).decode()
        rows = {row.split(",")[0]: row.split(",")[1:] for row in record.splitlines()}
        assert set(rows) == set(out.namelist())
        for member in out.namelist():
            data, before = out.read(member), src.read(member)
            if member.endswith("/RECORD"):
                continue
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert rows[member] == [f"sha256={digest.decode()}", str(len(data))], member
            if member.endswith(".py"):
                assert data.decode() == slim(before.decode(), keep_notice=True), member
            else:
                assert data == before, member
        assert b"Copyright (c)" in out.read("segno/encoder.py")
        assert len(out.read("segno/encoder.py")) < len(src.read("segno/encoder.py")) * 0.8


def test_the_slimmed_dependency_draws_the_same_qr_code(built: tuple[Path, Path]) -> None:
    dist, _ = built
    name = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())["packages"]["segno"]
    script = (
        "import segno; print(segno.__file__, flush=True); "
        "print(segno.make('https://example.org/r/ABC234', error='m').svg_data_uri(scale=4))"
    )
    drawn = []
    for wheel in (ROOT / "build" / "wheels", dist / "pyodide"):
        path = str(wheel / name["file_name"])
        env = {**os.environ, "PYTHONPATH": path}
        command = [sys.executable, "-c", script]
        run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        where, svg = run.stdout.splitlines()
        assert where.startswith(path), where
        drawn.append(svg)
    assert drawn[0] == drawn[1] and drawn[0].startswith("data:image/svg+xml")


def test_small_or_incompressible_files_get_no_copies(tmp_path: Path) -> None:
    (tmp_path / "tiny.js").write_text("1")
    (tmp_path / "noise.json").write_bytes(os.urandom(4096))
    (tmp_path / "big.css").write_text("body { color: red }\n" * 200)
    (tmp_path / "photo.png").write_bytes(b"\x89PNG" + b"\0" * 4096)
    done = {c.path.name: c for c in precompress(tmp_path, tmp_path / "cache")}
    assert set(done) == {"noise.json", "big.css"}
    assert done["noise.json"].br is None and done["noise.json"].gz is None
    assert not (tmp_path / "noise.json.br").exists() and not (tmp_path / "tiny.js.gz").exists()
    assert done["big.css"].br and done["big.css"].gz
    assert not (tmp_path / "photo.png.gz").exists()


def test_a_worker_without_the_marker_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(OfflineError, match=r"sw\.js is missing"):
        write_manifest(tmp_path, "1")
    (tmp_path / "sw.js").write_text("const MANIFEST = {};")
    with pytest.raises(OfflineError, match="marker"):
        write_manifest(tmp_path, "1")


def imported_modules(tree: ast.Module, module: str) -> list[tuple[str, bool]]:
    """Every module ``module``'s code imports (relative names resolved), each with whether the
    import sits in a ``try`` that catches ``ImportError``; the dotted names its strings hold."""
    package = module.rsplit(".", 1)[0]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.Try):
            catches = {getattr(h.type, "id", None) for h in node.handlers if h.type is not None} & {
                "ImportError",
                "ModuleNotFoundError",
            }
            for child in node.body:
                visit(child, guarded or bool(catches))
            for child in [*node.handlers, *node.orelse, *node.finalbody]:
                visit(child, guarded)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, guarded) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            found.append((base, guarded))
            found.extend((f"{base}.{alias.name}", guarded) for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.value.split(":", 1)[0], False))
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, False)
    return found


def test_the_app_wheel_leaves_out_only_modules_no_page_imports(built: tuple[Path, Path]) -> None:
    dist, _ = built
    left_out = {name.removesuffix(".py").replace("/", ".") for name in site_build.NOT_IN_BROWSER}
    assert all((ROOT / name).is_file() for name in site_build.NOT_IN_BROWSER)
    app = next((dist / "pyodide").glob("magic_table-*.whl"))
    with zipfile.ZipFile(app) as wheel:
        sources = {n: wheel.read(n).decode() for n in wheel.namelist() if n.endswith(".py")}
    assert not set(sources) & site_build.NOT_IN_BROWSER
    assert "engine/games/rumble/rules.py" in sources and "web/ui/app.py" in sources
    unguarded = []
    for name, source in sources.items():
        module = name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        if name.endswith("__init__.py"):
            module += ".__init__"
        for imported, guarded in imported_modules(ast.parse(source), module):
            if imported in left_out and not guarded:
                unguarded.append((name, imported))
    assert unguarded == []


def test_the_import_scan_finds_imports_of_every_kind() -> None:
    source = (
        "import engine.core.scenario\n"
        "from .scenario import x\n"
        "def f():\n    from engine.fairness.backends import native\n"
        "try:\n    from engine.fairness.backends.native import N\nexcept ImportError:\n    pass\n"
        "R = {'a': 'engine.games.rumble.scenario:main'}\n"
    )
    found = imported_modules(ast.parse(source), "engine.games.circle.rules")
    assert ("engine.core.scenario", False) in found
    assert ("engine.games.circle.scenario", False) in found
    assert ("engine.fairness.backends.native", False) in found
    assert ("engine.fairness.backends.native", True) in found
    assert ("engine.games.rumble.scenario", False) in found


def test_our_scripts_are_built_without_their_comment_lines(built: tuple[Path, Path]) -> None:
    """Each built script is its source without the lines that are only a ``//`` comment (the
    rest in order and unchanged), and still parses; the worker still carries its manifest."""
    dist = built[0]
    scripts = sorted((ROOT / "web" / "static").glob("*.js"))
    assert len(scripts) >= 5
    for source in scripts:
        out = (dist / source.name).read_text()
        kept = [ln for ln in source.read_text().splitlines() if not ln.lstrip().startswith("//")]
        assert len(kept) < len(source.read_text().splitlines()), source.name
        if source.name == "sw.js":  # its manifest is written in
            kept = [
                ln.replace(MARKER, out.split("const MANIFEST = ")[1].split(";")[0]) for ln in kept
            ]
        assert out.splitlines() == kept, source.name
        node = subprocess.run(
            ["node", "--check", "--input-type=module"], input=out, text=True, capture_output=True
        )
        assert node.returncode == 0, (source.name, node.stderr)


def test_our_style_sheet_is_built_without_its_comments(built: tuple[Path, Path]) -> None:
    """The built sheet has no comment left and every rule of the source, in order."""
    source = (ROOT / "web" / "static" / "style.css").read_text()
    out = (built[0] / "style.css").read_text()
    assert source.count("/*") >= 5 and "/*" not in out and "*/" not in out
    assert len(out) < len(source)
    assert css_rules(out) == css_rules(source)


def css_rules(sheet: str) -> list[str]:
    """A style sheet's rules, comments left out and white space made single spaces."""
    bare = re.sub(r"/\*.*?\*/", "", sheet, flags=re.DOTALL)
    return [" ".join(rule.split()) for rule in bare.split("}")]


def test_every_card_picture_a_page_asks_for_is_built(built: tuple[Path, Path]) -> None:
    from web.ui import circle_views, i18n, nevermore_views, rumble_views

    dist, _ = built
    asked = []
    try:
        for lang in ("ru", "en"):
            for screen in (1.0, 2.0):
                i18n.use(lang)
                i18n.use_screen(screen)
                asked.append(i18n.card_back())
                asked += [i18n.icon(name) for name in ("absorb", "ghost", "heal", "hit")]
                asked += [i18n.icon(name) for name in ("human", "palace", "raven")]
                asked += [rumble_views.art(card) for card in rumble_views.cards()]
                for game, views in (("circle", circle_views), ("nevermore", nevermore_views)):
                    asked += [views.art(p.stem) for p in (dist / "art" / game).glob("*.svg")]
    finally:
        i18n.use("ru")
        i18n.use_screen(1.0)
    assert len(set(asked)) > 4 * 150
    missing = sorted(url for url in set(asked) if not (dist / url.lstrip("/")).is_file())
    assert not missing, missing[:5]
    manifest = json.loads((dist / "build.json").read_text())
    assert "/art/card-back.webp" in manifest["later"]  # fetched when first shown
