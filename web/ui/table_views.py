"""HTML of the table panel (pure Python): start controls, the game's view, moves, host powers.

Seats, whose turn it is and who is waited on are read from the shared part of every game's view
(``engine.core.view_schema``): the panel's turn line for every game, and the whole table for a
game without a board of its own.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from engine.core import view_schema
from engine.core.model import Action
from engine.core.view_schema import TableView
from engine.protocol.session import TableSession

from . import rumble_views
from .boards import BOARDS, DEFAULT, board_for, game_name
from .i18n import tr, use
from .parts import Memo, boxed, part
from .views import describe

# The latest view the panel drew (read by the page's effects) and this page's display choices.
LAST_VIEW: dict[str, Any] = {}
PREFS: dict[str, bool] = {"log_open": True}
BOARD = Memo()  # the board, drawn again only for a new view, moves or selection


def toggle_log() -> None:
    """Show or hide the game log (kept while the page is open)."""
    PREFS["log_open"] = not PREFS["log_open"]


def lobby(lang: str, session: TableSession, is_host: bool, game: str = DEFAULT) -> str:
    """Before a game: players' choices, ready flags, and (for the host) the game and its options."""
    t = lambda key, **kw: escape(tr(key, lang, **kw))  # noqa: E731
    people = []
    for hello in session.hellos.values():
        if hello.role != "player":
            continue
        hero = ""
        if hello.hero:
            hero = f'<img class="mini-hero" src="{rumble_views.art(hello.hero)}" alt="">'
        mark = "✓" if hello.ready else "…"
        people.append(
            f'<li class="{"ready" if hello.ready else ""}">{hero}{escape(hello.name)}'
            f' <span class="mark" title="{t("ready")}">{mark}</span></li>'
        )
    profiles = "".join(b.profile(lang, session) for b in BOARDS.values() if b.profile)
    ready_label = t("not_ready") if session.ready else t("ready")
    parts = [
        f'<ul id="lobby-players" class="lobby-players">{"".join(people)}</ul>',
        profiles,
        f'<button type="button" id="ready" data-action="ready"'
        f' aria-pressed="{str(session.ready).lower()}">{ready_label}</button>',
    ]
    if is_host:
        game = game if game in BOARDS else DEFAULT
        games = "".join(
            f'<option value="{g}"{" selected" if g == game else ""}>'
            f"{escape(game_name(g, lang))}</option>"
            for g in BOARDS
        )
        disabled = "" if session.players_ready() else " disabled"
        parts.append(
            f'<form id="table-form" data-action="open-table" class="table-start">'
            f'<label>{t("game")} <select id="table-game" data-action="choose-game">'
            f"{games}</select></label>"
            f'<div id="game-settings" class="game-settings" data-game="{escape(game)}">'
            f"{board_for(game).settings(lang)}</div>"
            f'<label>{t("timer")} <input id="table-timer" type="number" min="5"'
            f' max="600" value="30"></label>'
            f'<button id="open-table" type="submit"{disabled}>{t("start_game")}</button>'
            f'<p class="muted small">{t("all_ready_first")}</p></form>'
        )
    else:
        parts.append(f'<p class="muted">{t("wait_host")}</p>')
    return "".join(parts)


def panel(
    lang: str,
    session: TableSession,
    moves: list[Action],
    is_host: bool,
    backend: str,
    selected: list[int] | None = None,
    game: str = DEFAULT,
) -> str:
    """The whole panel for the session's current state."""
    t = lambda key, **kw: escape(tr(key, lang, **kw))  # noqa: E731
    use(lang)
    peer = session.peer
    parts = [f'<h2>{t("table")} <span id="countdown" class="countdown"></span></h2>']
    if peer is None:
        parts.append(lobby(lang, session, is_host, game))
    else:
        table = peer.table
        seat = "—" if peer.seat is None else str(peer.seat + 1)
        status = t(f"stage_{table.stage}")
        paused = f" · {t('paused')}" if table.paused else ""
        # The digest (a hash of the whole state, for comparing peers) while playing only once
        # the page has computed it when idle (``TableUI``); a finished table's at once.
        digest = table.digest() if table.result is not None else table.known_digest()
        known = "" if digest is None else f' data-digest="{escape(digest)}"'
        # A part of its own: its digest changes with every entry, the skeleton far less. It
        # counts no entries: a number changing with each would make the page lay out, paint and
        # show a new frame for each, most of which (a seat's random share...) show nothing else.
        line = (
            f'<p id="table-status" data-stage="{escape(table.stage)}"{known}>{status}{paused}'
            f" · {t('seat')} {escape(seat)}</p>"
        )
        parts.append(f'<div id="table-status-line">{part("table-status-line", line)}</div>')
        if table.result is not None:
            ok = table.result.get("ok") is True
            parts.append(
                f'<p id="table-result" class="verdict" data-ok="{str(ok).lower()}">'
                f"{escape(verdict(lang, session, table.result))}</p>"
            )
        board = board_for(peer.rules.game_id)
        if moves and board.render is None:
            buttons = "".join(
                f'<button type="button" class="move" data-action="move" data-index="{i}">'
                f"{escape(describe(move))}</button>"
                for i, move in enumerate(moves)
            )
            parts.append(f'<div id="moves" class="moves" role="group">{buttons}</div>')
        view = peer.view()
        LAST_VIEW.update(game=peer.rules.game_id, seat=peer.seat, view=view)
        shared = view_schema.table_of(view)
        names = [] if shared is None else seat_names(lang, session, shared)
        if shared is not None:
            turn = turn_line(lang, shared, names, peer.seat, quiet=board.render is not None)
            parts.append(boxed("table-turn-box", turn))
        draw_board = board.render
        if view is not None and draw_board is not None:
            closed = "" if PREFS["log_open"] else " log-closed"
            picked = selected or []
            # Copies of the lists the page changes in place (the selection), kept for comparing.
            inputs = (peer.rules.game_id, lang, peer.seat, view, tuple(moves), tuple(picked))
            drawn = BOARD.render(inputs, lambda: draw_board(view, peer.seat, moves, picked))
            parts.append(
                f'<button type="button" class="log-toggle" data-action="toggle-log"'
                f' aria-expanded="{str(PREFS["log_open"]).lower()}">{t("log")}</button>'
                f'<div class="board-wrap{closed}">'
                f"{drawn}</div>"
            )
        elif view is not None:
            if shared is not None:
                parts.append(seats_table(lang, shared, names))
                view = {k: v for k, v in view.items() if k != view_schema.KEY}
            parts.append(f'<div id="table-view" class="view">{plain(view)}</div>')
        if is_host and table.stage not in ("done", "halted"):
            pause = "resume" if table.paused else "pause"
            parts.append(
                f'<div class="controls"><button type="button" data-action="host"'
                f' data-command="{pause}">{t(pause)}</button>'
                f'<button type="button" data-action="host" data-command="hurry-all">'
                f"{t('hurry')}</button></div>"
            )
        if session.finished():
            parts.append(f"<h3>{t('next_game')}</h3>{lobby(lang, session, is_host, game)}")
    errors = session.errors + [str(e) for e in (peer.errors if peer else [])]
    if errors:
        items = "".join(f"<li>{escape(friendly_error(lang, session, e))}</li>" for e in errors[-5:])
        parts.append(f'<ul id="table-errors" class="errors" role="status">{items}</ul>')
    parts.append(f'<p class="muted small">{t("crypto")}: {escape(backend)}</p>')
    return "".join(parts)


# ----- the shared part of every game's view -------------------------------------------------

WORDS = {
    "ru": {
        "turn": "Ход: {name}.",
        "waiting": "Ждём: {names}.",
        "you": "вы",
        "table_acts": "Ход стола.",
        "over": "Партия окончена.",
        "winners": "Победа: {names}.",
        "life": "жизни {n}",
        "score": "очки {n}",
        "hand": "карт в руке {n}",
        "out": "выбыл",
        "seat": "место {n}",
    },
    "en": {
        "turn": "Turn: {name}.",
        "waiting": "Waiting for {names}.",
        "you": "you",
        "table_acts": "The table acts.",
        "over": "The game is over.",
        "winners": "Won: {names}.",
        "life": "life {n}",
        "score": "score {n}",
        "hand": "{n} in hand",
        "out": "out",
        "seat": "seat {n}",
    },
}
MARKS = {
    "ru": {
        "turn": "ходит",
        "totem": "тотем",
        "palace": "Дворец",
        "dealer": "раздаёт",
        "raven": "ворон",
        "winner": "победитель",
        "shield": "щит",
        "frozen": "заморожен",
    },
    "en": {
        "turn": "to play",
        "totem": "totem",
        "palace": "Palace",
        "dealer": "dealer",
        "raven": "raven",
        "winner": "winner",
        "shield": "shield",
        "frozen": "frozen",
    },
}


def _word(lang: str, key: str, **values: object) -> str:
    return WORDS.get(lang, WORDS["ru"])[key].format(**values)


def seat_names(lang: str, session: TableSession, table: TableView) -> list[str]:
    """Each seat's name: the game's, else the room's player in that seat, else «место N»."""
    peer = session.peer
    hellos = {}
    if peer is not None:
        for member in peer.table.roster:
            hello = session.hellos.get(member.peer)
            if member.seat is not None and hello is not None:
                hellos[member.seat] = hello.name
    return [
        s["name"] or hellos.get(s["seat"]) or _word(lang, "seat", n=s["seat"] + 1)
        for s in table["seats"]
    ]


def turn_line(
    lang: str, table: TableView, names: list[str], viewer: int | None, quiet: bool = False
) -> str:
    """Whose turn it is and who is waited on (or the end and the winners), with the same facts
    as data attributes; ``quiet``: for screen readers only (the game's board shows them)."""
    prompt = table["prompt"]

    def who(seat: int) -> str:
        name = names[seat] if 0 <= seat < len(names) else "?"
        return f"{name} ({_word(lang, 'you')})" if seat == viewer else name

    if table["over"]:
        words = [_word(lang, "over")]
        if table["winners"]:
            words.append(_word(lang, "winners", names=", ".join(who(s) for s in table["winners"])))
    else:
        words = [] if table["turn"] is None else [_word(lang, "turn", name=who(table["turn"]))]
        if prompt["seats"]:
            words.append(_word(lang, "waiting", names=", ".join(who(s) for s in prompt["seats"])))
        else:
            words.append(_word(lang, "table_acts"))
    turn = "" if table["turn"] is None else str(table["turn"])
    return (
        f'<p id="table-turn" class="{"sr" if quiet else "turn-line"}" data-turn="{turn}"'
        f' data-waiting="{",".join(str(s) for s in prompt["seats"])}"'
        f' data-prompt="{escape(prompt["kind"])}" data-phase="{escape(prompt["phase"])}"'
        f' data-mine="{str(prompt["mine"]).lower()}" data-timer="{prompt["timer"] or ""}">'
        f"{escape(' '.join(words))}</p>"
    )


def seats_table(lang: str, table: TableView, names: list[str]) -> str:
    """The seats and public piles of a game without a board of its own."""
    waited = set(table["prompt"]["seats"])
    rows = []
    for seat in table["seats"]:
        facts = [names[seat["seat"]]]
        if seat["life"] is not None:
            facts.append(_word(lang, "life", n=seat["life"]))
        if seat["score"] is not None:
            facts.append(_word(lang, "score", n=seat["score"]))
        facts.append(_word(lang, "hand", n=seat["hand"]))
        marks = MARKS.get(lang, MARKS["ru"])
        facts += [marks[m] for m in seat["marks"]]
        if seat["out"]:
            facts.append(_word(lang, "out"))
        classes = " ".join(
            c for c, on in (("waited", seat["seat"] in waited), ("out", seat["out"])) if on
        )
        rows.append(
            f'<li data-seat="{seat["seat"]}" class="{classes}">{escape(" · ".join(facts))}</li>'
        )
    piles = " · ".join(
        f"{escape(p['name'])} {p['count']}" + (f" ({escape(p['top'])})" if p["top"] else "")
        for p in table["piles"]
    )
    return (
        f'<ul id="table-seats" class="table-seats">{"".join(rows)}</ul>'
        f'<p id="table-piles" class="muted small">{piles}</p>'
    )


LONG_ID = re.compile(r"\b[0-9a-f]{12,}\b")


def seat_name(session: TableSession, seat: int) -> str:
    """The name of the player in ``seat`` of the running table («место N» if unknown)."""
    peer = session.peer
    if peer is not None:
        for member in peer.table.roster:
            if member.seat == seat:
                hello = session.hellos.get(member.peer)
                if hello is not None:
                    return hello.name
    return f"место {seat + 1}" if seat >= 0 else "?"


def verdict(lang: str, session: TableSession, result: dict[str, Any]) -> str:
    """The fairness audit's result in words: passed, or who is blamed and why."""
    if result.get("ok") is True:
        return tr("audit_ok", lang)
    blame = result.get("blame") or {}
    who = []
    for seat, why in blame.items():
        try:
            name = seat_name(session, int(seat))
        except (TypeError, ValueError):
            name = str(seat)
        who.append(f"{name} ({_without_ids(str(why))})" if why else name)
    if not who:
        return tr("audit_failed", lang)
    return tr("audit_blame", lang, who="; ".join(who))


def friendly_error(lang: str, session: TableSession, text: str) -> str:
    """An error as a player reads it: peers by name, no internal ids."""
    for tid, hello in session.hellos.items():
        text = text.replace(tid, hello.name)
    for link, tid in session.tids.items():
        known = session.hellos.get(tid)
        text = text.replace(link, known.name if known else "?")
    return tr("table_error", lang, why=_without_ids(text))


def _without_ids(text: str) -> str:
    return LONG_ID.sub("…", text).strip()


def plain(value: Any, depth: int = 0) -> str:
    """A game's view without a board of its own, as nested lists of words (never raw JSON)."""
    if isinstance(value, dict):
        items = "".join(
            f"<li><b>{escape(str(key))}</b>: {plain(item, depth + 1)}</li>"
            for key, item in value.items()
        )
        return f'<ul class="plain">{items}</ul>'
    if isinstance(value, list):
        if all(not isinstance(item, dict | list) for item in value):
            return escape(", ".join("—" if item is None else str(item) for item in value))
        return "".join(plain(item, depth + 1) for item in value)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "да" if value else "нет"
    return escape(str(value))


def refusal_note(why: str, lang: str = "ru") -> str:
    """The page's words for a refused or dropped real-time play (``Peer.refused``)."""
    english = lang == "en"
    if "queued move dropped" in why:
        if english:
            return "Your next card can no longer be played that way: it stays in your hand."
        return "Следующую карту уже нельзя сыграть так — она осталась у вас."
    if "earlier round" in why or "late move" in why:
        if english:
            return "Too late: the spell has changed target; the card stays in your hand."
        return "Не успели: заклинание уже сменило цель — карта осталась у вас."
    return f"Move not taken: {why[:120]}" if english else f"Ход не принят: {why[:120]}"
