"""Where a click's time goes on its way to every page: the author's send, the host's arrival and
broadcast, each page's arrival, acceptance and redraw of every entry, on one clock (``--path``
of the browser benchmarks).

Each page's Python is wrapped (``PATCH``) to note the wall-clock moment of every table frame it
sends or that arrives, and of every entry its table accepts; the redraw's moment is the page's own
``applied_at``. A frame is told by text searches, not parsed (a post by its signature's start, an
entry by its number, the last ``seq`` of its canonical text). The wrapping adds work to every page,
so a ``--path`` run's own click figures are not the product's; its legs are for comparing.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from benchmarks.bench_table_browser import click_entries, pct
from tests.e2e.harness import Player

PATCH = r"""
import re
from js import performance
from engine.protocol.mesh_transport import MeshTransport
from engine.protocol.session import TableSession
from engine.protocol.table import Table
PATH = []
_SIG, _SEQ = re.compile(r'"sig":"([0-9a-f]{16})'), re.compile(r'"seq":(\d+)')
def _now():
    return performance.timeOrigin + performance.now()
def _note(what, wire):
    if wire.startswith('{"k":"post"'):
        found = _SIG.search(wire)
        if found:
            PATH.append([_now(), what + "-post", found.group(1)])
    elif wire.endswith('"k":"entry"}'):
        found = _SEQ.findall(wire)
        if found:
            PATH.append([_now(), what + "-entry", int(found[-1])])
_broadcast = MeshTransport.broadcast
def _timed_broadcast(self, message):
    _note("send", message)
    _broadcast(self, message)
MeshTransport.broadcast = _timed_broadcast
_deliver = TableSession.deliver
def _timed_deliver(self, link, message):
    wire = message.get("m")
    if isinstance(wire, str):
        _note("recv", wire)
    _deliver(self, link, message)
TableSession.deliver = _timed_deliver
from engine.protocol.peer import Peer
_receive = Peer._receive
async def _timed_receive(self, sender, raw):
    _note("handle", raw)
    await _receive(self, sender, raw)
Peer._receive = _timed_receive
_accept = Table.accept
async def _timed_accept(self, entry, via, **options):
    await _accept(self, entry, via, **options)
    PATH.append([_now(), "accepted", len(self.log) - 1])
Table.accept = _timed_accept
PARTS = {}
def _timed(owner, name):
    inner = getattr(owner, name)
    async def timed(self, *args, **options):
        start = performance.now()
        try:
            return await inner(self, *args, **options)
        finally:
            PARTS.setdefault(name, []).append(performance.now() - start)
    setattr(owner, name, timed)
for _owner, _name in ((Table, "_check_signed_entry"), (Table, "plan"), (Table, "_advance"),
                      (Peer, "_after_entry"), (Peer, "receive")):
    _timed(_owner, _name)
"""
READ = """() => { const t = window.magicTableApp.table;
  const log = t.session.peer.table.log.toJs({dict_converter: Object.fromEntries});
  return JSON.stringify({ path: window.magicTable.pyodide.runPython(
      'import json; json.dumps(PATH)'), sigs: log.map((e) => e.msg.sig.slice(0, 16)),
      parts: window.magicTable.pyodide.runPython('import json; json.dumps(PARTS)') }); }"""
RUN = "(code) => window.magicTable.pyodide.runPython(code)"


async def start(players: list[Player]) -> None:
    """Begin noting on every page (before the game starts)."""
    for player in players:
        await player.page.evaluate(RUN, PATCH)


async def read(players: list[Player]) -> list[dict[str, Any]]:
    """Every page's notes and the log's signatures (the same log on every page)."""
    out = []
    for player in players:
        raw = json.loads(await player.page.evaluate(READ))
        path, parts = json.loads(raw["path"]), json.loads(raw["parts"])
        out.append({"path": path, "sigs": raw["sigs"], "parts": parts})
    return out


def _first(notes: list[list[Any]], kind: str, key: Any) -> float | None:
    return next((float(at) for at, what, k in notes if what == kind and k == key), None)


def segments(
    paths: list[dict[str, Any]],
    traces: list[dict[str, Any]],
    indices: list[int],
    host: int = 0,
) -> dict[str, list[float]]:
    """For each entry index (a click's entry), the ms of each leg on the slowest page:
    author's send → host's arrival → host's broadcast → arrival → accepted → shown."""
    legs: dict[str, list[float]] = defaultdict(list)
    sigs = paths[0]["sigs"]
    tids = [t["tid"] for t in traces]
    for index in indices:
        author = traces[0]["log"][index][0]
        if author not in tids:
            continue
        sent = _first(paths[tids.index(author)]["path"], "send-post", sigs[index])
        host_in = _first(paths[host]["path"], "recv-post", sigs[index])
        out = _first(paths[host]["path"], "send-entry", index)
        arrived = [_first(p["path"], "recv-entry", index) for p in paths]
        accepted = [_first(p["path"], "accepted", index) for p in paths]
        shown = [t["applied"][index] for t in traces if index < len(t["applied"])]
        arrived[host] = out  # the host made it
        if None in (sent, host_in, out) or None in arrived or None in accepted:
            continue  # the host's own entries have no post; a page missed one
        if len(shown) < len(paths):
            continue
        assert sent is not None and host_in is not None and out is not None
        legs["author send → host arrival"].append(host_in - sent)
        legs["host arrival → host broadcast"].append(out - host_in)
        for page, (came, done) in enumerate(zip(arrived, accepted, strict=True)):
            assert came is not None and done is not None
            role = "host" if page == host else "author" if tids[page] == author else "other guest"
            if page != host:
                legs[f"broadcast → arrival at {role}"].append(came - out)
                handled = _first(paths[page]["path"], "handle-entry", index)
                if handled is not None:
                    legs["guests' arrival → handling starts"].append(handled - came)
                    legs["guests' handling starts → accepted"].append(done - handled)
            legs[f"broadcast → accepted at {role}"].append(done - out)
        legs["broadcast → last arrival"].append(max(a for a in arrived if a is not None) - out)
        legs["broadcast → last accepted"].append(max(a for a in accepted if a is not None) - out)
        legs["broadcast → last shown"].append(max(shown) - out)
        legs["author send → last shown"].append(max(shown) - sent)
    return legs


def click_legs(paths: list[dict[str, Any]], traces: list[dict[str, Any]]) -> dict[str, list[float]]:
    """``segments`` of every click's entries (its action, and the ``cardkeys`` that shows its
    cards), plus the click → author's send of its first post."""
    indices: set[int] = set()
    before_send: list[float] = []
    legs_by_kind: dict[str, list[float]] = defaultdict(list)
    log = traces[0]["log"]
    for ms, index in click_entries(traces):
        indices.add(index)
        author = log[index][0]
        action = next(
            (j for j in range(index, max(-1, index - 4), -1) if log[j][:2] == [author, "action"]),
            index,
        )
        indices.add(action)
        kind = "one entry" if action == index else "action, then its cardkeys"
        legs_by_kind[f"click → shown on every page, {kind}"].append(ms)
        page = next(i for i, t in enumerate(traces) if t["tid"] == author)
        sent = _first(paths[page]["path"], "send-post", paths[page]["sigs"][action])
        if sent is not None:
            before_send.append(ms - (max(t["applied"][index] for t in traces) - sent))
    legs = segments(paths, traces, sorted(indices))
    legs["click → author's send"] = before_send
    legs.update(legs_by_kind)
    for guest in paths[1:]:  # every entry, each part's own wall-clock time
        for name, values in guest["parts"].items():
            legs.setdefault(f"guests' {name} (every call)", []).extend(values)
    return dict(legs)


def report(legs: dict[str, list[float]]) -> str:
    """Each leg's p50 and p95 (ms)."""
    lines = ["where a click's time goes (slowest page; ms):"]
    for name, values in legs.items():
        if values:
            p50, p95 = pct(values, 0.5), pct(values, 0.95)
            lines.append(f"  {name:34s} p50 {p50:6.1f}  p95 {p95:6.1f}  ({len(values)})")
    return "\n".join(lines)
