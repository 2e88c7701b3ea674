"""The standard library the page loads: Pyodide's own zip with its members stored, not deflated,
and without the developer tools and mail clients no page can import.

The server's brotli copy of the stored archive is half the size of the deflated one (brotli
compresses across files, deflate only within each member): 1.2 MB fewer on a first visit, for
5.7 MB more in each tab's memory, where Pyodide keeps the zip (8.3 MB instead of 2.5).

A module is left out only if nothing the page can load reaches it by an import statement: the
build reads every import of the site's wheels and of the standard library from its roots, and
stops with an error if a left-out module is reached. Pyodide's standard library is written for a
newer Python than the one that builds the site, so its sources are read as text: every
``import …`` or ``from … import`` statement counts (at the start of a line, or after a ``;`` or a
``:`` on it), at module level, in a function or under a ``try`` (more than runs, never less), and
so does a module named by a literal in an ``__import__`` or ``importlib.import_module`` call,
except in the ``if __name__ == "__main__":`` block (a script's, never run on import) and the
imports that only an interactive console makes (``INTERACTIVE_ONLY``: the page has none).
"""

from __future__ import annotations

import re
import zipfile
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

LEFT_OUT = (
    "__hello__",
    "__phello__",
    "_pyrepl",
    "antigravity",
    "bdb",
    "compileall",
    "doctest",
    "imaplib",
    "mailbox",
    "modulefinder",
    "pdb",
    "pickletools",
    "poplib",
    "pyclbr",
    "pydoc",
    "smtplib",
    "sqlite3",
    "symtable",
    "tabnanny",
    "this",
    "timeit",
    "trace",
    "unittest",
    "wsgiref",
    "zipapp",
)
"""Top-level modules and packages of the standard library the site leaves out (the profiler,
``cProfile`` with ``pstats``, stays: the browser benchmarks' ``--profile`` runs it in the page)."""

INTERACTIVE_ONLY = frozenset({("site", "_pyrepl"), ("_sitebuiltins", "pydoc")})
"""Imports (importer, top-level module imported) that only an interactive console makes: the line
editor of ``sys.__interactivehook__`` and ``help()``. The page has no console."""

ROOT_PACKAGES = ("pyodide", "_pyodide", "encodings")
"""Standard-library packages the runtime imports by name rather than by an import statement:
Pyodide's own modules (from JavaScript) and the codecs (looked up by encoding name)."""

ROOT_MODULES = ("site", "sitecustomize")
"""Modules the interpreter imports as it starts."""

# Dates every member of the repacked zip alike, so the same input gives the same bytes.
FIXED_DATE = (1980, 1, 1, 0, 0, 0)

_IMPORT = re.compile(
    r"(?:^|[;:])[ \t]*(?:import[ \t]+(?P<names>[\w., \t]+)"
    r"|from[ \t]+(?P<base>[\w.]+)[ \t]+import[ \t]+(?P<members>\([^)]*\)|[^\n#;]+))",
    re.MULTILINE,
)
_IMPORT_CALL = re.compile(r"""(?:__import__|import_module)\(\s*['"](?P<name>[\w.]+)['"]""")
_MAIN_BLOCK = re.compile(
    r"^if __name__ == ['\"]__main__['\"]:.*?(?=^\S|\Z)", re.MULTILINE | re.DOTALL
)


class StdlibError(RuntimeError):
    """The standard library could not be trimmed as asked; the message says why."""


def python_sources(members: Iterable[tuple[str, bytes]]) -> dict[str, tuple[str, bool]]:
    """Module name → (source, is a package) for the ``.py`` members of an archive."""
    modules: dict[str, tuple[str, bool]] = {}
    for name, data in members:
        if not name.endswith(".py"):
            continue
        module = name.removesuffix(".py").replace("/", ".")
        package = module.endswith(".__init__")
        modules[module.removesuffix(".__init__")] = (data.decode("utf-8", "replace"), package)
    return modules


def archive_sources(path: Path) -> dict[str, tuple[str, bool]]:
    """The Python modules of a zip archive (a wheel, the standard library)."""
    with zipfile.ZipFile(path) as archive:
        return python_sources((info.filename, archive.read(info)) for info in archive.infolist())


def absolute(base: str, module: str, package: bool) -> str:
    """The module an import names (``from ..x import y`` in ``module`` made absolute)."""
    dots = len(base) - len(base.lstrip("."))
    if not dots:
        return base
    parts = module.split(".") if package else module.split(".")[:-1]
    parts = parts[: len(parts) - dots + 1]
    rest = base[dots:]
    return ".".join([*parts, rest] if rest else parts)


def imported_names(source: str, module: str, package: bool) -> set[str]:
    """Every module name an import line of ``source`` may load (a ``from`` import's members too:
    each may be a submodule) or an ``__import__``/``import_module`` call names by a literal, not
    counting a ``__main__`` block."""
    source = _MAIN_BLOCK.sub("", source)
    names = {found["name"] for found in _IMPORT_CALL.finditer(source)}
    for found in _IMPORT.finditer(source):
        if found["names"]:
            names.update(part.split()[0] for part in found["names"].split(",") if part.split())
            continue
        base = absolute(found["base"], module, package)
        names.add(base)
        members = re.split(r"[\s,()]+", found["members"])
        names.update(f"{base}.{member}" for member in members if member.isidentifier())
    return names


def reached(modules: Mapping[str, tuple[str, bool]], roots: Iterable[str]) -> dict[str, str]:
    """Every module of ``modules`` reached from ``roots`` by import lines, each with the module
    that first imported it (``""`` for a root; breadth first, so the chains are short); a module
    imported also loads its packages."""
    by: dict[str, str] = {}
    todo = deque((root, "") for root in roots if root in modules)
    while todo:
        module, importer = todo.popleft()
        if module in by:
            continue
        by[module] = importer
        source, package = modules[module]
        for name in imported_names(source, module, package):
            parts = name.split(".")
            top = parts[0]
            if (module.split(".")[0], top) in INTERACTIVE_ONLY:
                continue
            for end in range(1, len(parts) + 1):
                loaded = ".".join(parts[:end])
                if loaded in modules and loaded not in by:
                    todo.append((loaded, module))
    return by


def import_chain(by: Mapping[str, str], module: str) -> str:
    """How ``module`` was reached: ``module <- importer <- … <- root``."""
    chain = [module]
    while by.get(chain[-1]):
        chain.append(by[chain[-1]])
    return " <- ".join(chain)


def top_level(name: str) -> str:
    """The top-level module of a module name or of an archive member's path."""
    return name.split("/")[0].split(".")[0]


def is_left_out(name: str, left_out: Collection[str]) -> bool:
    """Whether a module name or an archive member's path lies under a left-out name."""
    return top_level(name) in left_out


def page_roots(
    stdlib: Mapping[str, tuple[str, bool]], page: Mapping[str, tuple[str, bool]]
) -> list[str]:
    """The modules a page may load with no import line of Python naming them: every module of
    its wheels (JavaScript imports them), the interpreter's start, the runtime's own packages."""
    roots = [*page, *ROOT_MODULES]
    return roots + [name for name in stdlib if name.split(".")[0] in ROOT_PACKAGES]


def check_left_out(
    stdlib: Mapping[str, tuple[str, bool]],
    page: Mapping[str, tuple[str, bool]],
    left_out: Collection[str],
) -> None:
    """Raise ``StdlibError`` if a module the page can load reaches a left-out one; ``page`` holds
    the modules of the site's wheels (all of them roots)."""
    by = reached({**stdlib, **page}, page_roots(stdlib, page))
    hits = sorted(name for name in by if is_left_out(name, left_out))
    if hits:
        raise StdlibError(
            "the page can import modules the site leaves out of the standard library: "
            + "; ".join(import_chain(by, name) for name in hits[:5])
            + " (take them off web.stdlib.LEFT_OUT, or the import out of the page)"
        )


def repack_stdlib(source: Path, target: Path, wheels: Iterable[Path]) -> None:
    """Write ``target``: the standard library zip ``source`` with its members stored and those of
    ``LEFT_OUT`` gone, after checking that no module of ``wheels`` or the runtime reaches them."""
    with zipfile.ZipFile(source) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    tops = {top_level(info.filename) for info, _ in members}
    missing = [name for name in LEFT_OUT if name not in tops]
    if missing:
        raise StdlibError(f"{source.name} has no {', '.join(missing)}: update web.stdlib.LEFT_OUT")
    page: dict[str, tuple[str, bool]] = {}
    for wheel in wheels:
        page.update(archive_sources(wheel))
    stdlib = python_sources((info.filename, data) for info, data in members)
    check_left_out(stdlib, page, LEFT_OUT)
    target.unlink(missing_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for info, data in members:
            if not is_left_out(info.filename, LEFT_OUT):
                member = zipfile.ZipInfo(info.filename, FIXED_DATE)
                member.external_attr = info.external_attr
                out.writestr(member, data)
