"""Generate the deterministic SVG art of «Невермор»: ``python seeds/nevermore/make_art.py``.

Every card (main suits, Light and Shadow magic), the five suit icons and the six resolution tokens
get one SVG under ``seeds/nevermore/art/``: a frame coloured by deck, the suit icon or a sigil
derived from the card id's hash, and the Russian name. Running it twice writes identical files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ART = HERE / "art"
ICONS = {
    "attack": '<path d="M50 12 L56 62 L50 70 L44 62 Z M36 62 H64 V67 H36 Z M47 67 H53 V84 H47 Z"/>',
    "healing": '<path d="M50 80 C20 58 18 36 34 30 C43 27 48 33 50 38 C52 33 57 27 66 30'
    ' C82 36 80 58 50 80 Z"/>',
    "radiance": '<path d="M50 50 m-4 0 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0 M50 50 C70 30 80 50 64 64'
    ' C48 78 26 64 30 46 C34 28 58 22 70 34" fill="none" stroke-width="6"/>',
    "victory": '<path d="M32 24 H68 C68 48 60 56 50 58 C40 56 32 48 32 24 Z M46 58 H54 V70 H46 Z'
    ' M38 70 H62 V78 H38 Z"/>',
    "raven": '<path d="M22 58 C34 40 50 34 62 36 L74 30 L70 40 C76 46 74 56 64 60 L80 74'
    ' L58 66 C46 70 32 68 22 58 Z"/>',
}
COLOURS = {
    "main": ("#2b2233", "#e9e1f2"),
    "light": ("#f4ecd0", "#6a5312"),
    "shadow": ("#1b1b26", "#b9a7e8"),
    "token": ("#3a2f22", "#f0d9a8"),
}
SUIT_TINT = {
    "attack": "#c0392b",
    "healing": "#8e44ad",
    "radiance": "#ecf0f1",
    "victory": "#d4ac0d",
    "raven": "#17202a",
}


def sigil(card_id: str) -> str:
    """A small geometric sigil from the id's hash (distinct per card)."""
    digest = hashlib.sha256(card_id.encode()).digest()
    parts = []
    for i in range(5):
        x = 20 + digest[i] % 60
        y = 20 + digest[i + 5] % 60
        r = 4 + digest[i + 10] % 10
        parts.append(f'<circle cx="{x}" cy="{y}" r="{r}"/>')
    pts = " ".join(f"{20 + digest[15 + i] % 60},{20 + digest[20 + i] % 60}" for i in range(4))
    parts.append(f'<polygon points="{pts}" fill="none" stroke-width="3"/>')
    return "".join(parts)


def card_svg(card_id: str, title: str, deck: str, suit: str | None, sub: str = "") -> str:
    bg, fg = COLOURS[deck]
    tint = SUIT_TINT.get(suit or "", fg)
    art = ICONS[suit] if suit else sigil(card_id)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 280" width="200" height="280">'
        f'<rect x="2" y="2" width="196" height="276" rx="14" fill="{bg}" stroke="{fg}"'
        ' stroke-width="4"/>'
        f'<rect x="14" y="14" width="172" height="172" rx="10" fill="none" stroke="{fg}"'
        ' stroke-opacity="0.5"/>'
        f'<g transform="translate(20 20) scale(1.6)" fill="{tint}" stroke="{fg}"'
        f' stroke-width="1.5">{art}</g>'
        f'<text x="100" y="222" text-anchor="middle" font-family="serif" font-size="20"'
        f' fill="{fg}">{escape(title)}</text>'
        f'<text x="100" y="252" text-anchor="middle" font-family="serif" font-size="12"'
        f' fill="{fg}" fill-opacity="0.8">{escape(sub)}</text>'
        "</svg>\n"
    )


def icon_svg(suit: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="64" height="64">'
        f'<g fill="{SUIT_TINT[suit]}" stroke="#222" stroke-width="2">{ICONS[suit]}</g></svg>\n'
    )


def main() -> None:
    data = json.loads((HERE / "catalog.json").read_text(encoding="utf-8"))
    ART.mkdir(exist_ok=True)
    files: dict[str, str] = {}
    for card in data["main"]:
        files[card["id"]] = card_svg(
            card["id"], card["name"], "main", card["suit"], "Основная колода"
        )
        files[f"icon_{card['suit']}"] = icon_svg(card["suit"])
    for deck, label in (("light", "Магия Света"), ("shadow", "Магия Тени")):
        for card in data[deck]:
            files[card["id"]] = card_svg(card["id"], card["name"], deck, card.get("suit"), label)
    for token in data["tokens"]:
        suit = token["id"] if token["id"] in ICONS else "raven"
        sub = "Жетон раскрытия"
        files[f"token_{token['id']}"] = card_svg(
            f"token_{token['id']}", token["name"].split(" (")[0], "token", suit, sub
        )
    for stem, text in sorted(files.items()):
        (ART / f"{stem}.svg").write_text(text, encoding="utf-8")
    print(f"{len(files)} файлов в {ART}")


if __name__ == "__main__":
    main()
