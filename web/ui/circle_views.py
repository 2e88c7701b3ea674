"""HTML of the «Волшебный круг» board (pure Python): the ring of players, the flying spell, the
real-time countdown, the hand (one click or one key per card) and the log.

Seats sit on a ring with this page's seat at the bottom; seat ``s + 1`` (the one to the left) comes
next clockwise, as around a real table. The spell card flies from its previous target to its
current one (a CSS animation replayed whenever the board changes), so every change is seen.
"""

from __future__ import annotations

import math
from functools import cache
from html import escape
from typing import Any

from engine.core.model import Action

from . import log_view, parts
from .catalog_en import CIRCLE_ACTIONS, CIRCLE_KEYWORDS, CIRCLE_NAMES, DIRECTIONS
from .i18n import current, picture, say

COUNTDOWN_DEFAULT = 4
# Plays within this of each other on one state go in the public order: about two one-way trips
# between friends' browsers, so the host's own plays gain nothing from having no network delay.
RACE_WINDOW_MS = 60
COUNTDOWN_LABEL = {"ru": "Отсчёт до удара, с", "en": "Countdown to a hit, s"}
HEART, EMPTY_HEART = "♥", "♡"


@cache
def _catalog() -> Any:
    from engine.games.circle.cards import load_catalog

    return load_catalog()


def art(card_id: str) -> str:
    """The illustration's URL in the built site (its words in the page's language)."""
    return picture(f"/art/circle/{escape(card_id)}.svg")


def card_entry(card_id: str) -> dict[str, Any] | None:
    """A spell's or action card's catalog entry."""
    cat = _catalog()
    entry = cat.spells.get(card_id) or cat.actions.get(card_id)
    return dict(entry) if entry is not None else None


def position(seat: int, me: int, n: int) -> tuple[float, float]:
    """Where ``seat`` sits on the ring, in percent of the board (``me`` at the bottom)."""
    angle = math.radians(90 + 360 * (seat - me) / n)
    return 50 + 40 * math.cos(angle), 50 + 38 * math.sin(angle)


def _xy(seat: int | None, me: int, n: int) -> tuple[float, float]:
    return (50.0, 50.0) if seat is None else position(seat, me, n)


def settings(lang: str) -> str:
    """The host's lobby field: how long a spell waits, untouched, before it lands."""
    label = escape(COUNTDOWN_LABEL.get(lang, COUNTDOWN_LABEL["ru"]))
    return (
        f'<label>{label} <input id="table-countdown" type="number"'
        f' min="2" max="15" value="{COUNTDOWN_DEFAULT}"></label>'
    )


def config(field: Any) -> dict[str, Any]:
    """Rules config from the lobby form: the countdown is the ``scramble`` phase's timer; the
    room's window for simultaneous plays is ``race_window`` (``engine.protocol.race_order``)."""
    try:
        seconds = int(field("table-countdown") or COUNTDOWN_DEFAULT)
    except ValueError:
        seconds = COUNTDOWN_DEFAULT
    return {"timers": {"scramble": min(15, max(2, seconds))}, "race_window": RACE_WINDOW_MS}


def max_selected(view: dict[str, Any], moves: list[Action]) -> int:
    """One card at a time (an all-directions wind waits for its target)."""
    return 1


def detail(card_id: str) -> str:
    """The card pane: picture, name, power and keyword or what the action does."""
    close = (
        f'<button type="button" data-action="close-detail"'
        f' aria-label="{say("Закрыть", "Close")}">×</button>'
    )
    entry = card_entry(card_id)
    if entry is None:
        return close
    name = str(entry["name"])
    lines = []
    if current() == "en":
        name = CIRCLE_NAMES.get(card_id, name)
        if "power" in entry:
            word, meaning = CIRCLE_KEYWORDS.get(str(entry.get("keyword")), ("", ""))
            lines += [f"Power {entry['power']}.", f"{word}: {meaning}" if word else "No keyword."]
        else:
            lines.append(CIRCLE_ACTIONS.get(card_id, str(entry.get("text", ""))))
    elif "power" in entry:
        lines.append(f"Сила {entry['power']}.")
        keyword = entry.get("keyword")
        if keyword:
            kw = _catalog().keywords[keyword]
            lines.append(f"{kw['name']}: {kw['text']}")
    else:
        lines.append(str(entry.get("text", "")))
    text = "".join(f"<p>{escape(line)}</p>" for line in lines)
    return f'<img src="{art(card_id)}" alt=""><div><b>{escape(name)}</b>{text}</div>{close}'


def _name(card: dict[str, Any]) -> str:
    """A spell's or hand card's name in the page's language."""
    russian = str(card.get("name") or "?")
    return CIRCLE_NAMES.get(str(card.get("card", "")), russian) if current() == "en" else russian


def _seat(info: dict[str, Any], me: int, n: int, spell: dict[str, Any] | None) -> str:
    s = info["seat"]
    x, y = position(s, me, n)
    classes = ["c-seat"]
    if s == me:
        classes.append("me")
    if not info["alive"]:
        classes.append("out")
    if spell is not None and spell["target"] == s:
        classes.append("target")
    life = max(0, int(info["life"]))
    hearts = HEART * min(life, 9) + EMPTY_HEART * max(0, 5 - life)
    marks = []
    if info["totem"]:
        marks.append(f'<span class="c-totem">{say("тотем", "totem")}</span>')
    if info.get("burns"):
        burns = say("Ожоги", "Burns")
        marks.append(f'<span class="c-burn" title="{burns}">🔥{int(info["burns"])}</span>')
    if info.get("shield"):
        marks.append(f'<span class="c-shield" title="{say("Щит", "Shield")}">🛡</span>')
    if info.get("frozen"):
        marks.append(f'<span class="c-frozen" title="{say("Оцепенение", "Numb")}">❄</span>')
    return (
        f'<div class="{" ".join(classes)}" data-seat="{s}" data-life="{life}"'
        f' data-alive="{str(bool(info["alive"])).lower()}" style="--x:{x:.1f}%;--y:{y:.1f}%">'
        f"<b>{escape(str(info['name']))}</b>"
        f'<span class="c-life" aria-label="{say("жизни", "lives")} {life}">{hearts}</span>'
        f'<span class="c-cards" title="{say("Карт в руке", "Cards in hand")}">'
        f"🂠 {int(info['hand'])}</span>{''.join(marks)}"
        "</div>"
    )


def _spell(spell: dict[str, Any] | None, me: int, n: int) -> str:
    if spell is None:
        return '<div id="spell" class="c-spell none" data-step="-1"></div>'
    fx, fy = _xy(spell.get("previous"), me, n)
    tx, ty = _xy(spell["target"], me, n)
    # The card stops short of the target's name plate, on the line from the centre.
    tx, ty = 50 + (tx - 50) * 0.55, 50 + (ty - 50) * 0.55
    fx, fy = 50 + (fx - 50) * 0.55, 50 + (fy - 50) * 0.55
    grown = spell["power"] > spell["base_power"]
    keyword = spell.get("keyword_name") or ""
    if current() == "en":
        keyword = CIRCLE_KEYWORDS.get(str(spell.get("keyword")), (keyword, ""))[0]
    return (
        f'<button type="button" id="spell" class="c-spell{" grown" if grown else ""}"'
        f' data-action="card-info" data-card="{escape(spell["card"])}"'
        f' data-target="{spell["target"]}" data-step="{spell["step"]}"'
        f' data-power="{spell["power"]}"'
        f' style="--tx:{tx:.1f}%;--ty:{ty:.1f}%;--dx:{fx - tx:.1f}cqw;--dy:{fy - ty:.1f}cqh"'
        f' title="{escape(spell.get("keyword_text") or "")}">'
        f'<img src="{art(spell["card"])}" alt="">'
        f'<span class="c-power" aria-label="{say("сила", "power")}">{int(spell["power"])}</span>'
        f"<b>{escape(_name(spell))}</b><small>{escape(keyword)}</small></button>"
    )


def _hand(view: dict[str, Any], moves: list[Action], selected: list[int]) -> str:
    names = {s["seat"]: s["name"] for s in view["seats"]}
    by_slot: dict[int, list[int]] = {}
    for index, move in enumerate(moves):
        by_slot.setdefault(int(move.get("slot", -1)), []).append(index)
    chosen = next((s for s in selected if len(by_slot.get(s, [])) > 1), None)
    if chosen is not None:
        buttons = "".join(
            f'<button type="button" class="c-target" data-action="move" data-index="{i}"'
            f' data-to="{moves[i].get("target")}"><kbd>{k + 1}</kbd>'
            f" → {escape(str(names.get(moves[i].get('target'), '?')))}</button>"
            for k, i in enumerate(by_slot[chosen])
        )
        return (
            f'<p class="muted small">{say("Куда сдуть заклинание?", "Blow the spell to whom?")}'
            '</p><div id="moves" class="c-hand">'
            f'{buttons}<button type="button" class="c-cancel" data-action="pick"'
            f' data-slot="{chosen}" aria-label="{say("Отмена", "Cancel")}">✕</button></div>'
        )
    cards = []
    key = 0
    for card in view["hand"]:
        slot, cid = card["slot"], card.get("card") or ""
        options = by_slot.get(slot, [])
        label = escape(_name(card))
        direction = card.get("direction")
        if direction and current() == "en":
            direction = DIRECTIONS.get(str(direction), direction)
        sub = f"<small>{escape(str(direction))}</small>" if direction else ""
        face = f'<img src="{art(cid)}" alt="">' if cid else ""
        if not options:
            cards.append(
                f'<button type="button" class="c-card" disabled data-card="{escape(cid)}">'
                f"{face}<b>{label}</b>{sub}</button>"
            )
            continue
        key += 1
        if len(options) == 1:
            attrs = f'data-action="move" data-index="{options[0]}"'
        else:
            attrs = f'data-action="pick" data-slot="{slot}"'
        cards.append(
            f'<button type="button" class="c-card" {attrs} data-face="{escape(cid)}"'
            f' title="{escape(str(card.get("text") or ""))}"><kbd>{key}</kbd>{face}'
            f"<b>{label}</b>{sub}</button>"
        )
    return f'<div id="moves" class="c-hand">{"".join(cards)}</div>'


def _result(view: dict[str, Any]) -> str:
    if not view.get("over"):
        return ""
    winner = view.get("winner")
    if winner is None:
        text = say("Все выбыли разом — победителей нет.", "Everyone fell at once: no winner.")
    else:
        who = view["seats"][winner]["name"]
        text = say(f"Побеждает {who}!", f"{who} wins!")
    return (
        f'<p id="circle-result" class="c-result" data-winner="{"" if winner is None else winner}">'
        f"{escape(text)}</p>"
    )


def board(view: dict[str, Any], seat: int | None, moves: list[Action], selected: list[int]) -> str:
    """The whole board for one seat (``None``: a spectator, shown from seat 1)."""
    seats = view["seats"]
    n = len(seats)
    me = seat if seat is not None and 0 <= seat < n else 0
    spell = view.get("spell")
    # Each seat, the spell, the race's bar, the piles and the hand change with most entries:
    # each is a part of its own, so a redraw re-tells the page what changed.
    ring = "".join(
        parts.boxed(f"c-seat-{info['seat']}", _seat(info, me, n, spell)) for info in seats
    )
    piles = view["piles"]
    names = [str(s["name"]) for s in view.get("seats", [])]
    events = list(view.get("log", []))
    log = parts.part("game-log", log_view.lines("circle", events, current(), names, len(events)))
    racing = "true" if view.get("phase") == "scramble" else "false"
    countdown = (
        '<div id="race-countdown" class="c-countdown" aria-live="off">'
        '<span id="race-bar"></span><em id="race-left"></em></div>'
        if racing == "true"
        else ""
    )
    pile_counts = (
        f"{say('Заклинаний в колоде', 'Spells in the deck')} {piles['spells']}"
        f" · {say('действий', 'actions')} {piles['actions']}"
        f" · {say('в сбросе', 'discarded')} {piles['action_discard']}"
    )
    hand = _hand(view, moves, selected) if seat is not None else ""
    return (
        f'<section id="circle" class="circle-board" data-turn="{view["turn"]}"'
        f' data-phase="{escape(str(view.get("phase", "")))}" data-racing="{racing}"'
        f' data-over="{str(bool(view.get("over"))).lower()}">'
        f'<div class="c-ring">{ring}{parts.boxed("spell-box", _spell(spell, me, n))}'
        f"{parts.boxed('race-box', countdown)}</div>"
        f'<p id="c-piles" class="c-piles muted small">{parts.part("c-piles", pile_counts)}</p>'
        # The page writes a refused or flying move's note into it (``TableUI``): a part.
        f'<p id="race-note" class="c-note" aria-live="polite">{parts.part("race-note", "")}</p>'
        f"{_result(view)}"
        f'<div id="c-dock" class="dock c-dock">{parts.part("c-dock", hand)}</div>'
        f'<ol id="game-log" class="c-log" tabindex="0" aria-label="{say("Журнал", "Log")}">'
        f"{log}</ol></section>"
    )
