"""The minidump reader: a dump laid out as Chromium's crash handler writes it is read back; a
file that is not one, or is cut short, is refused with a clear error and listed as unreadable."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from .crash_dumps import crashes_since, read_dump


def utf16(text: str) -> bytes:
    raw = text.encode("utf-16-le")
    return struct.pack("<I", len(raw)) + raw


def minidump(signal: int, fault: int, rip: int, base: int) -> bytes:
    """A minimal minidump: header, three streams (exception, thread names, one module)."""
    header_size, directory_size = 32, 3 * 12
    at = header_size + directory_size
    exception_at = at
    exception = struct.pack("<IIIIQQII", 7, 0, signal, 0, 0, fault, 0, 0) + bytes(120)
    context_at = exception_at + len(exception) + 8
    context = bytearray(0x4D0)
    struct.pack_into("<Q", context, 0xF8, rip)
    exception += struct.pack("<II", len(context), context_at)
    names_at = context_at + len(context)
    name_rva = names_at + 4 + 12
    names = struct.pack("<I", 1) + struct.pack("<IQ", 7, name_rva) + utf16("chromium")
    modules_at = names_at + len(names)
    module_name_rva = modules_at + 4 + 108
    module = bytearray(108)
    struct.pack_into("<QI", module, 0, base, 0x1000_0000)
    struct.pack_into("<I", module, 20, module_name_rva)
    modules = struct.pack("<I", 1) + bytes(module) + utf16("/usr/lib/chromium/chromium")
    directory = struct.pack("<III", 6, 168, exception_at)
    directory += struct.pack("<III", 0x18, len(names), names_at)
    directory += struct.pack("<III", 4, len(modules), modules_at)
    header = struct.pack("<IIIIIIQ", 0x504D444D, 0xA793, 3, header_size, 0, 0, 0)
    return header + directory + exception + bytes(context) + names + modules


def test_a_dump_tells_the_signal_the_address_the_thread_and_the_instruction(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one.dmp"
    path.write_bytes(minidump(11, 0x175CA4508000, 0x5600_0000_0000 + 0x9C6674D, 0x5600_0000_0000))
    crash = read_dump(path)
    assert (crash.signal, crash.fault_address, crash.thread) == (11, 0x175CA4508000, "chromium")
    assert crash.instruction == "chromium+0x9c6674d"
    assert str(crash).startswith("SIGSEGV at chromium+0x9c6674d (address 0x175ca4508000)")
    outside = tmp_path / "two.dmp"
    outside.write_bytes(minidump(5, 0, 0x1234, 0x5600_0000_0000))
    assert read_dump(outside).instruction == "0x1234"


def test_a_file_that_is_not_a_whole_minidump_is_refused_and_listed_as_unreadable(
    tmp_path: Path,
) -> None:
    (tmp_path / "text.dmp").write_bytes(b"not a dump at all, just some text")
    whole = minidump(11, 0x1000, 0x5600_0000_0010, 0x5600_0000_0000)
    (tmp_path / "short.dmp").write_bytes(whole[:200])
    with pytest.raises(ValueError, match="not a minidump"):
        read_dump(tmp_path / "text.dmp")
    with pytest.raises(ValueError, match="cut short"):
        read_dump(tmp_path / "short.dmp")
    listed = crashes_since(0, tmp_path)
    assert len(listed) == 2
    assert all(c.instruction.startswith("unreadable:") for c in listed)
    assert crashes_since(0, tmp_path / "missing") == []
