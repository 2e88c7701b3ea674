"""HTML of the table panel (pure Python): start controls, the game's view, moves, host powers."""

from __future__ import annotations

import json
from html import escape

from engine.core.model import Action
from engine.protocol.session import TableSession

from . import rumble_views
from .i18n import tr
from .views import describe

GAMES = {"rumble": "«Схватка»", "toy": "«Проба» (проверка честности)"}
MODES = {"tournament": "Турнир (три схватки)", "two_wins": "До двух побед"}


def lobby(lang: str, session: TableSession, is_host: bool) -> str:
    """Before a game: heroes, ready flags, and (for the host) the game, mode and timers."""
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
    heroes = "".join(
        f'<button type="button" class="hero-pick" data-action="hero" data-hero="{hid}"'
        f' aria-pressed="{str(hid == session.hero).lower()}" title="{escape(entry["name"])}">'
        f'<img src="{rumble_views.art(hid)}" alt="{escape(entry["name"])}"></button>'
        for hid, entry in rumble_views.cards().items()
        if entry["deck"] == "heroes"
    )
    ready_label = t("not_ready") if session.ready else t("ready")
    parts = [
        f'<ul id="lobby-players" class="lobby-players">{"".join(people)}</ul>',
        f'<p class="muted">{t("pick_hero")}</p><div id="heroes" class="heroes">{heroes}</div>',
        f'<button type="button" id="ready" data-action="ready"'
        f' aria-pressed="{str(session.ready).lower()}">{ready_label}</button>',
    ]
    if is_host:
        games = "".join(f'<option value="{g}">{escape(n)}</option>' for g, n in GAMES.items())
        modes = "".join(f'<option value="{m}">{escape(n)}</option>' for m, n in MODES.items())
        disabled = "" if session.players_ready() else " disabled"
        parts.append(
            f'<form id="table-form" data-action="open-table" class="table-start">'
            f'<label>{t("game")} <select id="table-game">{games}</select></label>'
            f'<label>{t("mode")} <select id="table-mode">{modes}</select></label>'
            f'<label>{t("fights")} <select id="table-fights"><option>3</option>'
            "<option>2</option><option>1</option></select></label>"
            f'<label>{t("assembly_timer")} <input id="table-assembly" type="number" min="5"'
            f' max="600" value="60"></label>'
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
) -> str:
    """The whole panel for the session's current state."""
    t = lambda key, **kw: escape(tr(key, lang, **kw))  # noqa: E731
    peer = session.peer
    parts = [f'<h2>{t("table")} <span id="countdown" class="countdown"></span></h2>']
    if peer is None:
        parts.append(lobby(lang, session, is_host))
    else:
        table = peer.table
        seat = "—" if peer.seat is None else str(peer.seat + 1)
        status = t(f"stage_{table.stage}")
        paused = f" · {t('paused')}" if table.paused else ""
        parts.append(
            f'<p id="table-status" data-stage="{escape(table.stage)}"'
            f' data-digest="{escape(table.digest())}">{status}{paused}'
            f" · {t('seat')} {escape(seat)} · {t('entries', n=str(len(table.log)))}</p>"
        )
        if table.result is not None:
            ok = table.result.get("ok") is True
            verdict = t("audit_ok") if ok else t("audit_failed")
            parts.append(
                f'<p id="table-result" data-ok="{str(ok).lower()}">{verdict}'
                f" {escape(json.dumps(table.result, ensure_ascii=False))}</p>"
            )
        if moves and peer.rules.game_id != "rumble":
            buttons = "".join(
                f'<button type="button" class="move" data-action="move" data-index="{i}">'
                f"{escape(describe(move))}</button>"
                for i, move in enumerate(moves)
            )
            parts.append(f'<div id="moves" class="moves" role="group">{buttons}</div>')
        view = peer.view()
        if view is not None and peer.rules.game_id == "rumble":
            parts.append(rumble_views.board(view, peer.seat, moves, selected or []))
        elif view is not None:
            text = json.dumps(view, ensure_ascii=False, indent=1)
            parts.append(f'<pre id="table-view" class="view">{escape(text)}</pre>')
        if is_host and table.stage not in ("done", "halted"):
            pause = "resume" if table.paused else "pause"
            parts.append(
                f'<div class="controls"><button type="button" data-action="host"'
                f' data-command="{pause}">{t(pause)}</button>'
                f'<button type="button" data-action="host" data-command="hurry-all">'
                f"{t('hurry')}</button></div>"
            )
        if session.finished():
            parts.append(f"<h3>{t('next_game')}</h3>{lobby(lang, session, is_host)}")
    errors = session.errors + [str(e) for e in (peer.errors if peer else [])]
    if errors:
        items = "".join(f"<li>{escape(e)}</li>" for e in errors[-5:])
        parts.append(f'<ul id="table-errors" class="errors">{items}</ul>')
    parts.append(f'<p class="muted small">{t("crypto")}: {escape(backend)}</p>')
    return "".join(parts)
