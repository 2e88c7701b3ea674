"""HTML for the page's views, built as escaped strings (pure Python, tested in CPython).

Buttons carry ``data-action`` attributes; ``web.ui.app`` listens once on the page and dispatches.
"""

from __future__ import annotations

from html import escape

from engine.core.model import Action

from .i18n import LANGUAGES, tr, use
from .room import ChatLine, Room


def language_switch(lang: str) -> str:
    """The catalog and rules buttons, and the buttons that switch the interface language."""
    use(lang)
    pages = (
        f'<button type="button" data-action="catalog">{escape(tr("catalog", lang))}</button>'
        f'<button type="button" data-action="rules">{escape(tr("rules", lang))}</button>'
    )
    buttons = [pages] + [
        f'<button type="button" data-action="lang" data-lang="{code}"'
        f' aria-pressed="{str(code == lang).lower()}">{code.upper()}</button>'
        for code in LANGUAGES
    ]
    return "".join(buttons)


def sound_control(lang: str, volume: float) -> str:
    """The effects' mute button and volume slider (the choice is kept in this browser)."""
    on = volume > 0
    label = escape(tr("sound" if on else "sound_off", lang))
    return (
        f'<span class="sound"><button type="button" id="sound" data-action="sound"'
        f' aria-pressed="{str(not on).lower()}" title="{label}">'
        f'<img src="/art/ui/{"sound" if on else "mute"}.svg" alt="">'
        f'<span class="sr">{label}</span></button>'
        f'<input type="range" id="sound-volume" data-action="sound-volume" min="0" max="1"'
        f' step="0.05" value="{volume:.2f}" aria-label="{escape(tr("sound_volume", lang))}">'
        "</span>"
    )


def home(lang: str, name: str, code: str, ice_json: str) -> str:
    """The first view: a name, then create a room or join one by code."""
    t = lambda key: escape(tr(key, lang))  # noqa: E731
    return f"""
<section class="home card">
  <p class="tagline">{t("tagline")}</p>
  <form id="home-form" data-action="create" autocomplete="off">
    <label>{t("your_name")}
      <input id="name" name="name" maxlength="32" required value="{escape(name)}"></label>
    <fieldset class="roles"><legend class="sr">{t("as_player")}</legend>
      <label><input type="radio" name="role" value="player" checked> {t("as_player")}</label>
      <label><input type="radio" name="role" value="spectator"> {t("as_spectator")}</label>
    </fieldset>
    <button id="create" type="submit">{t("create")}</button>
  </form>
  <form id="join-form" data-action="join" autocomplete="off">
    <label>{t("room_code")}
      <input id="code" name="code" maxlength="8" value="{escape(code)}"
             autocapitalize="characters" spellcheck="false"></label>
    <button id="join" type="submit">{t("join")}</button>
  </form>
  <p id="home-error" class="error" role="alert"></p>
  <details class="settings"><summary>{t("settings")}</summary>
    <label>{t("ice_servers")}<textarea id="ice" rows="3">{escape(ice_json)}</textarea></label>
    <button type="button" data-action="save-ice">{t("save")}</button>
    <span id="ice-status" role="status"></span>
  </details>
</section>"""


def room_shell(lang: str, room: Room, link: str, qr_uri: str) -> str:
    """The room view's frame: code, link, QR, and the panes filled by ``roster`` and ``chat``."""
    t = lambda key: escape(tr(key, lang))  # noqa: E731
    return f"""
<section class="room{" is-host" if room.host == room.you else ""}">
  <div class="share card">
    <h2>{t("room")} <span id="room-code" class="code">{escape(room.code)}</span></h2>
    <div class="share-row">
      <input id="room-link" readonly value="{escape(link)}" aria-label="{t("copy_link")}">
      <button type="button" data-action="copy-link">{t("copy_link")}</button>
    </div>
    <img id="qr" class="qr" alt="{t("qr_alt")}" src="{escape(qr_uri)}">
    <p id="share-status" role="status"></p>
  </div>
  <div class="people card">
    <h2>{t("players")}</h2>
    <ul id="roster" class="roster"></ul>
    <div class="controls">
      <button type="button" id="mute" data-action="mute">{t("mute")}</button>
      <button type="button" id="camera" data-action="camera">{t("camera_on")}</button>
      <button type="button" id="leave" data-action="leave">{t("leave")}</button>
      <button type="button" id="add-bot" data-action="add-bot"
              class="host-only">{t("add_bot")}</button>
    </div>
    <div id="media" class="media"></div>
  </div>
  <div id="table" class="table card"></div>
  <div class="chat card">
    <h2>{t("chat")}</h2>
    <ol id="chat-log" class="chat-log" aria-live="polite"></ol>
    <form id="chat-form" data-action="chat" autocomplete="off">
      <input id="chat-input" maxlength="500" placeholder="{t("say")}" aria-label="{t("say")}">
      <button type="submit">{t("send")}</button>
    </form>
  </div>
</section>"""


def roster(lang: str, room: Room) -> str:
    """One line per person: you first, then everyone else in join order."""
    seat_of = {peer_id: seat for seat, peer_id, _ in room.seats()}
    rows = [_person(lang, room.you, room.name, room.you == room.host, seat_of, "", True)]
    for peer in sorted(room.peers.values(), key=lambda p: p.order):
        state = "connected" if peer.state == "connected" and peer.channel else peer.state
        rows.append(_person(lang, peer.id, peer.name, peer.id == room.host, seat_of, state, False))
    return "".join(rows)


def _person(
    lang: str, peer_id: str, name: str, host: bool, seats: dict[str, int], state: str, me: bool
) -> str:
    badges = []
    if peer_id in seats:
        badges.append(f"{escape(tr('seat', lang))} {seats[peer_id] + 1}")
    else:
        badges.append(escape(tr("spectator", lang)))
    if host:
        badges.append(escape(tr("host", lang)))
    if me:
        badges.append(escape(tr("you", lang)))
        status = ""
    else:
        label = escape(tr(f"state_{state}", lang))
        status = f'<span class="state state-{escape(state)}">{label}</span>'
    return (
        f'<li data-peer="{escape(peer_id)}"><span class="who">{escape(name)}</span>'
        f' <span class="badges">{" · ".join(badges)}</span> {status}</li>'
    )


def chat_line(line: ChatLine) -> str:
    """One chat line; notices are styled apart from messages."""
    if line.notice:
        return f'<li class="notice">{escape(line.text)}</li>'
    mine = " mine" if line.mine else ""
    return f'<li class="msg{mine}"><b>{escape(line.name)}:</b> {escape(line.text)}</li>'


def media_tile(lang: str, peer_id: str, name: str) -> str:
    """A per-peer tile holding that peer's video and a volume slider for their voice."""
    t = escape(tr("volume", lang))
    return (
        f'<div class="tile" id="tile-{escape(peer_id)}"><span>{escape(name)}</span>'
        f'<label>{t} <input type="range" min="0" max="1" step="0.05" value="1"'
        f' data-action="volume" data-peer="{escape(peer_id)}"></label></div>'
    )


def describe(move: Action) -> str:
    """A short label for a move the game offers (generic: its words, without the seat, the
    secret parts or any JSON punctuation)."""
    fields = {k: v for k, v in move.items() if k not in ("seat", "secret", "commit")}
    kind = str(fields.pop("type", "move")).replace("_", " ")
    rest = ", ".join(f"{k.replace('_', ' ')} {_words(v)}" for k, v in sorted(fields.items()))
    return f"{kind}: {rest}" if rest else kind


def _words(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k} {_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_words(v) for v in value)
    if isinstance(value, bool):
        return "да" if value else "нет"
    return "—" if value is None else str(value)
