"""HTML of the «Невермор» table (pure Python, tested in CPython): players, tokens, hand, prompts.

Input is the engine's per-seat ``view`` (only what this seat may know, ``me`` holding its hand,
magic cards and sealed choices) and this seat's legal moves. Buttons carry ``data-action``
attributes that ``web.ui.app`` dispatches: ``move`` + ``data-index`` (into ``moves``), ``pick`` +
``data-slot`` (select a hand card to pass), ``card-info`` + ``data-card`` (the card pane).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from html import escape
from typing import Any

from engine.core import view_schema
from engine.core.model import Action

from . import log_view, parts
from .i18n import card_back, current, picture, say, tr
from .phrases import plural, render, render_log
from .views import describe

SUITS = ("attack", "healing", "radiance", "victory", "raven")
TOKENS = ("attack", "healing", "radiance", "victory")
LOG_LINES = 100  # the log shows at least the latest entries (``log_view.first_shown``)
WINNER_ROW = ' class="winner"'


@lru_cache(maxsize=1)
def cards() -> dict[str, dict[str, Any]]:
    """Every distinct card (suits and magic) by id, with names, texts and windows."""
    from engine.games.nevermore.listing import entries

    return {entry["id"]: entry for entry in entries()}


@lru_cache(maxsize=1)
def windows() -> dict[str, str]:
    """Window ids → their Russian names (the catalog's, plus the engine's inner windows)."""
    from engine.games.nevermore.cards import load_catalog

    inner = {"rescue": tr("nm_window_rescue", "ru"), "damaged": tr("nm_window_damaged", "ru")}
    return {**load_catalog().windows, **inner}


def art(card_id: str) -> str:
    """The illustration's URL in the built site (its words in the page's language)."""
    return picture(f"/art/nevermore/{escape(card_id)}.svg")


def name_of(card_id: str | None, lang: str = "") -> str:
    """A card's name in ``lang`` (the page's language by default)."""
    lang = lang or current()
    if not card_id:
        return tr("nm_card", lang)
    entry = cards().get(card_id)
    if entry is None:
        return card_id
    if lang == "en":
        from .catalog_en import english

        return str(english("nevermore", entry)["name"])
    return str(entry["name"])


def text_of(card_id: str | None, raven: bool = False) -> str:
    """The card's Russian text (the one under the raven symbol for a player in raven form)."""
    entry = cards().get(card_id or "")
    if entry is None:
        return ""
    if current() == "en":
        from .nevermore_en import text

        return text(str(card_id), str(entry["text"]), raven and bool(entry.get("raven_text")))
    if raven and entry.get("raven_text"):
        return str(entry["raven_text"])
    return str(entry["text"])


def deck_of(card_id: str | None) -> str:
    """``light``, ``shadow`` or ``main``."""
    return str(cards().get(card_id or "", {}).get("deck", ""))


def suit_name(suit: str) -> str:
    return name_of(suit)


# ----- the lobby, config and selection (the registry's hooks) ------------------------------------


def settings(lang: str) -> str:
    """The host's «Невермор» lobby fields: none (the rules have no options to pick)."""
    return f'<p class="muted small">{escape(tr("nm_settings", lang))}</p>'


def config(field: Any) -> dict[str, Any]:
    """The rules config from the lobby form: the engine's defaults."""
    return {}


def max_selected(view: dict[str, Any], moves: list[Action]) -> int:
    """How many hand cards may be selected: the number to pass in this step of the draft."""
    return pass_count(moves)


def pass_count(moves: list[Action]) -> int:
    for move in moves:
        if move.get("type") == "pass" and "secret" in move:
            return len(move["secret"].get("items", []))
    return 0


def detail(card_id: str) -> str:
    """The card pane: picture, name, text (and the raven text)."""
    entry = cards().get(card_id)
    if entry is None:
        return ""
    raven = ""
    if entry.get("raven_text"):
        raven = f'<p class="nm-raven-text">🐦 {escape(text_of(card_id, raven=True))}</p>'
    return (
        f'<img src="{art(card_id)}" alt=""><div><b>{escape(name_of(card_id))}</b>'
        f"<p>{escape(text_of(card_id))}</p>{raven}</div>"
        f'<button type="button" data-action="close-detail" aria-label="Закрыть">×</button>'
    )


# ----- pieces of the board ------------------------------------------------------------------------


def next_seat(view: dict[str, Any], seat: int) -> int:
    """Whom ``seat`` passes to in the current draft direction."""
    step = 1 if view["direction"] == "left" else -1
    return (seat + step) % len(view["names"])


def received_slots(view: dict[str, Any]) -> list[int]:
    """The hand cards this seat got in the latest pass of this round's draft (until the seal)."""
    hand = [int(s) for s in (view.get("me") or {}).get("hand", {})]
    count = 0
    for event in reversed(view["log"]):
        kind = event.get("e") if isinstance(event, dict) else None
        if kind in ("round", "sealed"):
            return []
        if kind == "passed":
            count = int(event["count"])
            break
    return hand[-count:] if count and len(hand) >= count else []


# A redraw draws the same cards again and again: their HTML is made once per language.
@lru_cache(maxsize=1024)
def _mini(card: str, count: int, lang: str) -> str:
    return (
        f'<button type="button" class="nm-mini" data-action="card-info" data-card="{escape(card)}"'
        f' title="{escape(name_of(card))} ×{count}"><img src="{art(card)}"'
        f' alt="{escape(name_of(card))}"><b>{count}</b></button>'
    )


@lru_cache(maxsize=1024)
def _placed(card: str, raven: bool, lang: str) -> str:
    return (
        f'<button type="button" class="chip nm-placed" data-action="card-info"'
        f' data-card="{escape(card)}" title="{escape(text_of(card, raven))}">'
        f"{escape(name_of(card))}</button>"
    )


def player(view: dict[str, Any], seat: int, me: int | None) -> str:
    """One player's box: form, dealer, health, VP, cards, face-up cards, whom they pass to."""
    lang = current()
    names = view["names"]
    waiting = set(view["need"].get("seats", []))
    raven = bool(view["raven"][seat])
    classes = ["nm-player"]
    if raven:
        classes.append("raven")
    if seat == view["dealer"]:
        classes.append("dealer")
    if seat in waiting:
        classes.append("waiting")
    if seat == me:
        classes.append("me")
    if view["winner"] == seat:
        classes.append("winner")
    hp, top = max(0, int(view["health"][seat])), int(view["max_health"])
    bar = min(100, round(100 * hp / top)) if top else 0
    badges = []
    if seat == view["dealer"]:
        badges.append(f'<span class="nm-badge dealer">{escape(tr("nm_deals", lang))}</span>')
    if raven:
        badges.append(
            f'<span class="nm-badge raven"><img src="{art("icon_raven")}" alt="">'
            f"{escape(tr('nm_raven', lang))}</span>"
        )
    faceup = [c for c in view["shown"][seat] + view["added"][seat] if c]
    shown = "".join(_mini(c, n, lang) for c, n in sorted(Counter(faceup).items()))
    placed = "".join(_placed(c, raven, lang) for c in view["placed"][seat] if c)
    killed = ""
    if view["killed"][seat]:
        gone = tr("nm_killed", lang, n=str(view["killed"][seat]))
        killed = f'<span class="nm-killed">{escape(gone)}</span>'
    to = names[next_seat(view, seat)]
    cards_line = tr(
        "nm_cards",
        lang,
        hand=str(view["hand_size"][seat]),
        magic=str(view["magic_size"][seat]),
    )
    return (
        f'<article class="{" ".join(classes)}" data-seat="{seat}" data-raven="{str(raven).lower()}"'
        f' data-hp="{hp}" data-vp="{int(view["vp"][seat])}">'
        f'<div class="who"><b>{escape(names[seat])}</b> {"".join(badges)}</div>'
        f'<div class="life" aria-label="{escape(tr("nm_health", lang, hp=str(hp), max=str(top)))}">'
        f'<span style="width:{bar}%"></span><em>♥ {hp}/{top}</em></div>'
        f'<div class="nm-vp">★ {int(view["vp"][seat])} {escape(tr("nm_vp", lang))}'
        f" · {escape(cards_line)}</div>"
        f'<div class="nm-dir muted small">{escape(tr("nm_passes_to", lang, name=to))}</div>'
        f'<div class="nm-shown">{shown}{killed}</div><div class="chips">{placed}</div></article>'
    )


def tokens(view: dict[str, Any]) -> str:
    """The four resolution tokens: the revealed ones face up, in order; the rest face down."""
    lang = current()
    revealed = list(view["tokens_revealed"])
    planned = [t for t in view["tokens_planned"] if t not in revealed]
    items = [
        f'<li class="nm-token shown" data-token="{escape(t)}">'
        f'<img src="{art("token_" + t)}" alt="{escape(suit_name(t))}"></li>'
        for t in revealed
    ]
    items += [
        f'<li class="nm-token planned" data-token="{escape(t)}">'
        f'<img src="{art("token_" + t)}" alt="{escape(suit_name(t))}"></li>'
        for t in planned
    ]
    hidden = max(0, len(TOKENS) - len(revealed) - len(planned))
    face_down = escape(tr("nm_token_hidden", lang))
    items += [f'<li class="nm-token hidden"><span title="{face_down}">?</span></li>'] * hidden
    return (
        f'<ol id="nm-tokens" class="nm-tokens" aria-label="{escape(tr("nm_tokens", lang))}"'
        f' data-revealed="{escape(",".join(revealed))}">{"".join(items)}</ol>'
    )


def called(view: dict[str, Any]) -> str:
    """The latest called suit and how many of its cards each player shows."""
    if not view["tokens_revealed"]:
        return ""
    lang = current()
    suit = view["tokens_revealed"][-1]
    counts = []
    for seat, name in enumerate(view["names"]):
        n = sum(1 for c in view["shown"][seat] + view["added"][seat] if c == suit)
        if n:
            counts.append(f"{name} ×{n}")
    line = ", ".join(counts) or tr("nm_nobody", lang)
    return (
        f'<p id="nm-called" class="nm-called" data-suit="{escape(suit)}">'
        f'<img src="{art("icon_" + suit)}" alt="">'
        f"{escape(tr('nm_called', lang, suit=suit_name(suit)))} — {escape(line)}</p>"
    )


def hand(view: dict[str, Any], selected: list[int], picking: bool) -> str:
    """This seat's main cards: art and name; selectable while choosing cards to pass."""
    lang = current()
    me = view.get("me") or {}
    received = set(received_slots(view))
    doomed = {int(i["slot"]) for i in me.get("sealed", []) if i.get("doom") and "slot" in i}
    items = []
    for key, cid in me.get("hand", {}).items():
        slot = int(key)
        classes = ["hand-card", "nm-card"]
        marks = []
        if slot in selected:
            classes.append("selected")
        if slot in received:
            classes.append("received")
            marks.append(f'<i class="nm-mark">{escape(tr("nm_received", lang))}</i>')
        if slot in doomed:
            classes.append("doomed")
            marks.append(f'<i class="nm-mark">{escape(tr("nm_doomed", lang))}</i>')
        # Picking a card for the pass selects it without opening the card pane (no data-card).
        action, card = ("pick", "data-suit") if picking else ("card-info", "data-card")
        items.append(
            f'<button type="button" class="{" ".join(classes)}" data-action="{action}"'
            f' data-slot="{slot}" {card}="{escape(cid or "")}"'
            f' aria-pressed="{str(slot in selected).lower()}">'
            f'<img src="{art(cid) if cid else card_back()}" alt="">'
            f"<span>{escape(name_of(cid))}</span>{''.join(marks)}</button>"
        )
    return (
        f'<h3 class="nm-sub">{escape(tr("nm_hand", lang))}</h3>'
        f'<div id="hand" class="hand nm-hand">{parts.part("hand", "".join(items))}</div>'
    )


def magic(view: dict[str, Any], me: int) -> str:
    """This seat's magic cards (and any cards it was shown), with their texts on hover."""
    lang = current()
    mine = view.get("me") or {}
    raven = bool(view["raven"][me])
    parts = []
    for title, zone, element in (("nm_magic", "magic", "nm-magic"), ("nm_look", "look", "nm-look")):
        entries = mine.get(zone) or {}
        if not entries:
            continue
        items = "".join(
            f'<button type="button" class="nm-magic-card {escape(deck_of(cid))}"'
            f' data-action="card-info" data-slot="{escape(str(slot))}"'
            f' data-card="{escape(cid or "")}"'
            f' title="{escape(text_of(cid, raven))}">'
            f'<img src="{art(cid) if cid else card_back()}" alt="">'
            f"<span>{escape(name_of(cid))}</span></button>"
            for slot, cid in entries.items()
        )
        parts.append(
            f'<h3 class="nm-sub">{escape(tr(title, lang))}</h3>'
            f'<div id="{element}" class="nm-magic">{items}</div>'
        )
    return "".join(parts)


# ----- prompts ------------------------------------------------------------------------------------


def _move_button(index: int, label: str, kind: str = "", extra: str = "", note: str = "") -> str:
    classes = "move" + (f" {kind}" if kind else "")
    small = f"<small>{escape(note)}</small>" if note else ""
    return (
        f'<button type="button" class="{classes}" data-action="move" data-index="{index}"{extra}>'
        f"<span>{escape(label)}</span>{small}</button>"
    )


def pass_prompt(view: dict[str, Any], moves: list[Action], selected: list[int]) -> tuple[str, str]:
    """Pick the cards to pass, then confirm (the confirm button names them)."""
    lang = current()
    me = view["me"]
    seat = int(me["seat"])
    hand_cards = {int(s): c for s, c in me["hand"].items()}
    k = pass_count(moves)
    count = (
        plural.en(k, "card", "cards") if lang == "en" else plural.ru(k, "карту", "карты", "карт")
    )
    title = tr("nm_pass_title", lang, cards=count, name=view["names"][next_seat(view, seat)])
    chosen = sorted(str(hand_cards.get(s)) for s in selected)
    if len(selected) == k:
        for i, move in enumerate(moves):
            slots = [item["slot"] for item in move.get("secret", {}).get("items", [])]
            if sorted(str(hand_cards.get(s)) for s in slots) == chosen:
                in_hand = [name_of(c) for s, c in hand_cards.items() if s in selected]
                label = tr("nm_pass_confirm", lang, cards=", ".join(in_hand))
                button = _move_button(i, label, "confirm", ' id="pass-confirm"')
                return title, button
    more = tr("nm_pass_more", lang, n=str(max(0, k - len(selected))))
    button = f'<button type="button" id="pass-confirm" class="move confirm" disabled>{escape(more)}'
    return title, button + "</button>"


def seal_label(move: Action, hand_cards: dict[int, str | None]) -> str:
    """What the ravens destroy in this seal (and the token order for the «Видение» player)."""
    lang = current()
    items = move.get("secret", {}).get("items", [])
    doomed = [name_of(hand_cards.get(i["slot"])) for i in items if i.get("doom")]
    order = [suit_name(i["token"]) for i in items if "token" in i]
    label = tr("nm_seal_none", lang)
    if doomed:
        label = tr("nm_seal_doom", lang, cards=", ".join(doomed))
    if order:
        label += " · " + tr("nm_seal_order", lang, order=", ".join(order))
    return label


def choice_label(view: dict[str, Any], what: str, pick: Any) -> str:
    """A public choice's button text, by what the engine says its options pick: a player, a card,
    a suit, yes or no, a price."""
    lang = current()
    shared = view_schema.table_of(view)
    picks = shared["prompt"]["picks"] if shared else None
    if picks == "flag":
        return tr(f"nm_yes_{what}" if pick else f"nm_no_{what}", lang)
    if picks == "price" and isinstance(pick, str):
        return tr(f"nm_pay_{pick}", lang)
    if pick == "all":
        return tr("nm_all", lang)
    if pick is None:
        return tr("nm_nothing", lang)
    if isinstance(pick, str):
        return suit_name(pick)
    if picks == "seat" and isinstance(pick, int) and 0 <= pick < len(view["names"]):
        return str(view["names"][pick])
    if isinstance(pick, int):
        me = view.get("me") or {}
        known = {**me.get("hand", {}), **me.get("magic", {}), **me.get("look", {})}
        return name_of(known.get(str(pick)))
    return str(pick)


def prompt(view: dict[str, Any], moves: list[Action], selected: list[int]) -> str:
    """What this seat is asked now, as buttons (empty when it waits for others)."""
    if not moves or "me" not in view:
        return ""
    lang = current()
    need = view["need"]
    phase = str(need.get("phase", ""))
    me = view["me"]
    raven = bool(view["raven"][int(me["seat"])])
    buttons: list[str] = []
    extra = ""
    if phase == "pass_commit":
        title, button = pass_prompt(view, moves, selected)
        buttons.append(button)
    elif phase == "seal":
        title = tr("nm_seal_title", lang)
        hand_cards = {int(s): c for s, c in me["hand"].items()}
        for i, move in enumerate(moves):
            buttons.append(_move_button(i, seal_label(move, hand_cards), "seal"))
    elif phase == "window":
        w = str(need.get("w", ""))
        extra = f' data-window="{escape(w)}"'
        if lang == "en":
            from .nevermore_en import WINDOWS

            where = WINDOWS.get(w, w)
        else:
            where = windows().get(w, w)
        title = tr("nm_window_title", lang, window=where)
        for i, move in enumerate(moves):
            if move.get("type") == "play":
                cid = me["magic"].get(str(move.get("slot")))
                label = tr("nm_play", lang, name=name_of(cid))
                card = f' data-card="{escape(cid or "")}"'
                buttons.append(_move_button(i, label, "play", card, text_of(cid, raven)))
            else:
                buttons.append(_move_button(i, tr("nm_pass", lang), "pass"))
    elif phase == "choose":
        what = str(need.get("what", ""))
        extra = f' data-what="{escape(what)}"'
        key = f"nm_choose_{what}"
        title = tr(key, lang) if tr(key, lang) != key else tr("nm_your_move", lang)
        for i, move in enumerate(moves):
            buttons.append(_move_button(i, choice_label(view, what, move.get("pick"))))
    else:
        title = tr("nm_your_move", lang)
        for i, move in enumerate(moves):
            label = tr("nm_open", lang) if "open" in move else describe(move)
            buttons.append(_move_button(i, label))
    return (
        f'<div id="prompt" class="prompt nm-prompt" data-phase="{escape(phase)}"{extra}>'
        f'<p>{escape(title)}</p><div id="moves" class="moves">{"".join(buttons)}</div></div>'
    )


# ----- the whole board ----------------------------------------------------------------------------


def log_lines(view: dict[str, Any], last: int = LOG_LINES) -> list[str]:
    """The last ``last`` log events as sentences in the page's language."""
    return render_log("nevermore", view["log"][-last:], current(), view["names"])


def result_line(view: dict[str, Any]) -> str:
    """How the game ended (its final event), in the page's language."""
    result = view.get("result")
    return render("nevermore", result, current(), view["names"]) if result else ""


def summary(view: dict[str, Any]) -> str:
    """The end of the game: the winner and how, and every player's VP, health and form."""
    lang = current()
    names = view["names"]
    winner = view["winner"]
    head = (
        tr("nm_summary_win", lang, name=names[winner])
        if isinstance(winner, int) and 0 <= winner < len(names)
        else tr("nm_summary_none", lang)
    )
    rows = "".join(
        f"<tr{WINNER_ROW if s == winner else ''}><td>{escape(names[s])}</td>"
        f"<td>{int(view['vp'][s])}</td><td>{int(view['health'][s])}</td>"
        f"<td>{escape(tr('nm_raven' if view['raven'][s] else 'nm_human', lang))}</td></tr>"
        for s in range(len(names))
    )
    th = "".join(
        f"<th>{escape(tr(k, lang))}</th>"
        for k in ("nm_player", "nm_vp", "nm_health_short", "nm_form")
    )
    return (
        f'<div id="summary" class="summary nm-summary" data-winner="{escape(str(winner))}">'
        f"<h3>{escape(head)}</h3><p>{escape(result_line(view))}</p>"
        f"<table><thead><tr>{th}</tr></thead><tbody>{rows}</tbody></table></div>"
    )


def board(view: dict[str, Any], me: int | None, moves: list[Action], selected: list[int]) -> str:
    """The whole table for one seat (``me`` None for a spectator)."""
    lang = current()
    names = view["names"]
    dealer = view["dealer"]
    head_parts = [tr("nm_round", lang, n=str(view["round"]))]
    if isinstance(dealer, int):
        head_parts.append(tr("nm_dealer", lang, name=names[dealer]))
    head_parts.append(tr(f"nm_dir_{view['direction']}", lang))
    head = escape(" · ".join(head_parts))
    # Each player, the tokens, the called suit and the place of questions change with most
    # entries: each is a part of its own, so a redraw re-tells the page what changed.
    players = "".join(parts.boxed(f"nm-player-{s}", player(view, s, me)) for s in range(len(names)))
    waiting = [names[s] for s in view["need"].get("seats", []) if 0 <= s < len(names)]
    wait_line = '<p class="wait"></p>'  # always there, at the top of the place of questions
    if waiting and not view["over"]:
        wait_line = f'<p class="wait">{escape(tr("nm_wait", lang, names=", ".join(waiting)))}</p>'
    picking = bool(moves) and view["need"].get("phase") == "pass_commit"
    mine = ""
    if me is not None and "me" in view:
        mine = hand(view, selected, picking) + magic(view, me)
    log_items = parts.part(
        "game-log",
        log_view.lines(
            "nevermore", view["log"], current(), view["names"], LOG_LINES, log_view.STEP
        ),
    )
    phase = str(view["need"].get("phase", ""))
    return (
        f'<section id="nevermore" class="nevermore" data-round="{int(view["round"])}"'
        f' data-phase="{escape(phase)}">'
        f'<div id="nm-head" class="nm-head">{parts.part("nm-head", head)}</div>'
        f"{parts.boxed('nm-tokens-box', tokens(view))}"
        f'<div id="nm-players" class="nm-players" style="--row:{len(names)}">{players}</div>'
        f"{parts.boxed('nm-called-box', called(view))}{summary(view) if view['over'] else ''}"
        # Who is waited for and the question asked stand in a place of their own above the hand,
        # as tall asked or not (style.css, .ask): the hand does not jump as questions come and go.
        f'<div class="dock nm-dock"><div id="nm-ask" class="ask">'
        f"{parts.part('nm-ask', wait_line + prompt(view, moves, selected))}</div>{mine}</div>"
        f'<ol id="game-log" class="game-log" aria-live="polite" tabindex="0"'
        f' aria-label="{say("Журнал", "Log")}">{log_items}</ol></section>'
    )
