"""HTML of the «Схватка» table (pure Python, tested in CPython): wizards, hand, prompts, log.

Input is the engine's per-seat ``view`` (only what this seat may know) and this seat's legal moves.
Buttons carry ``data-action`` attributes that ``web.ui.app`` dispatches.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from engine.core.model import Action

from . import log_view, parts, rumble_en
from .i18n import card_back, current, icon, picture, say
from .phrases import render, render_log
from .views import describe

MAX_LIFE = 25
SLOT_NAMES = {"source": "заводила", "quality": "наворот", "delivery": "приход", "wild": "шальная"}
SLOT_NAMES_EN = {"source": "source", "quality": "quality", "delivery": "delivery", "wild": "wild"}
FACES = "⚀⚁⚂⚃⚄⚅"
LOG_LINES = 100  # the log shows at least the latest entries (``log_view.first_shown``)


@lru_cache(maxsize=1)
def cards() -> dict[str, dict[str, Any]]:
    """Every card, treasure, ghost card, disease, special and hero by id."""
    from engine.games.rumble.listing import entries

    return {entry["id"]: entry for entry in entries()}


def art(card_id: str) -> str:
    """The illustration's URL in the built site (its words in the page's language)."""
    return picture(f"/art/rumble/{escape(card_id)}.svg")


def name_of(card_id: str | None) -> str:
    """A card's name in the page's language."""
    if card_id is None:
        return "?"
    entry = cards().get(card_id)
    russian = str(entry["name"]) if entry else card_id
    return rumble_en.name(card_id, russian) if current() == "en" else russian


def text_of(card_id: str) -> str:
    """A card's full text in the page's language."""
    entry = cards().get(card_id)
    russian = str(entry["text"]) if entry else ""
    return rumble_en.text(card_id, russian) if current() == "en" and entry else russian


def chip(card_id: str, kind: str) -> str:
    """A small labelled token (treasure, disease, ghost card, creature) with its text on hover."""
    return _chip(card_id, kind, current())


# A redraw draws the same cards again and again: their HTML is made once per language.
@lru_cache(maxsize=1024)
def _chip(card_id: str, kind: str, lang: str) -> str:
    return (
        f'<button type="button" class="chip {kind}" data-action="card-info"'
        f' data-card="{escape(card_id)}" title="{escape(text_of(card_id))}">'
        f"{escape(name_of(card_id))}</button>"
    )


def wizard(seat: dict[str, Any], me: int | None, view: dict[str, Any]) -> str:
    """One wizard's box: hero, life, medals, spell in the queue, creatures, treasures, diseases."""
    waiting = view["waiting"]
    classes = ["wizard"]
    if not seat["alive"]:
        classes.append("dead")
    if seat["seat"] == view.get("turn"):
        classes.append("turn")
    if seat["seat"] in waiting.get("seats", []):
        classes.append("waiting")
    if seat["seat"] == me:
        classes.append("me")
    life = max(0, int(seat["life"]))
    bar = min(100, round(100 * life / MAX_LIFE))
    hero = seat.get("hero") or "h_1"
    # The spell's line is always there (empty until a spell is sealed), so the box keeps its
    # height and the boxes below it do not jump as spells are sealed and cast.
    spell = '<p class="spell-line"></p>'
    if seat.get("spell_name"):
        said = f"«{seat['spell_name']}»"
        if seat.get("initiative") is not None:
            said += f" · {say('инициатива', 'initiative')} {seat['initiative']}"
        spell = f'<p class="spell-name" title="{escape(said)}">{escape(said)}</p>'
    elif seat.get("sealed"):
        place = seat.get("queue_place")
        where = say(f", место в очереди {place}", f", queue place {place}") if place else ""
        sealed = say("Запечатано карт", "Cards sealed")
        spell = f'<p class="sealed">{sealed}: {seat["sealed"]}{where}</p>'
    chips = "".join(
        [chip(c, "creature") for c in seat["creatures"]]
        + [chip(t, "treasure") for t in seat["treasures"]]
        + [chip(d, "disease") for d in seat["diseases"]]
        + [chip(g, "ghost") for g in seat["ghost_cards"]]
    )
    palace = ""
    if seat["palace"]:
        owner, word = say("Хозяин Хоромов", "Owner of the Palace"), say("Хоромы", "Palace")
        palace = (
            f' <span class="palace" title="{owner}">'
            f'<img src="{icon("palace")}" alt="">{word}</span>'
        )
    ghost = say("призрак", "ghost")
    status = "" if seat["alive"] else f' <span class="ghost-mark">{ghost}</span>'
    return (
        f'<article class="{" ".join(classes)}" data-seat="{seat["seat"]}">'
        f'<img class="hero" src="{art(hero)}" alt="{escape(name_of(hero))}">'
        f'<div class="who"><b>{escape(seat["name"])}</b>{palace}{status}</div>'
        f'<div class="life" aria-label="{say("жизни", "life")} {life}">'
        f'<span style="width:{bar}%"></span>'
        f"<em>{life}</em></div>"
        f'<div class="medals" title="{say("медали", "medals")}: ⚔ · ★">'
        f"⚔ {seat['kills']} · ★ {seat['survivals']} · {say('карт в руке', 'in hand')}:"
        f" {seat['hand_count']}</div>"
        f'{spell}<div class="chips">{chips}</div></article>'
    )


def hand(view: dict[str, Any], selected: list[int], sealing: bool) -> str:
    """This seat's hand: each card's art, name and (compact) text; selectable while sealing.
    A tap opens the card's full text in the card pane (enlarged on a phone)."""
    lang = current()
    items = [
        _hand_card(card["slot"], card.get("card"), card["slot"] in selected, sealing, lang)
        for card in view["hand"]
    ]
    return f'<div id="hand" class="hand rumble-hand">{parts.part("hand", "".join(items))}</div>'


@lru_cache(maxsize=1024)
def _hand_card(slot: int, cid: str | None, picked: bool, sealing: bool, lang: str) -> str:
    chosen = " selected" if picked else ""
    action = "pick" if sealing else "card-info"
    label = name_of(cid) if cid else "…"
    text = text_of(cid or "")
    return (
        f'<button type="button" class="hand-card{chosen}" data-action="{action}"'
        f' data-slot="{slot}" data-card="{escape(cid or "")}"'
        f' aria-pressed="{str(bool(chosen)).lower()}" title="{escape(text)}">'
        f'<img src="{art(cid) if cid else card_back()}" alt=""><span class="card-name">'
        f'{escape(label)}</span><small class="card-text">{escape(text)}</small></button>'
    )


ROLE_ORDER = {"source": 0, "quality": 1, "delivery": 2, "wild": 3}


def building(view: dict[str, Any], selected: list[int]) -> str:
    """While sealing: the spell the picked cards make, its name composing as cards are picked
    («Искрящийся Громовой Разряд от Лорда Искр»); «Шальная магия» fills a place unknown yet."""
    from engine.games.rumble.cards import WILD, load_catalog
    from engine.games.rumble.text import spell_name

    hand_cards = {c["slot"]: c.get("card") for c in view["hand"]}
    picked = [hand_cards.get(s) for s in selected if hand_cards.get(s)]
    if not picked:
        return (
            '<div id="spell-building" class="spell-building empty" aria-live="polite">'
            f"<p>{say('Выберите карты для заклинания.', 'Pick cards to build a spell.')}"
            "</p></div>"
        )
    spells = load_catalog().spells
    ordered = sorted(
        picked, key=lambda c: ROLE_ORDER.get(str(cards().get(str(c), {}).get("slot")), 9)
    )
    pairs = [(spells[c], str(spells[c]["slot"])) for c in ordered if c != WILD and c in spells]
    wild = sum(1 for c in ordered if c == WILD)
    if current() == "en":
        name = rumble_en.spell_name([str(c) for c in ordered]) if pairs else "Wild Spell"
    else:
        name = spell_name(pairs) if pairs else "Шальное заклинание"
    if wild and pairs:
        extra = say("шальная магия", "wild magic")
        name += f" + {extra}" if wild == 1 else f" + {extra} ×{wild}"
    faces = "".join(
        f'<img src="{art(str(c))}" alt="{escape(name_of(c))}" class="building-card">'
        for c in ordered
    )
    return (
        f'<div id="spell-building" class="spell-building" aria-live="polite">{faces}'
        f'<p class="spell-title">«{escape(name)}»</p></div>'
    )


def seal_groups(moves: list[Action]) -> dict[tuple[int, ...], list[Action]]:
    """Sealing moves grouped by the set of hand slots they seal."""
    groups: dict[tuple[int, ...], list[Action]] = {}
    for move in moves:
        items = move.get("secret", {}).get("items", [])
        slots = tuple(sorted(i["slot"] for i in items if "slot" in i))
        groups.setdefault(slots, []).append(move)
    return groups


def seal_label(move: Action, hand_cards: dict[int, str]) -> str:
    """«наворот: Искрящийся, приход: Громовой Разряд»: what each card would be."""
    parts = []
    for item in move.get("secret", {}).get("items", []):
        if "slot" in item:
            card = hand_cards.get(item["slot"])
            role = SLOT_NAMES_EN if current() == "en" else SLOT_NAMES
            parts.append(f"{role.get(item['as'], item['as'])}: {name_of(card)}")
    return ", ".join(parts)


def prompt(view: dict[str, Any], moves: list[Action], selected: list[int], names: list[str]) -> str:
    """What this seat is asked now, as buttons (empty when it waits for others)."""
    if not moves:
        return ""
    phase = view["waiting"].get("phase", "")
    hand_cards = {c["slot"]: c.get("card") for c in view["hand"]}
    buttons: list[str] = []
    title = ""
    if phase == "assembly":
        title = say(
            "Соберите заклинание: выберите от 1 до 3 карт (не больше одной каждого типа).",
            "Build a spell: pick 1 to 3 cards (at most one of each kind).",
        )
        options = seal_groups(moves).get(tuple(sorted(selected)), [])
        if selected and not options:
            title += say(
                " Такой набор нельзя запечатать.", " These cards cannot be sealed together."
            )
        for i, move in enumerate(moves):
            if move in options:
                label = f"{say('Запечатать', 'Seal')}: {seal_label(move, hand_cards)}"
                buttons.append(_move_button(i, label, "seal"))
    elif phase == "absorb":
        hit = view["waiting"].get("hit")
        title = say(
            f"В вас летит удар: {hit} урона. Сбросить тварь, чтобы поглотить его?",
            f"A hit of {hit} damage flies at you. Discard a creature to absorb it?",
        )
        seat = moves[0].get("seat")
        me: dict[str, Any] = next((s for s in view["seats"] if s["seat"] == seat), {})
        creatures = dict(zip(me.get("creature_slots", []), me.get("creatures", []), strict=False))
        for i, move in enumerate(moves):
            slot = move.get("creature")
            if slot is None:
                label = say(f"Принять удар ({hit})", f"Take the hit ({hit})")
            else:
                label = (
                    say("Сбросить тварь", "Discard creature") + f" «{name_of(creatures.get(slot))}»"
                )
            buttons.append(_move_button(i, label))
    elif phase == "target":
        title = say("Выберите цель.", "Choose a target.")
        for i, move in enumerate(moves):
            target = move.get("target")
            who = names[target] if isinstance(target, int) and target < len(names) else target
            buttons.append(_move_button(i, f"{say('Цель', 'Target')}: {who}"))
    elif phase == "treasure":
        title = say(
            "Использовать сокровище? Оплата — сброс карт с руки.",
            "Use a treasure? It costs cards discarded from your hand.",
        )
        for i, move in enumerate(moves):
            if move.get("use") is None:
                label = say("Не использовать", "Do not use")
            else:
                paid = ", ".join(name_of(hand_cards.get(s)) for s in move.get("slots", []))
                label = f"{name_of(move['use'])}: {say('сбросить', 'discard')} {paid}"
            buttons.append(_move_button(i, label))
    elif phase == "surprise":
        title = say(
            "Вы гибнете. Раскрыть Нежданчик из закрытого заклинания?",
            "You are dying. Reveal the Surprise in your sealed spell?",
        )
        for i, move in enumerate(moves):
            label = (
                say("Раскрыть Нежданчик", "Reveal the Surprise")
                if move.get("open")
                else say("Не раскрывать", "Keep it closed")
            )
            buttons.append(_move_button(i, label))
    elif phase == "drop":
        title = say(
            "Гепатит Ы: уберите из закрытого заклинания одну карту в сброс.",
            "Hepatitis Y: discard one card from your sealed spell.",
        )
        for i, move in enumerate(moves):
            gone = name_of(hand_cards.get(move.get("slot")))
            buttons.append(_move_button(i, f"{say('Убрать', 'Discard')}: {gone}"))
    elif phase in ("cure", "transfer"):
        verb = say("Вылечить", "Cure") if phase == "cure" else say("Передать", "Pass on")
        title = say(f"{verb} какую ЗПМП?", f"{verb} which disease?")
        for i, move in enumerate(moves):
            buttons.append(_move_button(i, f"{verb}: {name_of(move.get('disease'))}"))
    else:
        title = say("Ваш ход.", "Your move.")
        for i, move in enumerate(moves):
            buttons.append(_move_button(i, describe(move)))
    return (
        f'<div id="prompt" class="prompt" data-phase="{escape(phase)}"><p>{escape(title)}</p>'
        f'<div id="moves" class="moves">{"".join(buttons)}</div></div>'
    )


def _move_button(index: int, label: str, kind: str = "") -> str:
    extra = f" {kind}" if kind else ""
    return (
        f'<button type="button" class="move{extra}" data-action="move" data-index="{index}">'
        f"{escape(label)}</button>"
    )


def dice(log: list[Any]) -> str:
    """The latest power roll (a ``power`` event among the last entries) as dice faces; its place
    in the log tells the page a new roll from the one already shown."""
    for index in range(len(log) - 1, max(-1, len(log) - 13), -1):
        event = log[index]
        if isinstance(event, dict) and event.get("e") == "power":
            faces = [int(d) for d in event.get("dice", []) if 1 <= int(d) <= 6][:12]
            shown = "".join(f'<span class="die">{FACES[f - 1]}</span>' for f in faces)
            return f'<div id="dice" class="dice" data-roll="{index}">{shown}</div>'
    return '<div id="dice" class="dice"></div>'


def log_lines(view: dict[str, Any], last: int = LOG_LINES) -> list[str]:
    """The last ``last`` log events as sentences in the page's language."""
    names = [str(s["name"]) for s in view["seats"]]
    return render_log("rumble", view["log"][-last:], current(), names)


def board(view: dict[str, Any], me: int | None, moves: list[Action], selected: list[int]) -> str:
    """The whole table for one seat."""
    names = [s["name"] for s in view["seats"]]
    if view["mode"] == "tournament":
        mode = say("Турнир", "Tournament")
    else:
        mode = say("До двух побед", "Best of two wins")
    head = (
        f"<b>{mode}</b> · {say('схватка', 'fight')} {view['fight']}"
        f" · {say('раунд', 'round')} {view['round']} · {say('колода', 'deck')} {view['deck']}"
        f" · {say('сброс', 'discard')} {view['discard']}"
    )
    # Opponents round the table (clockwise from this seat), this seat last, by its hand.
    seats = view["seats"]
    mine = [s for s in seats if s["seat"] == me]
    others = sorted(
        (s for s in seats if s["seat"] != me),
        key=lambda s: (s["seat"] - (me or 0)) % max(1, len(seats)),
    )
    # Each wizard, the head, the dice and the place of questions change with most entries: each
    # is a part of its own, so a redraw re-tells the page what changed, not the whole board.
    wizards = "".join(
        parts.boxed(f"wizard-{seat['seat']}", wizard(seat, me, view)) for seat in others + mine
    )
    sealing = bool(moves) and view["waiting"].get("phase") == "assembly"
    waiting = [names[s] for s in view["waiting"].get("seats", []) if s < len(names)]
    waiting_for = say("Ждём", "Waiting for")
    # Always drawn (empty when nobody is waited for), at the top of the place of questions.
    wait_line = (
        f'<p class="wait">{waiting_for}: {escape(", ".join(waiting))}</p>'
        if waiting
        else '<p class="wait"></p>'
    )
    log_items = parts.part(
        "game-log",
        log_view.lines("rumble", view["log"], current(), names, LOG_LINES, log_view.STEP),
    )
    summary = results(view) if view["waiting"]["kind"] == "terminal" else fight_banner(view)
    # Who is waited for, the spell being built and the question asked stand in a place of their
    # own above the hand, as tall whether a question is asked or not (style.css, .ask): the hand
    # under the player's pointer does not jump as questions come and go.
    ask = wait_line + (building(view, selected) if sealing else "")
    ask += prompt(view, moves, selected, names)
    return (
        f'<section class="rumble" data-fight="{view["fight"]}">'
        f'<div id="rumble-head" class="rumble-head">{parts.part("rumble-head", head)}</div>'
        f'<div class="wizards" style="--row:{max(1, len(others))}">{wizards}</div>'
        f"{parts.boxed('dice-box', dice(view['log']))}{summary}"
        f'<div class="dock"><div id="rumble-ask" class="ask">{parts.part("rumble-ask", ask)}</div>'
        f"{hand(view, selected, sealing) if me is not None else ''}</div>"
        f'<ol id="game-log" class="game-log" aria-live="polite" tabindex="0"'
        f' aria-label="{say("Журнал", "Log")}">{log_items}</ol></section>'
    )


def results(view: dict[str, Any]) -> str:
    """The end-of-tournament summary: medals of every wizard, the winners."""
    rows = "".join(
        f"<tr><td>{escape(s['name'])}</td><td>{s['kills']}</td><td>{s['survivals']}</td>"
        f"<td>{s['kills'] + s['survivals']}</td></tr>"
        for s in view["seats"]
    )
    winners = ", ".join(escape(view["seats"][w]["name"]) for w in view.get("winners") or [])
    return (
        f'<div id="summary" class="summary"><h3>{say("Итоги: победа", "Result: the winner")}'
        f" — {winners or say('никто', 'nobody')}</h3>"
        f"<table><thead><tr><th>{say('Маг', 'Wizard')}</th>"
        f"<th>⚔ {say('убийства', 'kills')}</th><th>★ {say('выживания', 'survivals')}</th>"
        f"<th>{say('всего', 'total')}</th></tr></thead><tbody>{rows}</tbody></table></div>"
    )


def fight_banner(view: dict[str, Any]) -> str:
    """Right after a fight ends (until the next round is under way): its result and the medals."""
    recent = [e for e in view["log"][-12:] if isinstance(e, dict)]
    ended = [e for e in recent if e.get("e") == "survivor"]
    if not ended or any(e.get("e") == "round" and e.get("round") == 2 for e in recent):
        return ""
    names = [str(s["name"]) for s in view["seats"]]
    line = render("rumble", ended[-1], current(), names)
    medals = "; ".join(f"{s['name']}: ⚔ {s['kills']} ★ {s['survivals']}" for s in view["seats"])
    return (
        f'<div id="fight-summary" class="summary"><b>{escape(line)}</b>'
        f"<p>{say('Медали', 'Medals')}: {escape(medals)}</p></div>"
    )


def detail(card_id: str) -> str:
    """The detail pane: a card's picture, name and full text."""
    return (
        f'<img src="{art(card_id)}" alt=""><div><b>{escape(name_of(card_id))}</b>'
        f"<p>{escape(text_of(card_id))}</p></div>"
        f'<button type="button" data-action="close-detail"'
        f' aria-label="{say("Закрыть", "Close")}">×</button>'
    )
