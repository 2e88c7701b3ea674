"""HTML of the «Схватка» table (pure Python, tested in CPython): wizards, hand, prompts, log.

Input is the engine's per-seat ``view`` (only what this seat may know) and this seat's legal moves.
Buttons carry ``data-action`` attributes that ``web.ui.app`` dispatches.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from typing import Any

from engine.core.model import Action

from .views import describe

MAX_LIFE = 25
BACK = "/card-back.svg"
SLOT_NAMES = {"source": "заводила", "quality": "наворот", "delivery": "приход", "wild": "шальная"}
FACES = "⚀⚁⚂⚃⚄⚅"
DICE = re.compile(r"бросок[^:]*: ([\d+ ]+)")


@lru_cache(maxsize=1)
def cards() -> dict[str, dict[str, Any]]:
    """Every card, treasure, ghost card, disease, special and hero by id."""
    from engine.games.rumble.listing import entries

    return {entry["id"]: entry for entry in entries()}


def art(card_id: str) -> str:
    """The illustration's URL in the built site."""
    return f"/art/rumble/{escape(card_id)}.svg"


def name_of(card_id: str | None) -> str:
    if card_id is None:
        return "?"
    entry = cards().get(card_id)
    return str(entry["name"]) if entry else card_id


def text_of(card_id: str) -> str:
    entry = cards().get(card_id)
    return str(entry["text"]) if entry else ""


def chip(card_id: str, kind: str) -> str:
    """A small labelled token (treasure, disease, ghost card, creature) with its text on hover."""
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
    spell = ""
    if seat.get("spell_name"):
        spell = f'<p class="spell-name">«{escape(seat["spell_name"])}»'
        if seat.get("initiative") is not None:
            spell += f" · инициатива {escape(str(seat['initiative']))}"
        spell += "</p>"
    elif seat.get("sealed"):
        place = seat.get("queue_place")
        where = f", место в очереди {place}" if place else ""
        spell = f'<p class="sealed">Запечатано карт: {seat["sealed"]}{where}</p>'
    chips = "".join(
        [chip(c, "creature") for c in seat["creatures"]]
        + [chip(t, "treasure") for t in seat["treasures"]]
        + [chip(d, "disease") for d in seat["diseases"]]
        + [chip(g, "ghost") for g in seat["ghost_cards"]]
    )
    palace = ""
    if seat["palace"]:
        palace = ' <span class="palace" title="Хозяин Хоромов">♜ Хоромы</span>'
    status = "" if seat["alive"] else ' <span class="ghost-mark">призрак</span>'
    return (
        f'<article class="{" ".join(classes)}" data-seat="{seat["seat"]}">'
        f'<img class="hero" src="{art(hero)}" alt="{escape(name_of(hero))}">'
        f'<div class="who"><b>{escape(seat["name"])}</b>{palace}{status}</div>'
        f'<div class="life" aria-label="жизни {life}"><span style="width:{bar}%"></span>'
        f"<em>{life}</em></div>"
        f'<div class="medals" title="медали за убийство · за выживание">'
        f"⚔ {seat['kills']} · ★ {seat['survivals']} · карт в руке: {seat['hand_count']}</div>"
        f'{spell}<div class="chips">{chips}</div></article>'
    )


def hand(view: dict[str, Any], selected: list[int], sealing: bool) -> str:
    """This seat's hand: each card's art, name and (compact) text; selectable while sealing.
    A tap opens the card's full text in the card pane (enlarged on a phone)."""
    items = []
    for card in view["hand"]:
        slot, cid = card["slot"], card.get("card")
        chosen = " selected" if slot in selected else ""
        action = "pick" if sealing else "card-info"
        label = name_of(cid) if cid else "…"
        text = text_of(cid or "")
        items.append(
            f'<button type="button" class="hand-card{chosen}" data-action="{action}"'
            f' data-slot="{slot}" data-card="{escape(cid or "")}"'
            f' aria-pressed="{str(bool(chosen)).lower()}" title="{escape(text)}">'
            f'<img src="{art(cid) if cid else BACK}" alt=""><span class="card-name">'
            f'{escape(label)}</span><small class="card-text">{escape(text)}</small></button>'
        )
    return f'<div id="hand" class="hand rumble-hand">{"".join(items)}</div>'


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
            "<p>Выберите карты — здесь сложится заклинание.</p></div>"
        )
    spells = load_catalog().spells
    ordered = sorted(
        picked, key=lambda c: ROLE_ORDER.get(str(cards().get(str(c), {}).get("slot")), 9)
    )
    pairs = [(spells[c], str(spells[c]["slot"])) for c in ordered if c != WILD and c in spells]
    wild = sum(1 for c in ordered if c == WILD)
    name = spell_name(pairs) if pairs else "Шальное заклинание"
    if wild and pairs:
        name += " + шальная магия" if wild == 1 else f" + шальная магия ×{wild}"
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
            parts.append(f"{SLOT_NAMES.get(item['as'], item['as'])}: {name_of(card)}")
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
        title = "Соберите заклинание: выберите от 1 до 3 карт (не больше одной каждого типа)."
        options = seal_groups(moves).get(tuple(sorted(selected)), [])
        if selected and not options:
            title += " Такой набор нельзя запечатать."
        for i, move in enumerate(moves):
            if move in options:
                label = f"Запечатать: {seal_label(move, hand_cards)}"
                buttons.append(_move_button(i, label, "seal"))
    elif phase == "absorb":
        hit = view["waiting"].get("hit")
        title = f"В вас летит удар: {hit} урона. Сбросить тварь, чтобы поглотить его?"
        seat = moves[0].get("seat")
        me: dict[str, Any] = next((s for s in view["seats"] if s["seat"] == seat), {})
        creatures = dict(zip(me.get("creature_slots", []), me.get("creatures", []), strict=False))
        for i, move in enumerate(moves):
            slot = move.get("creature")
            if slot is None:
                label = f"Принять удар ({hit})"
            else:
                label = f"Сбросить тварь «{name_of(creatures.get(slot))}»"
            buttons.append(_move_button(i, label))
    elif phase == "target":
        title = "Выберите цель."
        for i, move in enumerate(moves):
            target = move.get("target")
            who = names[target] if isinstance(target, int) and target < len(names) else target
            buttons.append(_move_button(i, f"Цель: {who}"))
    elif phase == "treasure":
        title = "Использовать сокровище? Оплата — сброс карт с руки."
        for i, move in enumerate(moves):
            if move.get("use") is None:
                label = "Не использовать"
            else:
                paid = ", ".join(name_of(hand_cards.get(s)) for s in move.get("slots", []))
                label = f"{name_of(move['use'])}: сбросить {paid}"
            buttons.append(_move_button(i, label))
    elif phase == "surprise":
        title = "Вы гибнете. Раскрыть Нежданчик из закрытого заклинания?"
        for i, move in enumerate(moves):
            label = "Раскрыть Нежданчик" if move.get("open") else "Не раскрывать"
            buttons.append(_move_button(i, label))
    elif phase == "drop":
        title = "Гепатит Ы: уберите из закрытого заклинания одну карту в сброс."
        for i, move in enumerate(moves):
            buttons.append(_move_button(i, f"Убрать: {name_of(hand_cards.get(move.get('slot')))}"))
    elif phase in ("cure", "transfer"):
        verb = "Вылечить" if phase == "cure" else "Передать"
        title = f"{verb} какую ЗПМП?"
        for i, move in enumerate(moves):
            buttons.append(_move_button(i, f"{verb}: {name_of(move.get('disease'))}"))
    else:
        title = "Ваш ход."
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


def dice(log: list[str]) -> str:
    """The latest power roll as dice faces (animated by CSS when it changes)."""
    for line in reversed(log[-12:]):
        match = DICE.search(line)
        if match:
            rolled = match.group(1).strip().split(" ")[0]  # "5+6+6" (a bonus follows a space)
            faces = [int(x) for x in re.findall(r"\d+", rolled) if 1 <= int(x) <= 6][:12]
            shown = "".join(f'<span class="die">{FACES[f - 1]}</span>' for f in faces)
            return f'<div id="dice" class="dice" data-roll="{escape(line)}">{shown}</div>'
    return '<div id="dice" class="dice"></div>'


def board(view: dict[str, Any], me: int | None, moves: list[Action], selected: list[int]) -> str:
    """The whole table for one seat."""
    names = [s["name"] for s in view["seats"]]
    mode = "Турнир" if view["mode"] == "tournament" else "До двух побед"
    head = (
        f'<div class="rumble-head"><b>{mode}</b> · схватка {view["fight"]}'
        f" · раунд {view['round']} · колода {view['deck']} · сброс {view['discard']}</div>"
    )
    # Opponents round the table (clockwise from this seat), this seat last, by its hand.
    seats = view["seats"]
    mine = [s for s in seats if s["seat"] == me]
    others = sorted(
        (s for s in seats if s["seat"] != me),
        key=lambda s: (s["seat"] - (me or 0)) % max(1, len(seats)),
    )
    wizards = "".join(wizard(seat, me, view) for seat in others + mine)
    sealing = bool(moves) and view["waiting"].get("phase") == "assembly"
    waiting = [names[s] for s in view["waiting"].get("seats", []) if s < len(names)]
    wait_line = f'<p class="wait">Ждём: {escape(", ".join(waiting))}</p>' if waiting else ""
    log_items = "".join(f"<li>{escape(line)}</li>" for line in view["log"][-150:])
    summary = results(view) if view["waiting"]["kind"] == "terminal" else fight_banner(view)
    return (
        f'<section class="rumble" data-fight="{view["fight"]}">{head}'
        f'<div class="wizards">{wizards}</div>{dice(view["log"])}{wait_line}{summary}'
        f'<div class="dock">{building(view, selected) if sealing else ""}'
        f"{prompt(view, moves, selected, names)}"
        f"{hand(view, selected, sealing) if me is not None else ''}</div>"
        f'<ol id="game-log" class="game-log" aria-live="polite">{log_items}</ol></section>'
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
        f'<div id="summary" class="summary"><h3>Итоги: победа — {winners or "никто"}</h3>'
        f"<table><thead><tr><th>Маг</th><th>⚔ убийства</th><th>★ выживания</th>"
        f"<th>всего</th></tr></thead><tbody>{rows}</tbody></table></div>"
    )


def fight_banner(view: dict[str, Any]) -> str:
    """Right after a fight ends (until the next round is under way): its result and the medals."""
    recent = view["log"][-12:]
    ended = [line for line in recent if line.startswith("Схватка окончена")]
    if not ended or any(line.startswith("Раунд 2") for line in recent):
        return ""
    medals = "; ".join(f"{s['name']}: ⚔ {s['kills']} ★ {s['survivals']}" for s in view["seats"])
    return (
        f'<div id="fight-summary" class="summary"><b>{escape(ended[-1])}</b>'
        f"<p>Медали: {escape(medals)}</p></div>"
    )


def detail(card_id: str) -> str:
    """The detail pane: a card's picture, name and full text."""
    return (
        f'<img src="{art(card_id)}" alt=""><div><b>{escape(name_of(card_id))}</b>'
        f"<p>{escape(text_of(card_id))}</p></div>"
        f'<button type="button" data-action="close-detail" aria-label="Закрыть">×</button>'
    )
