"""Entries that change nothing a page shows (a key for someone else's card, a roll whose outcome
no panel shows) hand the page nothing after the panel's redraw, so the page neither lays out nor
paints nor shows a new frame for them. The panel once counted the log's entries on its status
line and changed with every one. A seat's random share for a roll and its key for a revealed card
make no entry of their own: the host logs every seat's at once (``engine.protocol.proofs``)."""

from __future__ import annotations

from collections import Counter

from engine.protocol.session import TableSession
from tests.engine.test_session import connected
from web.ui import parts, table_views


def told(session: TableSession, page: parts.Told) -> bool:
    """Redraw ``session``'s panel as a page does; whether the page is handed anything."""
    moves = session.my_moves()
    drawn = parts.Marked(
        lambda: table_views.panel("ru", session, moves, False, "native", [], "rumble")
    )
    return page.tell(drawn) is not None


async def test_entries_that_change_nothing_shown_leave_the_page_alone() -> None:
    mesh, links = await connected("А", "Б", "В")
    host, guest = mesh.sessions[links[0]], mesh.sessions[links[2]]
    order = [mesh.sessions[link].tid for link in links]
    page = parts.Told()
    changed: Counter[tuple[str, bool]] = Counter()
    seen = [0]

    def redraw() -> None:  # the page's redraw, asked for by the session as in a browser
        peer = guest.peer
        if peer is None:
            return
        kinds = {entry["msg"]["body"]["t"] for entry in peer.table.log[seen[0] :]}
        seen[0] = len(peer.table.log)
        kind = kinds.pop() if len(kinds) == 1 else "several"
        changed[(kind, told(guest, page))] += 1

    guest.on_update = redraw
    await host.open_table("rumble", {"fights": 1}, order, timer=30)
    await mesh.run(4000)
    assert guest.peer is not None and guest.peer.table.stage == "done"
    # No entry of a single seat's share or key; keys for someone else's card change nothing
    # shown; moves always do.
    assert not {kind for kind, _ in changed} & {"preimage", "keys"}, changed
    assert changed[("preimages", True)] > 0 and changed[("reveal", True)] > 0, changed
    assert changed[("deliver", False)] > 0, changed
    assert changed[("action", True)] > 0 and not changed[("action", False)], changed
