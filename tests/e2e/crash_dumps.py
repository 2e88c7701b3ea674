"""Where a crashed Chromium process was: read from the minidump its crash handler wrote.

Debian's Chromium keeps a minidump of every crashed process under its configuration folder
(``~/.config/chromium/Crash Reports/pending``), even with ``--disable-breakpad`` and a temporary
profile. Without symbols a dump still tells the signal, the faulting address, the thread, and the
instruction as ``module+offset`` — enough to tell one crash from another, and to see that every
start-up crash of the suite was the same instruction (docs/testing.md). The reader is a few
fixed-layout structures of the minidump format (header, stream directory, exception, thread
names, modules); PyPI's minidump parsers target Windows dumps and fail on a Linux dump's missing
process block.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

EXCEPTION, MODULES, THREAD_NAMES = 6, 4, 0x18
RIP_IN_CONTEXT = 0xF8  # MINIDUMP_CONTEXT_AMD64.Rip
SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV"}


def dump_folder() -> Path:
    """The folder Chromium's crash handler writes its minidumps to on this machine."""
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return config / "chromium" / "Crash Reports" / "pending"


@dataclass(frozen=True)
class Crash:
    """One crashed process, as its minidump tells it."""

    path: Path
    signal: int
    fault_address: int
    thread: str
    instruction: str  # module+offset, or the bare address outside every module

    def __str__(self) -> str:
        name = SIGNALS.get(self.signal, f"signal {self.signal}")
        return (
            f"{name} at {self.instruction} (address {self.fault_address:#x}) in thread"
            f" {self.thread!r}; dump {self.path.name}"
        )


def _string(data: bytes, rva: int) -> str:
    (length,) = struct.unpack_from("<I", data, rva)
    return data[rva + 4 : rva + 4 + length].decode("utf-16-le", "replace")


def read_dump(path: Path) -> Crash:
    """The crash one minidump records; ``ValueError`` if it is not a minidump with an exception."""
    data = path.read_bytes()
    try:
        signature, _version, count, directory = struct.unpack_from("<IIII", data, 0)
        if signature != 0x504D444D:  # "MDMP"
            raise ValueError(f"{path.name} is not a minidump")
        streams = {}
        for i in range(count):
            kind, _size, rva = struct.unpack_from("<III", data, directory + 12 * i)
            streams[kind] = rva
        if EXCEPTION not in streams:
            raise ValueError(f"{path.name} records no exception")
        at = streams[EXCEPTION]
        thread_id, _, code, _flags, _record, address = struct.unpack_from("<IIIIQQ", data, at)
        _context_size, context = struct.unpack_from("<II", data, at + 160)
        (rip,) = struct.unpack_from("<Q", data, context + RIP_IN_CONTEXT)
        names = {}
        if THREAD_NAMES in streams:
            at = streams[THREAD_NAMES]
            (n,) = struct.unpack_from("<I", data, at)
            for i in range(n):
                tid, rva = struct.unpack_from("<IQ", data, at + 4 + 12 * i)
                names[tid] = _string(data, rva)
        instruction = f"{rip:#x}"
        at = streams.get(MODULES, 0)
        (n,) = struct.unpack_from("<I", data, at) if at else (0,)
        for i in range(n):
            base, size = struct.unpack_from("<QI", data, at + 4 + 108 * i)
            (name_rva,) = struct.unpack_from("<I", data, at + 4 + 108 * i + 20)
            if base <= rip < base + size:
                instruction = f"{Path(_string(data, name_rva)).name}+{rip - base:#x}"
    except struct.error as error:
        raise ValueError(f"{path.name} is cut short: {error}") from error
    return Crash(path, code, address, names.get(thread_id, str(thread_id)), instruction)


def crashes_since(moment: float, folder: Path | None = None) -> list[Crash]:
    """Every crash whose minidump was written at ``moment`` (a ``time.time()``) or later."""
    folder = folder or dump_folder()
    found = []
    for path in sorted(folder.glob("*.dmp"), key=lambda p: p.stat().st_mtime):
        if path.stat().st_mtime >= moment - 1:
            try:
                found.append(read_dump(path))
            except (OSError, ValueError) as error:
                found.append(Crash(path, 0, 0, "?", f"unreadable: {error}"))
    return found
