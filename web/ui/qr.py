"""QR codes for room links, drawn by segno (pure Python) as an SVG data URI.

segno takes a few hundred milliseconds to import under Pyodide, so it is imported on first use
(or by ``warm_up`` once the page is interactive), never on the start-up path.
"""

from __future__ import annotations


def warm_up() -> None:
    """Import segno ahead of the first room view."""
    import segno  # noqa: F401


def svg_data_uri(text: str) -> str:
    """A scalable black-on-white QR code of ``text``, ready for an ``<img src>``."""
    import segno

    return str(segno.make(text, error="m").svg_data_uri(scale=4, border=2))
