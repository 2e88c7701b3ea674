"""A table's channels and messages that come before its session exists (while the page still
picks its crypto backend) are kept and handed over: every peer is greeted once the page has its
identity, and their hellos are taken, not lost. Runs ``web.ui.table`` against a stand-in for the
browser's ``js`` module (a page with no panel yet: nothing is drawn)."""

from __future__ import annotations

import asyncio
import importlib
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from engine.fairness.backends.native import NativeBackend
from engine.protocol.storage import MemoryStorage
from web.ui.room import Room


class Nothing:
    """Any attribute, any call, and no element found: a page without a table panel."""

    def __getattr__(self, name: str) -> Any:
        return Nothing()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return None


PAGE_MODULES = ("web.ui.table", "web.ui.dock", "web.ui.rehearsal")  # imported with the stand-in


@pytest.fixture
def table_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    js = types.ModuleType("js")
    js.document = Nothing()  # type: ignore[attr-defined]
    js.window = Nothing()  # type: ignore[attr-defined]
    js.performance = Nothing()  # type: ignore[attr-defined]
    js.ResizeObserver = Nothing()  # type: ignore[attr-defined]
    js.Object = Nothing()  # type: ignore[attr-defined]
    js.console = Nothing()  # type: ignore[attr-defined]
    js.localStorage = MemoryStorage()  # type: ignore[attr-defined]
    js.sessionStorage = MemoryStorage()  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.JsProxy = object  # type: ignore[attr-defined]
    ffi.create_proxy = lambda f: f  # type: ignore[attr-defined]
    ffi.create_once_callable = lambda f: f  # type: ignore[attr-defined]
    ffi.to_js = lambda value, **_: value  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    for name in PAGE_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield importlib.import_module("web.ui.table")
    for name in PAGE_MODULES:
        sys.modules.pop(name, None)


def room(you: str) -> Room:
    roster = [
        {"id": "a", "name": "Аня", "role": "player", "order": 0},
        {"id": "b", "name": "Боря", "role": "player", "order": 1},
    ]
    frame = {"type": "joined", "room": "ABCD", "you": you, "host": "a", "roster": roster}
    return Room.from_joined(frame, "Аня" if you == "a" else "Боря")


async def test_channels_and_hellos_before_the_session_are_kept_until_it_exists(
    table_module: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = asyncio.Event()

    async def slow_backend() -> NativeBackend:  # the page's self-test of its backends
        await chosen.wait()
        return NativeBackend()

    monkeypatch.setattr(table_module, "select_backend", slow_backend)
    sent: list[tuple[str, dict[str, Any]]] = []
    table = table_module.TableUI(room("a"), "Аня", "player", lambda to, text: sent.append(to))
    starting = asyncio.ensure_future(table.start([]))
    await asyncio.sleep(0)
    assert table.session is None
    table.channel_open("b")  # Боря's channel opened, and his hello came, before the session
    hello = {"t": "table-hello", "tid": "b0b0b0b0", "name": "Боря", "role": "player"}
    hello |= {"sign": "04" + "11" * 64, "dh": "04" + "22" * 64, "hero": "", "ready": False}
    assert table.deliver("b", hello)
    assert not table.deliver("b", {"t": "chat", "text": "привет"})  # chat is not the table's
    table.channel_open("c")
    for n in range(100):  # a peer that floods the table before the session exists...
        assert table.deliver("c", {"t": "table-junk", "n": n})
    table.link_closed("c")  # ...and a channel that closed meanwhile are forgotten
    table.channel_open("d")
    for n in range(100):  # a flood from one link does not crowd out another link's hello
        table.deliver("d", {"t": "table-junk", "n": n})
    table.deliver("b", hello)
    assert sum(1 for link, _ in table._early_messages if link == "d") == 32
    assert [m for link, m in table._early_messages if link == "b"] == [hello, hello]
    table.link_closed("d")
    chosen.set()
    await starting
    session = table.session
    for _ in range(20):  # the session's worker takes the kept hello
        await asyncio.sleep(0)
    assert sent == ["b"]  # greeted once, when the identity was made; never the closed channel
    assert session.greeted == {"b"}
    assert "b0b0b0b0" in session.hellos and session.tids["b"] == "b0b0b0b0"
    table.stop()


async def test_a_new_games_entries_and_clicks_are_stamped_afresh(
    table_module: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmarks time clicks by when each log entry was first shown: the record is per
    game, so a second game's entries are stamped when they show, not taken for the first's."""
    clock = iter(range(1000))
    monkeypatch.setattr(table_module, "wall_ms", lambda: float(next(clock)))
    table = table_module.TableUI(room("a"), "Аня", "player", lambda to, text: None)
    log: list[str] = []
    peer = types.SimpleNamespace(table=types.SimpleNamespace(log=log))
    table.session = types.SimpleNamespace(peer=peer, table={"game": "one"})
    log += ["x", "y", "z"]
    table._stamp_shown()
    table.submitted_at.append([1.5, 1])
    log.append("w")
    table._stamp_shown()
    assert table.applied_at == [0.0, 1.0, 2.0, 3.0]
    table._stamp_shown()  # nothing new: nothing stamped
    assert len(table.applied_at) == 4
    log[:] = ["a"]  # the next game's table opens with an entry of its own
    table.session.table = {"game": "two"}
    table._stamp_shown()
    assert table.applied_at == [4.0] and table.submitted_at == []
    log.append("b")
    table._stamp_shown()
    assert table.applied_at == [4.0, 5.0]
