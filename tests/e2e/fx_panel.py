"""A stand-in table panel for the effects' browser tests, built by the page's Python."""

from __future__ import annotations


def panel_code(seats: list[tuple[int, int]], dice_style: str = "", more: str = "") -> str:
    """Python for ``runPythonAsync``: imports ``fx``, ``icon`` and ``Sound``, and puts on the page
    a ``#table`` panel with a seat's box at each ``(left, top)`` (px), a roll of two dice (with
    ``dice_style``) and the HTML ``more``."""
    boxes = "".join(
        f'\'<article class="wizard" data-seat="{seat}"'
        f' style="position:absolute;left:{left}px;top:{top}px">{chr(65 + seat)}</article>\'\n    '
        for seat, (left, top) in enumerate(seats)
    )
    style = f' style="{dice_style}"' if dice_style else ""
    return (
        "from js import document\n"
        "from web.ui import fx\n"
        "from web.ui.i18n import icon\n"
        "from web.ui.sound import Sound\n"
        'panel = document.createElement("div")\n'
        'panel.id = "table"\n'
        "panel.innerHTML = (\n    "
        f'{boxes}\'<div id="dice" class="dice" data-roll="1"{style}>\'\n'
        '    \'<span class="die">3</span><span class="die">5</span></div>\'\n'
        f"    {more!r}\n"
        ")\n"
        "document.body.appendChild(panel)\n"
    )
