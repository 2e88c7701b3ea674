"""The style sheet asks no extra work of every frame: no ``content-visibility: auto``. On the
boards' logs (a few dozen lines, ``log_view.first_shown``) it made each frame with a new line run
an intersection pass, then lay out and restyle the page a second time as the line's visibility
was settled: 38 % of the renderers' lifecycle time in a traced «Схватка» fight
(docs/benchmarks.md)."""

from __future__ import annotations

import re
from pathlib import Path

STYLE = Path(__file__).resolve().parents[2] / "web" / "static" / "style.css"


def test_no_element_is_rendered_on_visibility() -> None:
    css = STYLE.read_text("utf-8")
    assert ".game-log li" in css  # the rules the log's lines had are still read here
    assert not re.findall(r"content-visibility\s*:\s*auto", css)
