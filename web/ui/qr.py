"""QR codes for room links, drawn by segno (pure Python) as an SVG data URI."""

from __future__ import annotations

import segno


def svg_data_uri(text: str) -> str:
    """A scalable black-on-white QR code of ``text``, ready for an ``<img src>``."""
    return str(segno.make(text, error="m").svg_data_uri(scale=4, border=2))
