"""The standard library the site serves: stored, without the modules no page can import, and the
import scan that decides which those are."""

from __future__ import annotations

import ast
import re
import zipfile
from pathlib import Path

import pytest

from web import stdlib
from web.build import PYODIDE_DIR, STDLIB_ZIP

PYODIDE_STDLIB = PYODIDE_DIR / STDLIB_ZIP


def modules(**sources: str) -> dict[str, tuple[str, bool]]:
    """Modules from keyword sources (``pkg__init`` names a package ``pkg``; ``_`` → ``.``)."""
    found = {}
    for name, source in sources.items():
        package = name.endswith("__init")
        name = name.removesuffix("__init").rstrip("_").replace("__", ".")
        found[name] = (source, package)
    return found


def test_the_scan_finds_imports_of_every_kind_but_a_scripts_own() -> None:
    source = (
        "import a.b, c as d\n"
        "from e import (f,\n    g as h)\n"
        "from . import sibling\n"
        "from ..up import thing  # a comment\n"
        "def run():\n    import inner\n"
        "try:\n    from guarded import x\nexcept ImportError:\n    pass\n"
        "text = 'import not_a_line_start'\n"
        "codec = __import__('by_call')\n"
        "import first; import second\n"
        "try: import one_line\nexcept ImportError: pass\n"
        'late = importlib.import_module("by_name.sub")\n'
        'if __name__ == "__main__":\n    import script_only\n'
    )
    names = stdlib.imported_names(source, "pkg.sub.mod", package=False)
    assert {"a.b", "c", "e", "e.f", "e.g", "inner", "guarded", "guarded.x"} <= names
    assert {"by_call", "by_name.sub", "first", "second", "one_line"} <= names
    assert {"pkg.sub", "pkg.sub.sibling", "pkg.up", "pkg.up.thing"} <= names
    assert not {"d", "h", "script_only", "not_a_line_start", "as"} & names
    assert stdlib.imported_names("from .mod import x", "pkg.sub", package=True) == {
        "pkg.sub.mod",
        "pkg.sub.mod.x",
    }


def test_a_left_out_module_reached_through_others_stops_the_build_with_its_chain() -> None:
    standard = modules(
        json__init="from .decoder import loads",
        json__decoder="import re",
        re="",
        tools="def helper():\n    import testing_kit\n",
        testing_kit="",
    )
    page = modules(game="import json\nimport tools\n")
    with pytest.raises(stdlib.StdlibError) as caught:
        stdlib.check_left_out(standard, page, ("testing_kit",))
    assert "testing_kit <- tools <- game" in str(caught.value)
    stdlib.check_left_out(standard, page, ("unused",))
    stdlib.check_left_out(standard, modules(game="import json\n"), ("testing_kit",))


def test_only_the_console_s_own_imports_are_not_counted() -> None:
    standard = modules(site="def hook():\n    import _pyrepl.readline\n", _pyrepl="")
    stdlib.check_left_out(standard, {}, ("_pyrepl",))
    page = modules(game="import _pyrepl\n")
    with pytest.raises(stdlib.StdlibError, match="_pyrepl <- game"):
        stdlib.check_left_out(standard, page, ("_pyrepl",))


def test_a_page_module_importing_a_left_out_one_fails_against_the_real_library() -> None:
    standard = stdlib.archive_sources(PYODIDE_STDLIB)
    page = modules(engine__x="def debug():\n    import pdb\n")
    with pytest.raises(stdlib.StdlibError, match=re.escape("pdb <- engine.x")):
        stdlib.check_left_out(standard, page, stdlib.LEFT_OUT)
    roots = stdlib.page_roots(standard, modules(game="import json\n"))
    assert "game" in roots and "encodings.utf_8" in roots and "pyodide.ffi" in roots
    reached = stdlib.reached({**standard, **modules(game="import json\n")}, roots)
    assert {"json", "asyncio", "dataclasses", "site"} <= set(reached)
    assert not any(stdlib.is_left_out(name, stdlib.LEFT_OUT) for name in reached)


def test_the_repacked_library_is_pyodides_stored_less_the_left_out(tmp_path: Path) -> None:
    first, second = tmp_path / "one.zip", tmp_path / "two.zip"
    for target in (first, second):
        stdlib.repack_stdlib(PYODIDE_STDLIB, target, [])
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(PYODIDE_STDLIB) as source, zipfile.ZipFile(first) as out:
        kept = [
            i.filename
            for i in source.infolist()
            if not stdlib.is_left_out(i.filename, stdlib.LEFT_OUT)
        ]
        assert [i.filename for i in out.infolist()] == kept
        assert len(kept) < len(source.infolist())
        assert {i.compress_type for i in out.infolist()} == {zipfile.ZIP_STORED}
        for name in kept:
            assert out.read(name) == source.read(name), name
        assert "unittest/case.py" not in out.namelist() and "pdb.py" not in out.namelist()
        assert "asyncio/tasks.py" in out.namelist() and "encodings/utf_8.py" in out.namelist()


def test_a_left_out_name_the_library_lacks_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stdlib, "LEFT_OUT", (*stdlib.LEFT_OUT, "no_such_module"))
    with pytest.raises(stdlib.StdlibError, match="has no no_such_module"):
        stdlib.repack_stdlib(PYODIDE_STDLIB, tmp_path / "out.zip", [])
    assert not (tmp_path / "out.zip").exists()


def test_the_python_the_benchmarks_run_in_a_page_imports_nothing_left_out() -> None:
    """Their ``--profile`` and ``--steps`` code runs in the page (cProfile, pstats, asyncio)."""
    root = Path(__file__).resolve().parents[2] / "benchmarks"
    imported: set[str] = set()
    for script in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                imported |= stdlib.imported_names(node.value, "page", package=False)
    assert {"cProfile", "pstats", "asyncio"} <= imported
    assert not [name for name in imported if stdlib.is_left_out(name, stdlib.LEFT_OUT)]
