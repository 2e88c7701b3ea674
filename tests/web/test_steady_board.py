"""The boards keep their lines in place as a game goes on: every «Схватка» wizard's box has its
spell's line (empty until a spell is sealed), and the «Схватка» and «Невермор» boards their waiting
line (empty when nobody is waited for), so a seal, a cast or a finished wait does not move the
boxes and the hand below."""

from __future__ import annotations

import re

from tests.web.test_parts import views_of
from web.ui import nevermore_views, rumble_views

SPELL_LINE = re.compile(r'<p class="(spell-line|spell-name|sealed)"[ >]')


def test_every_box_has_its_spell_line_and_the_board_its_waiting_line() -> None:
    views = views_of("rumble", 400)
    kinds = set()
    waits = set()
    for view in views:
        html = rumble_views.board(view, 1, [], [])
        boxes = html.split('<article class="wizard')[1:]
        assert len(boxes) == len(view["seats"])
        for box in boxes:
            found = SPELL_LINE.findall(box.split("</article>")[0])
            assert len(found) == 1, box
            kinds.add(found[0])
        lines = re.findall(r'<p class="wait">([^<]*)</p>', html)
        assert len(lines) == 1, html
        waits.add(bool(lines[0]))
    assert kinds == {"spell-line", "spell-name", "sealed"}  # all three states were drawn
    assert waits == {True, False}


def test_the_nevermore_board_always_has_its_waiting_line() -> None:
    waits = set()
    for view in views_of("nevermore", 300):
        lines = re.findall(r'<p class="wait">([^<]*)</p>', nevermore_views.board(view, 1, [], []))
        assert len(lines) == 1, view["need"]
        waits.add(bool(lines[0]))
    assert waits == {True, False}
