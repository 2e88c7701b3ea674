"""The card-picture benchmark shows hands of cards the page has not shown, as the site draws
them (bitmaps), as SVG (before), and without pictures (the floor)."""

from __future__ import annotations

from benchmarks import bench_card_pictures as bench
from web.build import ROOT


def test_every_hand_holds_new_cards_drawn_as_asked() -> None:
    bitmaps, svgs, bare = (bench.hands(kind) for kind in (bench.BITMAPS, bench.SVG, bench.FLOOR))
    for hands in (bitmaps, svgs, bare):
        assert len(hands) == bench.HANDS and all(len(h) == bench.HAND for h in hands)
    shown = [url for hand in bitmaps for url in hand]
    assert len(set(shown)) == len(shown), "no card is shown twice"
    assert all(url.startswith("/art/rumble/") and url.endswith(".webp") for url in shown)
    assert all(url.endswith(".svg") for hand in svgs for url in hand)
    assert [u.removesuffix(".webp") for u in shown] == [
        u.removesuffix(".svg") for hand in svgs for u in hand
    ], "the same cards either way"
    assert all(url == "" for hand in bare for url in hand)
    for url in shown:  # the built site has each of them
        assert (ROOT / "web" / "dist" / url.lstrip("/")).is_file(), url
