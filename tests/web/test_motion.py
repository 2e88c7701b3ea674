"""The page's motion stays on the compositor: no animation or transition of the style sheet, and no
Web Animation of ``web/ui/fx.py``, moves a layout property (left, top, width…), which would lay
out and paint the whole page on every frame while it plays (a flying icon did, for 0.6 s a hit)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from web.ui import circle_views

WEB = Path(__file__).resolve().parents[2] / "web"
STYLE = WEB / "static" / "style.css"
COMPOSITED = {"transform", "opacity"}
LAYOUT = re.compile(r"^(left|top|right|bottom|inset|width|height|margin.*|padding.*|font.*)$")


EASING = "animation-timing-function"  # a keyframe's own easing to the next: not animated


def keyframes(css: str) -> dict[str, set[str]]:
    """Each ``@keyframes`` block's name and the properties its frames animate."""
    out: dict[str, set[str]] = {}
    for match in re.finditer(r"@keyframes\s+([\w-]+)\s*\{", css):
        depth, i = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(css[i], 0)
            i += 1
        body = css[match.end() : i - 1]
        out[match.group(1)] = set(re.findall(r"([\w-]+)\s*:", body)) - {EASING}
    return out


def transitioned(css: str) -> set[str]:
    """Every property a ``transition`` declaration names."""
    names: set[str] = set()
    for value in re.findall(r"(?<![\w-])transition\s*:\s*([^;}]+)", css):
        names |= {part.split()[0] for part in value.split(",") if part.split()}
    return names - {"none"}


def test_keyframes_move_only_transform_and_opacity() -> None:
    frames = keyframes(STYLE.read_text("utf-8"))
    assert {"fx-fly", "c-fly", "fx-float", "fx-banner-in", "fx-banner-out"} <= frames.keys()
    moving = {name: props - COMPOSITED for name, props in frames.items() if props - COMPOSITED}
    assert not moving, moving


def shared_properties(css: str) -> dict[str, set[str]]:
    """Each ``animation`` declaration (its value) that runs two keyframes of one property at once
    on its element, and the properties they share."""
    frames = keyframes(css)
    shared: dict[str, set[str]] = {}
    for value in re.findall(r"(?<![\w-])animation\s*:\s*([^;}]+)", css):
        names = [n for part in value.split(",") for n in re.findall(r"[\w-]+", part) if n in frames]
        seen: set[str] = set()
        for name in names:
            if frames[name] & seen:
                shared[value.strip()] = frames[name] & seen
            seen |= frames[name]
    return shared


def test_no_rule_runs_two_animations_of_one_property() -> None:
    """Chromium composites neither of two animations running at once on one property of one
    element: both tick on the page's thread (``tests/e2e/test_fx_composited.py`` sees it)."""
    css = STYLE.read_text("utf-8")
    assert not shared_properties(css), shared_properties(css)
    old = (
        ".x { animation: fly .6s both, land .2s .6s forwards; }"
        " @keyframes fly { to { transform: none; } } @keyframes land { to { opacity: 0;"
        " transform: scale(1.4); } }"
    )
    assert shared_properties(old) == {"fly .6s both, land .2s .6s forwards": {"transform"}}


def test_no_transition_lays_out_the_page_while_a_game_is_played() -> None:
    names = transitioned(STYLE.read_text("utf-8"))
    assert "transform" in names
    # The loading bar's width runs before Python starts, never during play.
    layout = {n for n in names if LAYOUT.match(n)} - {"width"}
    assert not layout, layout
    width = re.findall(r"([^{}]+)\{[^}]*transition\s*:[^;}]*\bwidth\b", STYLE.read_text("utf-8"))
    assert [w.strip() for w in width] == ["#progress-bar"], width


def web_animations() -> dict[str, list[dict[str, Any]]]:
    """The keyframe lists ``fx.py`` hands to ``animate`` (module constants; ``fx`` itself needs
    the browser's ``js`` module, so its source is read)."""
    tree = ast.parse((WEB / "ui" / "fx.py").read_text("utf-8"))
    animated = {
        node.args[1].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "animate"
        and len(node.args) > 1 and isinstance(node.args[1], ast.Name)
    }  # fmt: skip
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in animated
    }  # fmt: skip


def test_web_animations_move_only_transform_and_opacity() -> None:
    animations = web_animations()
    assert {"TUMBLE", "SHAKE", "SPELL_FLIGHT"} <= animations.keys()
    for name, frames in animations.items():
        assert {key for frame in frames for key in frame} <= COMPOSITED, name


def test_the_checks_find_a_layout_animation() -> None:
    css = (
        "@keyframes slide { from { left: 0; animation-timing-function: ease-in; }"
        " to { left: 9px; opacity: 1 } }"
        " a { transition: top 1s, opacity .2s; }"
    )
    assert keyframes(css) == {"slide": {"left", "opacity"}}
    assert transitioned(css) == {"top", "opacity"}


def test_the_circle_spell_flies_by_a_distance_in_units_of_its_ring() -> None:
    view_spell = {
        "card": "x", "target": 2, "previous": 0, "step": 1, "power": 3, "base_power": 3,
    }  # fmt: skip
    html = circle_views._spell(view_spell, 0, 4)
    dx, dy = re.search(r"--dx:(-?[\d.]+)cqw;--dy:(-?[\d.]+)cqh", html).groups()  # type: ignore[union-attr]
    assert (float(dx), float(dy)) != (0.0, 0.0)
    assert "--fx" not in html and "left:" not in html
    assert "container-type: size" in STYLE.read_text("utf-8").split(".c-ring", 1)[1].split("}")[0]


def fx_constant(name: str) -> Any:
    """A module constant of ``fx.py`` (read from its source: ``fx`` needs the browser)."""
    tree = ast.parse((WEB / "ui" / "fx.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"fx.py has no {name}")


def animations_end_ms(css: str, selector: str) -> float:
    """When the last of the animations a rule of exactly ``selector`` declares ends (each one's
    delay plus duration, from its ``animation`` shorthand)."""
    rule = re.search(re.escape(selector) + r"\s*\{[^}]*?animation\s*:\s*([^;}]+)", css)
    assert rule is not None, selector
    ends = []
    for part in rule.group(1).split(","):
        times = [
            float(value) * (1 if unit == "ms" else 1000)
            for value, unit in re.findall(r"(?<![\w-])([\d.]+)(m?s)\b", part)
        ]
        assert times, part
        ends.append(sum(times[:2]))
    return max(ends)


def test_each_effect_leaves_the_layer_when_its_animations_have_ended() -> None:
    """An effect's element is removed once its animations have run: not before (it would be cut
    off), and not long after (a flown icon stood still on its seat, then vanished at once)."""
    css = STYLE.read_text("utf-8")
    for selector, constant in ((".fx-float", "FLOAT_MS"), (".fx-fly", "FLY_MS")):
        ends, lifetime = animations_end_ms(css, selector + " "), fx_constant(constant)
        assert ends <= lifetime <= ends + 100, (selector, ends, lifetime)


def test_the_animation_ends_are_read_from_every_part_of_the_shorthand() -> None:
    css = ".a { animation: one .6s ease both, two .2s .6s ease-in forwards; }"
    assert animations_end_ms(css, ".a ") == 800
    assert animations_end_ms(".b { animation: x 1.3s ease-out forwards; }", ".b ") == 1300


def test_a_banner_comes_in_stands_and_leaves_within_its_lifetime() -> None:
    """``fx.py`` starts a banner's exit at ``BANNER_LEAVES_MS`` and removes it at ``BANNER_MS``;
    the style sheet's entrance must end before the one and the exit before the other."""
    css = STYLE.read_text("utf-8")
    leaves, lifetime = fx_constant("BANNER_LEAVES_MS"), fx_constant("BANNER_MS")
    entrance = animations_end_ms(css, ".fx-banner ")
    leaving = animations_end_ms(css, ".fx-banner.leaving")
    assert entrance < leaves
    assert leaves + leaving <= lifetime, (leaves, leaving, lifetime)


FLIPS_WITHIN_MS = 300  # every page draws each frame of a flip (see style.css)
DELAYED_CARD = r"\.fx-banner \.fx-cards img:nth-child\(\d\)\s*\{\s*animation-delay:\s*([\d.]+)(m?s)"


def test_a_banners_cards_have_all_turned_over_within_its_entrance() -> None:
    """The cards of a banner turn over one after another, the last done ``FLIPS_WITHIN_MS`` after
    the banner appears, while it comes in: each frame of a moving banner is drawn on every page,
    and one banner cost 177 ms of CPU a page with .3 s flips .1 s apart after a fading entrance,
    112 with these flips and an entrance and exit by transform alone
    (``benchmarks/bench_effects.py``, ``docs/benchmarks.md``)."""
    css = STYLE.read_text("utf-8")
    flip = animations_end_ms(css, ".fx-banner .fx-cards img ")
    delays = [
        float(value) * (1 if unit == "ms" else 1000)
        for value, unit in re.findall(DELAYED_CARD, css)
    ]
    assert len(delays) == 2, delays  # the second and third cards follow the first
    assert sorted(delays) == delays and delays[0] > 0, delays  # one after another
    assert flip + max(delays) <= FLIPS_WITHIN_MS, (flip, delays)
    entrance = animations_end_ms(css, ".fx-banner ")
    assert flip + max(delays) <= entrance + 50, (flip, delays, entrance)


def test_a_banner_comes_and_goes_by_its_transform_alone() -> None:
    """A banner's entrance and exit do not fade it: its opacity would have every page's compositor
    draw the banner and its turning cards apart and blend them on every frame (a banner cost a
    quarter more CPU so, ``benchmarks/bench_effects.py``); its cards may fade as they turn."""
    frames = keyframes(STYLE.read_text("utf-8"))
    assert frames["fx-banner-in"] == frames["fx-banner-out"] == {"transform"}, frames
    assert "opacity" in frames["fx-flip"]
