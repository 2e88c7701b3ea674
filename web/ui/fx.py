"""The table's effects in the browser: numbers flying to portraits, the spell's name in large
type with its cards flipping, the Palace or a raven moving, dice tumbling, and their sounds.

Runs only under Pyodide, in a browser task of its own once the page is idle after the panel is
drawn (``attach`` wraps ``TableUI.render``; the redraw's task stays short, and an entry's burst of
work on every page is not joined by its effects' first frames). Effects
live in a layer over the page that no click reaches and that survives the panel's redraws; they
are derived from views already applied, so they never delay or change the game. The stylesheet
turns them off under ``prefers-reduced-motion``.

An effect placed at a seat waits for the browser's next layout of the redrawn panel: the seats'
boxes come from an ``IntersectionObserver``, which reports them once the page is laid out anyway,
instead of ``getBoundingClientRect`` forcing a layout of the whole page inside the redraw. The
same report says whether a seat is in view: an effect that ends at a seat scrolled out of view (a
number, an icon landing, a shake, a tumble of the dice) is not played — nobody would see it, and
while an animation runs the page draws every frame.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

from js import IntersectionObserver, Object, document, setTimeout, window
from pyodide.ffi import create_once_callable, to_js

from . import table_views
from .i18n import card_back, icon, picture
from .idle import when_idle
from .moments import Moment, moments
from .sound import Sound

if TYPE_CHECKING:
    from .table import TableUI

# How long each effect's element stays on the layer: as long as its animations in style.css run
# (a flown icon kept longer stood on its seat, then vanished at once).
FLOAT_MS = 1300  # .fx-float
FLY_MS = 800  # .fx-fly: its flight, then its landing
BANNER_MS = 2600  # .fx-banner: in, standing still, and out
BANNER_LEAVES_MS = 2350  # a banner stands still after its entrance, then leaves (style.css)
EFFECTS_WAIT_MS = 100  # the longest a redraw's effects wait for the page to be idle
KEPT = 200  # the latest moments kept in ``Effects.shown``
Point = tuple[float, float]
Place = int | str  # a seat (its box on the panel), or the id of an element of the panel
Placed = Callable[[list[Point | None]], None]  # an effect, given the centres of its places
SUITS = ("attack", "healing", "radiance", "victory", "raven")
ART = {"rumble": "/art/rumble/", "circle": "/art/circle/", "nevermore": "/art/nevermore/"}


class Effects:
    """Remembers the last view per game and shows what changed since."""

    def __init__(self, sound: Sound) -> None:
        self.sound = sound
        self.before: dict[str, Any] = {}
        self.shown: list[str] = []  # kinds shown, for the page's own checks
        self._roll = ""
        self._placing: list[tuple[list[Place | None], Placed]] = []
        self._drawn: list[tuple[str, dict[str, Any]]] = []  # views drawn, effects not yet shown

    def after_render(self) -> None:
        """Note the view the panel now shows; its effects and sounds follow in a browser task of
        their own once the page has run what it had queued, at most ``EFFECTS_WAIT_MS`` later
        (the redraw's task stays short; views drawn meanwhile follow in order)."""
        shown = table_views.LAST_VIEW
        game, view = shown.get("game"), shown.get("view")
        if not game or not isinstance(view, dict):
            return
        self._drawn.append((game, view))
        if len(self._drawn) == 1:
            when_idle(self._play_drawn, EFFECTS_WAIT_MS)

    def _play_drawn(self) -> None:
        drawn, self._drawn = self._drawn, []
        heard: set[str] = set()  # one sound per kind however many views (a throttled hidden tab)
        try:
            for game, view in drawn:
                self._play(game, view, heard)
            self._place()
        except Exception as error:  # an effect must never break the table
            table_views.LAST_VIEW["fx_error"] = str(error)

    def _play(self, game: str, view: dict[str, Any], heard: set[str]) -> None:
        """The effects of what changed between the last view of ``game`` and ``view``; a sound
        only for a kind not in ``heard``."""
        previous = self.before.get(game)
        self.before = {game: view}
        if previous == view:  # most redraws bring no new view
            return
        for moment in moments(game, previous, view):
            self.show(game, moment)
            if moment.kind not in heard:  # one sound per kind of moment, however many seats
                heard.add(moment.kind)
                self.sound.moment(moment.kind)
        self.dice()
        del self.shown[:-KEPT]

    def dice(self) -> None:
        element = document.getElementById("dice")
        roll = str(element.getAttribute("data-roll") or "") if element else ""
        if roll and roll != self._roll:
            self.sound.play("dice")
            self.shown.append("dice")

            def tumble(where: list[Point | None]) -> None:
                dice = document.getElementById("dice")
                if where[0] is not None and dice:
                    for i, die in enumerate(dice.querySelectorAll(".die")):
                        animate(die, TUMBLE, 800, delay=80 * i)

            self.at_seats(["dice"], tumble)
        self._roll = roll

    def show(self, game: str, moment: Moment) -> None:
        self.shown.append(moment.kind)
        if moment.kind == "absorb":  # a creature took the hit
            self.icon_at(moment.seat, icon("absorb"), "absorb")
        elif moment.kind in ("hit", "heal", "vp"):
            sign = {"hit": "−", "heal": "+", "vp": "+"}[moment.kind]
            text = f"{sign}{moment.amount}"
            if moment.kind == "vp":
                text += " ★"
            self.float_at(moment.seat, text, moment.kind)
            if moment.origin is not None and moment.origin != moment.seat:
                self.fly(moment.origin, moment.seat, icon(moment.kind))
            if moment.kind == "hit":
                self.shake(moment.seat)
        elif moment.kind == "death":
            self.icon_at(moment.seat, icon("ghost"), "ghost")
        elif moment.kind == "raven":
            self.icon_at(moment.seat, icon("raven"), "raven")
        elif moment.kind == "human":
            self.icon_at(moment.seat, icon("human"), "human")
        elif moment.kind == "reveal":
            self.banner(moment.words, [picture(ART[game] + c + ".svg") for c in moment.cards[:3]])
        elif moment.kind == "palace":
            self.fly(moment.origin, moment.seat, icon("palace"))
        elif moment.kind == "called":
            suit = moment.words
            card = suit if suit in SUITS else f"token_{suit}"
            self.banner("", [picture(f"/art/nevermore/{card}.svg")])
        elif moment.kind == "pass":
            self.fly(moment.origin, moment.seat, card_back())
        elif moment.kind == "power":
            self.float_at(
                moment.seat, f"{'+' if moment.amount > 0 else ''}{moment.amount} ⚡", "vp"
            )
        elif moment.kind == "fly":
            self.spell_flight()
        elif moment.kind == "dispel":
            self.float_at(moment.seat, "✦", "absorb")

    # ----- the layer ------------------------------------------------------------------------

    @staticmethod
    def layer() -> Any:
        element = document.getElementById("fx-layer")
        if not element:
            element = document.createElement("div")
            element.id = "fx-layer"
            element.className = "fx-layer"
            element.setAttribute("aria-hidden", "true")
            document.body.appendChild(element)
        return element

    @staticmethod
    def seat_box(seat: Place | None) -> Any:
        """A seat's box on the panel (or the element of that id), if it is there."""
        if seat is None:
            return None
        if isinstance(seat, str):
            return document.getElementById(seat)
        return document.querySelector(f'#table [data-seat="{int(seat)}"]:not(button)')

    def at_seats(self, seats: list[Place | None], effect: Placed) -> None:
        """Run ``effect`` with the centres of ``seats`` (None for one not on the panel) once the
        browser has laid out the redrawn panel (``_place`` asks in one batch); not at all if the
        last of them, where the effect ends, is out of view."""
        self._placing.append((seats, effect))

    def _place(self) -> None:
        """Ask for the boxes of every place the effects of this redraw need, in one observer: its
        first report comes after the browser's own next layout, so nothing forces one now."""
        placing, self._placing = self._placing, []
        if not placing:
            return
        boxes = {s: self.seat_box(s) for seats, _ in placing for s in seats if s is not None}
        found = {s: box for s, box in boxes.items() if box}
        if not found:  # no place on the panel: nothing is in view to play at
            return

        def measured(entries: Any, observer: Any) -> None:
            observer.disconnect()
            centres: dict[Place, Point] = {}
            in_view: set[Place] = set()
            for entry in entries:
                for seat, box in found.items():
                    if box.isSameNode(entry.target) and box.isConnected:
                        rect = entry.boundingClientRect
                        centres[seat] = (
                            float(rect.left + rect.width / 2),
                            float(rect.top + rect.height / 2),
                        )
                        if entry.isIntersecting:
                            in_view.add(seat)
            try:
                for seats, effect in placing:
                    if seats and seats[-1] in in_view:
                        effect([centres.get(s) if s is not None else None for s in seats])
            except Exception as error:  # an effect must never break the table
                table_views.LAST_VIEW["fx_error"] = str(error)

        observer = IntersectionObserver.new(create_once_callable(measured))
        for box in found.values():
            observer.observe(box)

    def add(self, html: str, lifetime_ms: int) -> Any:
        """Put an effect on the layer for ``lifetime_ms``; the element."""
        holder = document.createElement("div")
        holder.innerHTML = html
        element = holder.firstElementChild
        self.layer().appendChild(element)
        setTimeout(create_once_callable(element.remove), lifetime_ms)
        return element

    def float_at(self, seat: int | None, text: str, kind: str) -> None:
        def effect(where: list[Point | None]) -> None:
            if where[0] is not None:
                x, y = where[0]
                self.add(
                    f'<div class="fx-float {escape(kind)}" style="left:{x:.0f}px;top:{y:.0f}px">'
                    f"{escape(text)}</div>",
                    FLOAT_MS,
                )

        self.at_seats([seat], effect)

    def icon_at(self, seat: int | None, src: str, kind: str) -> None:
        def effect(where: list[Point | None]) -> None:
            if where[0] is not None:
                x, y = where[0]
                self.add(
                    f'<img class="fx-float {escape(kind)}" src="{escape(src)}" alt=""'
                    f' style="left:{x:.0f}px;top:{y:.0f}px;width:56px">',
                    FLOAT_MS,
                )

        self.at_seats([seat], effect)

    def shake(self, seat: int | None) -> None:
        def effect(where: list[Point | None]) -> None:
            box = self.seat_box(seat)
            if where[0] is not None and box:
                animate(box, SHAKE, 400)

        self.at_seats([seat], effect)

    @staticmethod
    def spell_flight() -> None:
        """The Circle's spell card flies from its previous target to the new one (the panel is
        updated in place, so its CSS animation would not play again by itself)."""
        spell = document.getElementById("spell")
        if not spell:
            return
        style = spell.style
        if style.getPropertyValue("--dx") and style.getPropertyValue("--dy"):
            animate(spell, SPELL_FLIGHT, 450, easing="ease-out")

    def banner(self, words: str, pictures: list[str]) -> None:
        for old in document.querySelectorAll("#fx-layer .fx-banner"):
            old.remove()
        cards = "".join(f'<img src="{escape(src)}" alt="">' for src in pictures)
        title = f"<b>«{escape(words)}»</b>" if words else ""
        shown = self.add(
            f'<div class="fx-banner"><div class="fx-cards">{cards}</div>{title}</div>', BANNER_MS
        )
        # No animation runs while it stands: a moving banner made every page draw a frame at
        # the screen's rate for its whole life.
        setTimeout(create_once_callable(lambda: shown.classList.add("leaving")), BANNER_LEAVES_MS)

    def fly(self, origin: int | None, seat: int | None, src: str) -> None:
        def effect(where: list[Point | None]) -> None:
            start, end = where
            if end is None:
                return
            if start is None:
                start = (float(window.innerWidth) / 2, 120.0)
            self.add(
                f'<img class="fx-fly" src="{escape(src)}" alt=""'
                f' style="--dx:{start[0] - end[0]:.0f}px;--dy:{start[1] - end[1]:.0f}px;'
                f'left:{end[0]:.0f}px;top:{end[1]:.0f}px">',
                FLY_MS,
            )

        self.at_seats([origin, seat], effect)


FOCUS_ATTRIBUTES = ("id", "data-action", "data-slot", "data-index", "data-card", "data-command")


def focus_key() -> str:
    """A selector for the focused control of the table panel (redraws replace the panel)."""
    element = document.activeElement
    if not element or not element.closest("#table"):
        return ""
    parts = []
    for name in FOCUS_ATTRIBUTES:
        value = element.getAttribute(name)
        if value:
            quoted = str(value).replace("\\", "\\\\").replace('"', '\\"')
            parts.append(f'[{name}="{quoted}"]')
    return "#table " + "".join(parts) if parts else ""


def refocus(selector: str) -> None:
    """Keyboard focus back on the same control after a redraw (if it is still there), once the
    browser has drawn the redrawn panel: focusing asks for the page's style, and inside the
    redraw's task that is worked out at once for everything the redraw changed (38 ms of a
    53 ms task in a «Схватка» tournament); after the frame it is already done."""
    if not selector or document.activeElement.closest("#table"):
        return

    def focus_on() -> None:
        if not document.activeElement.isSameNode(document.body):
            return  # the reader has moved on meanwhile
        element = document.querySelector(selector)
        if element:
            element.focus(to_js({"preventScroll": True}, dict_converter=Object.fromEntries))

    window.requestAnimationFrame(
        create_once_callable(lambda _time: setTimeout(create_once_callable(focus_on), 0))
    )


TUMBLE = [
    {"transform": "rotate(-300deg) scale(.4)", "opacity": 0.2},
    {"transform": "none", "opacity": 1},
]
SPELL_FLIGHT = [  # the card's way from its previous target (style.css, .c-spell), by transform
    {"transform": "translate(-50%, -50%) translate(var(--dx), var(--dy))"},
    {"transform": "translate(-50%, -50%)"},
]
SHAKE = [
    {"transform": "none"},
    {"transform": "translateX(-5px) rotate(-1deg)"},
    {"transform": "translateX(5px) rotate(1deg)"},
    {"transform": "none"},
]


RUNNING = "magicTableAnimation"  # the property of an element holding its effect's animation


def calm() -> bool:
    """The reader asked for reduced motion."""
    return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)


def animate(
    element: Any, frames: list[dict[str, Any]], ms: int, delay: int = 0, easing: str = "ease-in-out"
) -> None:
    """A Web Animation on a panel element: it survives the panel's in-place updates (a CSS class
    would be taken off by the next one); none under reduced motion.

    One at a time on an element (two would both leave the compositor): the one started last is
    kept on the element (``RUNNING``) and cancelled for the next. Asking the element for its
    animations instead would make the browser work out the page's style inside the redraw."""
    if calm() or not hasattr(element, "animate"):
        return
    running = getattr(element, RUNNING, None)
    if running is not None:
        running.cancel()
    options = {"duration": ms, "delay": delay, "easing": easing}
    started = element.animate(
        to_js(frames, dict_converter=Object.fromEntries),
        to_js(options, dict_converter=Object.fromEntries),
    )
    setattr(element, RUNNING, started)


def attach(table: TableUI, sound: Sound) -> Effects:
    """Play the table's effects after each of its renders (its ``render`` is wrapped)."""
    effects = Effects(sound)
    draw = table.render

    def render() -> None:
        focused = focus_key()
        draw()
        try:
            refocus(focused)
            effects.after_render()
        except Exception as error:  # an effect must never break the table
            table_views.LAST_VIEW["fx_error"] = str(error)

    table.render = render  # type: ignore[method-assign]
    return effects
