"""The round of «Невермор» as an agenda of tasks: set-up, deal, draft, resolution, end of round.

``g["agenda"]`` is a list of tasks (dicts with ``"k"``), run one by one as steps of the shared
runner (``engine.core.runner``; ``Flow.task``). A task that needs an input describes it in
``g["need"]`` (``kind``: move / simultaneous / chance / reveal / reshuffle, ``phase``,
``seats``...); the runner checks the input against it and ``Flow.answer`` goes on in the handler
the need names; between tasks ``Flow.after`` ends a won game and starts the next round. Card
effects live in ``magic.py``, majorities and damage in ``scoring.py``.

Re-shuffles: before every round after the first, the whole main deck is gathered (``t_new_deck``:
a RESHUFFLE of all 60, unseen cards staying unseen); a task that draws from a pile that is too
short first tops it up with the pile's discards the same way
(``restock_first``, ``t_restock``). The table's ``{"type": "reshuffled"}`` answer makes the game
forget the identities of those slots; they go back into the pile's draw order, ascending.
"""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, IllegalAction
from engine.core.runner import Ask, Ctx

from .cards import SUITS, TOKENS, Catalog
from .scoring import (
    check_win,
    damage,
    finish,
    gain_health,
    gain_vp,
    majority,
    to_human,
)
from .table import (
    ZONES,
    G,
    card,
    discards,
    draw,
    fresh_effects,
    fresh_round,
    humans,
    log,
    name,
    pile_of,
    pile_slots,
    priority,
)

SUIT_WORDS = {
    "attack": "Атака",
    "healing": "Лечение",
    "radiance": "Сияние",
    "victory": "Победа",
    "raven": "Ворон",
}


def opt(seat: int, pick: Any) -> Action:
    """A public choice offered to ``seat``."""
    return {"type": "choose", "seat": seat, "pick": pick}


class Flow:
    """Runs the agenda of one game; ``magic`` resolves the Light and Shadow cards."""

    def __init__(self, cat: Catalog) -> None:
        from .magic import Magic

        self.cat = cat
        self.magic = Magic(self)

    # ----- the agenda ------------------------------------------------------------------------

    @staticmethod
    def push(g: G, *tasks: dict[str, Any]) -> None:
        """Run these tasks next, in this order."""
        g["agenda"][0:0] = list(tasks)

    def after(self, g: G) -> None:
        """Between tasks: a won game ends (the agenda is dropped); an empty agenda starts the
        next round."""
        check_win(g)
        if g["over"]:
            g["agenda"] = []
        elif not g["agenda"]:
            g["agenda"].append({"k": "round"})

    def task(self, g: G, ctx: Ctx, task: dict[str, Any]) -> Ask[None]:
        """One task and every input it needs (``t_<k>`` sets ``g["need"]``, the answer goes on in
        the handler the need names); a runner step."""
        self.handler("t_", task["k"])(g, task)
        while g["need"] is not None:
            action = yield from ctx.ask(g["need"])
            self.answer(g, action)

    def handler(self, prefix: str, what: str) -> Any:
        """The method ``prefix + what`` of the flow, or else of the magic cards."""
        found = getattr(self, prefix + what, None)
        return found if found is not None else getattr(self.magic, prefix + what)

    def answer(self, g: G, action: Action) -> None:
        """Apply one input (checked by the runner against its need) to the pending need."""
        need = g["need"]
        kind = need["kind"]
        typ = action.get("type")
        if kind == "chance":
            value = action.get("value")
            if typ != "chance" or not isinstance(value, int) or isinstance(value, bool):
                raise IllegalAction("ожидается случайное число")
            if not 0 <= value < need["range"]:
                raise IllegalAction("случайное число вне диапазона")
            g["need"] = None
            self.handler("c_", need["what"])(g, need["ctx"], value)
        elif kind == "reveal":
            cards = action.get("cards")
            want = {str(s) for s in need["slots"]}
            if typ != "reveal" or not isinstance(cards, dict):
                raise IllegalAction("ожидается раскрытие карт")
            cards = {str(k): v for k, v in cards.items()}
            if set(cards) != want:
                raise IllegalAction("раскрыты не те карты")
            for slot, cid in cards.items():
                self.check_card(g, int(slot), cid)
                g["known"][slot] = cid
            g["need"] = None
            self.handler("r_", need["what"])(g, need["ctx"])
        elif kind == "reshuffle":
            slots = action.get("slots")
            if typ != "reshuffled" or slots != sorted(need["slots"]):
                raise IllegalAction("ожидается перемешивание колоды")
            for slot in slots:
                g["known"].pop(str(slot), None)
            g["need"] = None
            self.handler("s_", need["what"])(g, need["ctx"])
        else:
            seat = action.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in need["seats"]:
                raise IllegalAction(f"место {seat} сейчас не ходит")
            getattr(self, "i_" + need["phase"])(g, need, seat, action)

    def check_card(self, g: G, slot: int, cid: object) -> None:
        pile = pile_of(g, slot)
        if pile == "tokens":
            if cid not in TOKENS:
                raise IllegalAction(f"жетон {cid!r} не из жетонов Раскрытия")
            return
        ok = cid in SUITS if pile == "main" else cid in self.cat.magic
        if not ok or (pile != "main" and self.cat.magic[str(cid)]["deck"] != pile):
            raise IllegalAction(f"карта {cid!r} не из колоды слота {slot}")

    # ----- generic needs ---------------------------------------------------------------------

    def ask(
        self,
        g: G,
        seat: int,
        what: str,
        options: list[Any],
        ctx: dict[str, Any],
        private: str = "",
    ) -> None:
        """A public choice among ``options`` (picks); continues in ``a_<what>``.

        ``private`` names a filter the seat's own knowledge applies to the options it is offered
        (e.g. ``"raven"``: only its raven cards), which the engine cannot check before a reveal.
        """
        g["need"] = {
            "kind": "move",
            "phase": "choose",
            "seats": [seat],
            "what": what,
            "ctx": ctx,
            "options": [opt(seat, p) for p in options],
            "private": private,
        }

    def i_choose(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        pick = action.get("pick")
        if opt(seat, pick) not in need["options"]:
            raise IllegalAction("такого выбора нет")
        g["need"] = None
        self.handler("a_", need["what"])(g, need["ctx"], seat, pick)

    def chance(self, g: G, what: str, size: int, ctx: dict[str, Any]) -> None:
        g["need"] = {
            "kind": "chance",
            "phase": what,
            "seats": [],
            "range": size,
            "what": what,
            "ctx": ctx,
        }

    def reveal(self, g: G, slots: list[int], what: str, ctx: dict[str, Any]) -> None:
        g["need"] = {
            "kind": "reveal",
            "phase": what,
            "seats": [],
            "slots": slots,
            "what": what,
            "ctx": ctx,
            "deck": pile_of(g, slots[0]),
        }

    def reshuffle(self, g: G, pile: str, slots: list[int], what: str, ctx: dict[str, Any]) -> None:
        """Ask the table to re-shuffle ``slots`` of ``pile`` (all public); continues in
        ``s_<what>``."""
        g["need"] = {
            "kind": "reshuffle",
            "phase": what,
            "seats": [],
            "slots": sorted(slots),
            "what": what,
            "ctx": ctx,
            "deck": pile,
        }

    def shuffle_back(self, g: G, pile: str, slots: list[int], what: str) -> None:
        """Re-shuffle the slots, shown or not (the table keeps unseen cards unseen);
        ``s_<what>`` puts them back into the pile."""
        ordered = sorted(slots)
        self.reshuffle(g, pile, ordered, what, {"pile": pile, "slots": ordered, "what": what})

    def restock_first(self, g: G, task: dict[str, Any], pile: str, count: int) -> bool:
        """True (and a restock queued before ``task`` runs again) when ``count`` draws would run
        ``pile`` dry while its discards could make a new deck (seed: «Если в какой-либо колоде
        закончились карты, перемешайте все сброшенные карты»)."""
        if count <= len(g["piles"][pile]["draw"]) or not discards(g, pile):
            return False
        self.push(g, {"k": "restock", "pile": pile}, task)
        return True

    def t_restock(self, g: G, task: dict[str, Any]) -> None:
        pile = task["pile"]
        slots = discards(g, pile)
        if slots:
            self.shuffle_back(g, pile, slots, "restock")

    def s_restock(self, g: G, ctx: dict[str, Any]) -> None:
        self.back_in_pile(g, ctx["pile"], ctx["slots"])
        word = {"main": "основной колоды", "light": "магии Света", "shadow": "магии Тени"}
        log(g, f"Колода {word[ctx['pile']]} кончилась: сброс перемешан и добавлен в колоду.")

    def t_new_deck(self, g: G, task: dict[str, Any]) -> None:
        """The main deck gathered and re-shuffled for the next round (every card of it is out of
        play between rounds: undrawn, or in the discard)."""
        out = set(discards(g, "main")) | set(g["piles"]["main"]["draw"])
        slots = [s for s in pile_slots(g, "main") if s in out]
        if slots:
            self.shuffle_back(g, "main", slots, "new_deck")

    def t_new_tokens(self, g: G, task: dict[str, Any]) -> None:
        self.shuffle_back(g, "tokens", pile_slots(g, "tokens"), "new_tokens")

    def s_new_tokens(self, g: G, ctx: dict[str, Any]) -> None:
        self.back_in_pile(g, "tokens", ctx["slots"])
        log(g, "Жетоны Раскрытия перемешаны и выложены рубашкой вверх.")

    def s_new_deck(self, g: G, ctx: dict[str, Any]) -> None:
        self.back_in_pile(g, "main", ctx["slots"])
        log(g, "Основная колода собрана и перемешана.")

    @staticmethod
    def back_in_pile(g: G, pile: str, slots: list[int]) -> None:
        """Re-shuffled slots leave the discard and go under the pile, ascending."""
        gone = set(slots)
        g["discard"] = [s for s in g["discard"] if s not in gone]
        order = g["piles"][pile]["draw"]
        g["piles"][pile]["draw"] = [s for s in order if s not in gone] + sorted(slots)
        g["piles"][pile]["shuffles"] += 1

    def simultaneous(self, g: G, phase: str, seats: list[int], **ctx: Any) -> None:
        if not seats:
            getattr(self, "done_" + phase)(g, {}, ctx)
            return
        g["need"] = {
            "kind": "simultaneous",
            "phase": phase,
            "seats": list(seats),
            "got": {},
            "ctx": ctx,
        }

    def got(self, g: G, need: dict[str, Any], seat: int, data: Any) -> None:
        need["got"][str(seat)] = data
        need["seats"].remove(seat)
        if not need["seats"]:
            g["need"] = None
            getattr(self, "done_" + need["phase"])(g, need["got"], need["ctx"])

    # ----- set-up: the first dealer --------------------------------------------------------

    def t_dealer(self, g: G, task: dict[str, Any]) -> None:
        slot = draw(g, "main")
        if slot is None:
            g["dealer"] = 0
            return
        g["discard"].append(slot)
        self.reveal(g, [slot], "dealer", {"slot": slot})

    def r_dealer(self, g: G, ctx: dict[str, Any]) -> None:
        drawer = g["drawer"]
        cid = card(g, ctx["slot"])
        log(g, f"{name(g, drawer)} тянет карту: {SUIT_WORDS.get(cid or '', cid)}.")
        if cid == "raven":
            g["dealer"] = drawer
            log(g, f"{name(g, drawer)} — первый раздающий.")
        else:
            g["drawer"] = (drawer + 1) % g["n"]
            self.push(g, {"k": "dealer"})

    # ----- the round -------------------------------------------------------------------------

    def t_round(self, g: G, task: dict[str, Any]) -> None:
        g["round"] += 1
        if g["max_rounds"] and g["round"] > g["max_rounds"]:
            self.end_by_limit(g)
            return
        r = g["round"]
        arrow = "налево" if g["dir"] == 1 else "направо"
        log(g, f"— Раунд {r}. Раздаёт {name(g, g['dealer'])}, передача {arrow}. —")
        # a scenario may start at a later round with the deck and the token order arranged
        preset = g.pop("preset", None)
        if r == 1:
            g["plan"] = list(g["first_plan"])  # face up in the very first round
        g["pool"] = []
        order = priority(g)
        # Round one deals from the deck the first dealer was found with; later rounds from the
        # whole main deck, gathered and re-shuffled, and the four tokens are laid face down in a
        # secret order before the draft (so «Видение» has an order to look at). A scenario's later
        # round comes with both arranged.
        fresh = r > 1 and not preset
        tasks: list[dict[str, Any]] = [{"k": "new_deck"}] if fresh else []
        tasks += [
            {"k": "deal"},
            *([{"k": "new_tokens"}] if fresh else []),
            {"k": "window", "w": "before_draft", "order": order, "i": 0},
            {"k": "draft"},
            {"k": "window", "w": "before_resolution", "order": order, "i": 0},
            {"k": "seal"},
            {"k": "flock"},
        ]
        for _ in TOKENS:
            tasks += [
                {"k": "window", "w": "before_token", "order": order, "i": 0},
                {"k": "token"},
                {"k": "show"},
                {"k": "score"},
            ]
        tasks += [
            {"k": "rest"},
            {"k": "skulk"},
            {"k": "window", "w": "end_resolution", "order": order, "i": 0},
            {"k": "end_round"},
        ]
        self.push(g, *tasks)

    def t_deal(self, g: G, task: dict[str, Any]) -> None:
        """Five cards each, one at a time in priority order."""
        if self.restock_first(g, task, "main", 5 * g["n"]):
            return
        for _ in range(5):
            for seat in priority(g):
                slot = draw(g, "main")
                if slot is not None:
                    g["hand"][seat].append(slot)

    def end_by_limit(self, g: G) -> None:
        """A round limit (bots, tests; off at the table) is not a way to win: nobody wins."""
        finish(g, None, f"Предел раундов ({g['max_rounds']}) исчерпан: победителя нет.")

    # ----- windows for magic cards -----------------------------------------------------------

    def t_window(self, g: G, task: dict[str, Any]) -> None:
        order, i = task["order"], task["i"]
        while i < len(order) and not g["magic"][order[i]]:
            i += 1
        if i >= len(order):
            return
        task["i"] = i
        self.push(g, task)
        g["need"] = {"kind": "move", "phase": "window", "seats": [order[i]], "w": task["w"]}

    def i_window(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        task = g["agenda"][0]
        typ = action.get("type")
        if typ == "pass":
            task["i"] += 1
            g["need"] = None
            return
        slot = action.get("slot")
        if typ != "play" or not isinstance(slot, int) or slot not in g["magic"][seat]:
            raise IllegalAction("сыграть можно только свою карту магии или спасовать")
        g["magic"][seat].remove(slot)
        g["placed"][seat].append(slot)
        g["need"] = None
        self.push(g, {"k": "played", "seat": seat, "slot": slot, "w": need["w"]})
        if card(g, slot) is None:
            self.reveal(g, [slot], "played", {})

    def r_played(self, g: G, ctx: dict[str, Any]) -> None:
        """The played card is now public; its task runs next."""

    def t_played(self, g: G, task: dict[str, Any]) -> None:
        seat, slot, w = task["seat"], task["slot"], task["w"]
        cid = card(g, slot) or ""
        raven = bool(g["raven"][seat])
        log(g, f"{name(g, seat)} разыгрывает «{self.cat.name(cid)}».")
        if not self.magic.playable(g, seat, cid, w):
            log(g, f"«{self.cat.name(cid)}» нельзя разыграть сейчас — карта сброшена без эффекта.")
            return
        effect = {"k": "effect", "seat": seat, "slot": slot, "card": cid, "raven": raven, "w": w}
        others = [s for s in priority(g) if s != seat and g["raven"][s] and g["magic"][s]]
        if self.cat.magic[cid]["deck"] == "light" and others and w != "light_played":
            g["cancel"] = False
            self.push(g, {"k": "window", "w": "light_played", "order": others, "i": 0}, effect)
        else:
            self.push(g, effect)

    def t_effect(self, g: G, task: dict[str, Any]) -> None:
        if self.cat.magic[task["card"]]["deck"] == "light" and g.pop("cancel", False):
            log(g, f"Эффект «{self.cat.name(task['card'])}» отменён.")
            return
        self.magic.resolve(g, task)

    # ----- the draft -------------------------------------------------------------------------

    def t_draft(self, g: G, task: dict[str, Any]) -> None:
        fx = g["fx"]
        if fx["freeze"]:
            log(g, "Заморозка: фаза Драфта пропущена.")
            return
        counts = [2] if fx["gambit"] else [3, 2, 1]
        order = priority(g)
        tasks: list[dict[str, Any]] = []
        for k in counts:
            tasks += [
                {"k": "window", "w": "draft_pass", "order": order, "i": 0},
                {"k": "pass", "count": k},
            ]
        self.push(g, *tasks)

    def t_pass(self, g: G, task: dict[str, Any]) -> None:
        k = task["count"]
        seats = [s for s in range(g["n"]) if s not in g["through"] and g["hand"][s]]
        self.simultaneous(g, "pass_commit", seats, count=k)

    def i_pass_commit(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        commit = action.get("commit")
        k = min(need["ctx"]["count"], len(g["hand"][seat]))
        if action.get("type") != "pass" or not isinstance(commit, list):
            raise IllegalAction("передача — обязательство из выбранных карт")
        if commit and len(commit) != k:
            raise IllegalAction(f"нужно передать {k} карт(ы)")
        self.got(g, need, seat, len(commit))

    def done_pass_commit(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        seats = sorted(int(s) for s in got)
        g["pass_sealed"] = {str(s): got[str(s)] for s in seats}
        passes: dict[str, list[int]] = {}
        for s in seats:
            if not got[str(s)]:
                passes[str(s)] = g["hand"][s][: min(ctx["count"], len(g["hand"][s]))]
        order = [s for s in seats if got[str(s)]]
        self.next_pass_open(g, {"count": ctx["count"], "order": order, "got": passes, "part": []})

    def next_pass_open(self, g: G, ctx: dict[str, Any]) -> None:
        """The sealed passes are opened one card per move, seat after seat (every pass is already
        committed, so the order gives nobody anything); then the cards change hands."""
        for seat in ctx["order"]:
            if str(seat) not in ctx["got"]:
                g["need"] = {"kind": "move", "phase": "pass_open", "seats": [seat], "ctx": ctx}
                return
        self.done_pass_open(g, ctx["got"], ctx)

    def i_pass_open(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        """One passed card a move: ``{"index": i, "slot": s}`` opens commitment ``i`` by its slot
        alone (the fair-play table checks it without showing the card, so only the receiver
        learns it); ``"open": []`` gives up, and the first cards of the hand are passed."""
        ctx = need["ctx"]
        hand = g["hand"][seat]
        k = min(ctx["count"], len(hand))
        part: list[int] = ctx["part"]
        if action.get("type") != "pass_open":
            raise IllegalAction("ожидается раскрытие передачи")
        if "index" in action:
            slot = action.get("slot")
            if action.get("index") != len(part) or len(part) >= k:
                raise IllegalAction("раскрытие не по порядку обязательства")
            if not isinstance(slot, int) or slot not in hand or slot in part:
                raise IllegalAction("передавать можно только свои разные карты")
            part.append(slot)
        elif action.get("open") == []:
            part += [s for s in hand if s not in part][: k - len(part)]
        else:
            raise IllegalAction("передаваемые карты раскрываются по одной")
        if len(part) == k:
            ctx["got"][str(seat)] = list(part)
            ctx["part"] = []
        g["need"] = None
        self.next_pass_open(g, ctx)

    def done_pass_open(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        n, d = g["n"], g["dir"]
        through = g["through"]
        moves = []
        for giver_key, slots in got.items():
            giver = int(giver_key)
            to = (giver + d) % n
            while to in through and to != giver:
                to = (to + d) % n
            moves.append((giver, to, slots))
        for giver, _, slots in moves:
            for slot in slots:
                g["hand"][giver].remove(slot)
        for _, to, slots in moves:
            g["hand"][to].extend(slots)
        log(g, f"Передача по {ctx['count']} карт(ы).")
        g["through"] = []

    # ----- resolution: the seal, the flock, the tokens ----------------------------------------

    def t_seal(self, g: G, task: dict[str, Any]) -> None:
        seats = [s for s in range(g["n"]) if g["hand"][s]]
        for s in range(g["n"]):
            g["items"][s] = sorted(g["hand"][s])
        self.simultaneous(g, "seal", seats)

    def seal_size(self, g: G, seat: int) -> int:
        size = len(g["items"][seat])
        if g["scry"] == seat:
            size += len(TOKENS)
        return size

    def i_seal(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        commit = action.get("commit")
        if action.get("type") != "seal" or not isinstance(commit, list):
            raise IllegalAction("ожидается обязательство о картах")
        if commit and len(commit) != self.seal_size(g, seat):
            raise IllegalAction("обязательство на каждую карту руки")
        self.got(g, need, seat, bool(commit))

    def done_seal(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        for s in range(g["n"]):
            g["sealed"][s] = bool(got.get(str(s)))
            if not g["sealed"][s]:
                g["discard"].extend(g["hand"][s])
                g["hand"][s] = []
                g["items"][s] = []
                if g["scry"] == s:
                    g["scry"] = None
        log(g, "Все игроки готовы к Раскрытию.")

    def open_entries(
        self, g: G, seat: int, action: Action, typ: str
    ) -> list[tuple[int, int, str, bool]]:
        """Checked ``(index, slot, card, doom)`` openings of the seat's sealed cards."""
        opened = action.get("open")
        if action.get("type") != typ or not isinstance(opened, list):
            raise IllegalAction(f"ожидается ход {typ} с раскрытием")
        items = g["items"][seat]
        out: list[tuple[int, int, str, bool]] = []
        seen: set[int] = set()
        for entry in opened:
            if not isinstance(entry, dict):
                raise IllegalAction("раскрытие — объект")
            i, slot, cid, doom = (entry.get(k) for k in ("index", "slot", "card", "doom"))
            if not isinstance(i, int) or not 0 <= i < len(items) or i in g["opened"][seat]:
                raise IllegalAction("раскрытие неизвестного или уже раскрытого обязательства")
            if i in seen or slot != items[i] or cid not in SUITS or not isinstance(doom, bool):
                raise IllegalAction("раскрытие не совпадает с картой руки")
            seen.add(i)
            out.append((i, slot, str(cid), doom))
        return out

    def record_open(self, g: G, seat: int, i: int, slot: int, cid: str) -> None:
        g["known"][str(slot)] = cid
        g["opened"][seat].append(i)
        g["hand"][seat].remove(slot)
        g["collected"][seat].append(cid)

    def t_flock(self, g: G, task: dict[str, Any]) -> None:
        seats = [
            s
            for s in range(g["n"])
            if g["sealed"][s] and len(g["items"][s]) + self.extra_count(g, s, "raven") >= 5
        ]
        if "raven" in g["fx"]["banned"]:
            seats = []
        self.simultaneous(g, "flock", seats)

    def i_flock(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        entries = self.open_entries(g, seat, action, "flock")
        if entries and (
            any(c != "raven" for _, _, c, _ in entries)
            or len(entries) + self.extra_count(g, seat, "raven") < 5
        ):
            raise IllegalAction("стая — это пять воронов")
        for i, slot, cid, _ in entries:
            self.record_open(g, seat, i, slot, cid)
            g["shown"][seat].append(slot)
        self.got(g, need, seat, bool(entries))

    def done_flock(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        flocks = [s for s in priority(g) if got.get(str(s))]
        if not flocks:
            return
        hits = []
        for s in flocks:
            log(g, f"{name(g, s)}: стая воронов! Раунд заканчивается.")
            g["collected"][s] += ["raven"] * (5 - len(g["collected"][s]))
            hits.append(self.harm([(o, 1) for o in priority(g) if o != s], s, "стая воронов"))
            gain_vp(g, s, 1, "стая воронов")
        while g["agenda"] and g["agenda"][0]["k"] != "end_round":
            g["agenda"].pop(0)
        shadow = [{"k": "draw_magic", "seat": s, "pile": "shadow", "count": 1} for s in flocks]
        self.push(g, *hits, *shadow)

    def t_draw_magic(self, g: G, task: dict[str, Any]) -> None:
        if self.restock_first(g, task, task["pile"], task["count"]):
            return
        self.magic.draw_magic(g, task["seat"], task["pile"], task["count"])

    def extra_count(self, g: G, seat: int, suit: str) -> int:
        return sum(1 for slot in g["extra"][seat] if self.cat.suit_of(card(g, slot) or "") == suit)

    def t_token(self, g: G, task: dict[str, Any]) -> None:
        if g["scry"] is not None:
            seat = g["scry"]
            g["need"] = {"kind": "move", "phase": "scry_token", "seats": [seat]}
        elif g["plan"]:
            self.set_token(g, g["plan"].pop(0))
        else:
            slot = draw(g, "tokens")
            if slot is None:  # cannot happen: four tokens for four calls
                raise IllegalAction("жетоны Раскрытия кончились")
            g["discard"].append(slot)
            self.reveal(g, [slot], "token", {"slot": slot})

    def r_token(self, g: G, ctx: dict[str, Any]) -> None:
        suit = card(g, ctx["slot"]) or ""
        if suit in g["revealed"]:  # already called by a «Видение» order that was given up
            self.push(g, {"k": "token"})
            return
        self.set_token(g, suit)

    def i_scry_token(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        opened = action.get("open")
        index = len(g["items"][seat]) + len(g["revealed"])
        if action.get("type") == "token" and opened == []:
            log(g, f"{name(g, seat)} не раскрыл жетон — порядок решает случай.")
            g["scry"] = None
            g["need"] = None
            self.push(g, {"k": "token"})
            return
        if (
            action.get("type") != "token"
            or not isinstance(opened, list)
            or len(opened) != 1
            or not isinstance(opened[0], dict)
            or opened[0].get("index") != index
            or opened[0].get("token") not in TOKENS
            or opened[0].get("token") in g["revealed"]
        ):
            raise IllegalAction("раскройте следующий жетон своего порядка")
        g["need"] = None
        self.set_token(g, opened[0]["token"])

    def set_token(self, g: G, suit: str) -> None:
        if suit in g["pool"]:
            g["pool"].remove(suit)
        if suit in g["plan"]:
            g["plan"].remove(suit)
        g["revealed"].append(suit)
        g["betrayed"] = bool(g["fx"]["betray"])
        g["fx"]["betray"] = None
        extra = " (Предательство: эффект обращён)" if g["betrayed"] else ""
        log(g, f"Раздающий называет масть: {SUIT_WORDS[suit]}{extra}.")

    def t_show(self, g: G, task: dict[str, Any]) -> None:
        suit = g["revealed"][-1]
        seats = [s for s in range(g["n"]) if len(g["opened"][s]) < len(g["items"][s])]
        self.simultaneous(g, "show", seats, suit=suit)

    def ravens_needed(self, g: G, seat: int, doomed: list[str]) -> int:
        if "raven" in g["fx"]["banned"] or seat in g["fx"]["darkening"]:
            return 0
        if g["fx"]["punish"]:
            return 1 if doomed else 0
        return len(doomed)

    def i_show(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        suit = need["ctx"]["suit"]
        entries = self.open_entries(g, seat, action, "show")
        cards = [e for e in entries if e[2] != "raven"]
        ravens = [e for e in entries if e[2] == "raven"]
        if any(c != suit for _, _, c, _ in cards) or any(d for *_, d in ravens):
            raise IllegalAction(f"раскрываются только карты масти «{SUIT_WORDS[suit]}» и вороны")
        doomed = [c for _, _, c, d in cards if d]
        if doomed and ("raven" in g["fx"]["banned"] or seat in g["fx"]["darkening"]):
            raise IllegalAction("вороны не уничтожают карты в этом раунде")
        need_r = self.ravens_needed(g, seat, doomed)
        spare = self.extra_count(g, seat, "raven") - g["extra_used"][seat]
        if len(ravens) > need_r or need_r - len(ravens) > spare:
            raise IllegalAction("число воронов не совпадает с уничтоженными картами")
        g["extra_used"][seat] += need_r - len(ravens)
        banned = g["fx"]["banned"]
        for i, slot, cid, doom in entries:
            self.record_open(g, seat, i, slot, cid)
            counted = cid != "raven" and not doom and cid not in banned
            g["shown" if counted else "killed"][seat].append(slot)
            g["doom"][seat].append(doom)
        self.got(g, need, seat, len(entries))

    def done_show(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        suit = ctx["suit"]
        counts = self.counts(g, suit)
        shown = ", ".join(f"{name(g, s)} {c}" for s, c in enumerate(counts) if c)
        log(g, f"{SUIT_WORDS[suit]}: {shown or 'ни у кого нет карт'}.")

    def counts(self, g: G, suit: str) -> list[int]:
        """Cards of ``suit`` each seat has face up now (extras included, banned suits zero)."""
        if suit in g["fx"]["banned"]:
            return [0] * g["n"]
        out = []
        for s in range(g["n"]):
            shown = sum(1 for slot in g["shown"][s] if card(g, slot) == suit)
            out.append(shown + self.extra_count(g, s, suit))
        return out

    # ----- scoring a suit --------------------------------------------------------------------

    def t_score(self, g: G, task: dict[str, Any]) -> None:
        suit = g["revealed"][-1]
        if not task.get("stolen"):
            task["stolen"] = True
            self.push(g, task)
            steal = {"attack": "enrage", "healing": "syphon", "victory": "dominate"}.get(suit)
            holders = [s for s in priority(g) if [s, steal] in g["fx"]["passive"]]
            for s in reversed(holders):
                self.push(g, {"k": "steal", "seat": s, "suit": suit})
            return
        self.magic.check_foretell(g, suit)
        counts = self.counts(g, suit)
        leaders, top, second = majority(counts)
        amount = top - second
        if not leaders:
            return
        winners = [s for s in priority(g) if s in leaders]
        names = ", ".join(name(g, s) for s in winners)
        log(g, f"Большинство ({SUIT_WORDS[suit]}): {names} — {top} против {second}, сила {amount}.")
        if suit == "radiance":
            self.score_radiance(g, winners, amount, counts)
            return
        # tied leaders score at the same moment: no win is checked until all of them have scored
        # (attackers act one after another in priority order, as the seed says)
        hold = suit != "attack"
        if hold:
            g["hold_win"] = True
        tasks = [
            {
                "k": "strike",
                "seat": s,
                "suit": suit,
                "amount": amount,
                "second": second,
                "counts": counts,
            }
            for s in winners
        ]
        self.push(g, *tasks, *([{"k": "scored"}] if hold else []))

    def t_scored(self, g: G, task: dict[str, Any]) -> None:
        g.pop("hold_win", None)

    def t_steal(self, g: G, task: dict[str, Any]) -> None:
        seat, suit = task["seat"], task["suit"]
        victims = [
            s
            for s, c in enumerate(self.counts(g, suit))
            if s != seat and c and self.shown_of(g, s, suit)
        ]
        if victims:
            self.ask(g, seat, "steal", victims, {"suit": suit})

    def shown_of(self, g: G, seat: int, suit: str) -> list[int]:
        return [slot for slot in g["shown"][seat] if card(g, slot) == suit]

    def a_steal(self, g: G, ctx: dict[str, Any], seat: int, victim: int) -> None:
        slot = self.shown_of(g, victim, ctx["suit"])[0]
        g["shown"][victim].remove(slot)
        g["shown"][seat].append(slot)
        log(g, f"{name(g, seat)} забирает карту «{SUIT_WORDS[ctx['suit']]}» у {name(g, victim)}.")

    def t_strike(self, g: G, task: dict[str, Any]) -> None:
        seat, suit, amount = task["seat"], task["suit"], task["amount"]
        if g["raven"][seat]:
            self.peck_offer(g, task)
            return
        if amount <= 0:
            return
        betrayed = g.get("betrayed")
        if suit == "attack":
            targets = [s for s in humans(g) if s != seat]
            if betrayed:
                if targets:
                    self.ask(g, seat, "betrayed_attack", targets, {"amount": amount})
                return
            if g["fx"]["no_attack"]:
                log(g, "Атаковать в этом раунде нельзя.")
                return
            picks: list[Any] = list(targets)
            if amount >= 4:
                picks.append("all")
            if picks:
                self.ask(g, seat, "attack", picks, {"amount": amount})
        elif suit == "healing":
            if betrayed:
                self.push(g, self.harm([(seat, amount)], None, "Лечение обращено"))
                return
            at_max = g["hp"][seat] >= g["max_hp"]
            gain_health(g, seat, amount)
            if at_max and amount >= 3:
                gain_vp(g, seat, 1, "лечение на 3 при полном здоровье")
            if [seat, "drain"] in g["fx"]["passive"]:
                self.magic.drain(g, seat, amount)
        elif suit == "victory":
            gain_vp(g, seat, -amount if betrayed else amount, "Победа")

    def a_betrayed_attack(self, g: G, ctx: dict[str, Any], seat: int, target: int) -> None:
        log(g, f"{name(g, seat)} (Атака обращена) лечит {name(g, target)}.")
        gain_health(g, target, ctx["amount"])

    def a_attack(self, g: G, ctx: dict[str, Any], seat: int, pick: Any) -> None:
        amount = ctx["amount"]
        if pick == "all":
            targets = list(humans(g))
            log(g, f"{name(g, seat)} бьёт всех на 1 (включая себя) ради 2 ПО.")
            amount = 1
        else:
            targets = [pick]
            log(g, f"{name(g, seat)} атакует {name(g, pick)} на {amount}.")
        self.open_hit(g, seat, targets, [amount] * len(targets), "атака", attack=True)
        g["attack"]["all"] = pick == "all"
        order = priority(g)
        self.push(
            g,
            {"k": "window", "w": "attacked", "order": order, "i": 0},
            {"k": "hit", "i": 0},
        )

    def open_hit(
        self,
        g: G,
        source: int | None,
        targets: list[int],
        amounts: list[int],
        why: str,
        attack: bool = False,
    ) -> None:
        """Start a damage event (``g["attack"]``; an event already open is kept underneath)."""
        if g.get("attack") is not None:
            g.setdefault("outer_hits", []).append(g["attack"])
        g["attack"] = {
            "attacker": source,
            "targets": targets,
            "amounts": amounts,
            "amount": amounts[0] if amounts else 0,
            "why": why,
            "is_attack": attack,
            "all": False,
            "bolster": [],
            "retribution": [],
            "blooding": [],
        }

    def harm(self, hits: list[tuple[int, int]], source: int | None, why: str) -> dict[str, Any]:
        """The task of a damage event that is not an attack: opponents' damage opens a window
        for «Кровотечение» (everyone but the dealer of the damage), and any damage that would turn
        a player into a raven a window for «Исцеление» (``t_hit``)."""
        return {"k": "harm", "hits": [[t, a] for t, a in hits], "source": source, "why": why}

    def t_harm(self, g: G, task: dict[str, Any]) -> None:
        hits = [(t, a) for t, a in task["hits"] if a > 0 and not g["raven"][t]]
        if not hits:
            return
        source = task["source"]
        self.open_hit(g, source, [t for t, _ in hits], [a for _, a in hits], task["why"])
        tasks: list[dict[str, Any]] = []
        if source is not None:
            order = [s for s in priority(g) if s != source]
            tasks.append({"k": "window", "w": "damaged", "order": order, "i": 0})
        self.push(g, *tasks, {"k": "hit", "i": 0})

    def t_hit(self, g: G, task: dict[str, Any]) -> None:
        att = g["attack"]
        i = task["i"]
        if i >= len(att["targets"]):
            self.finish_attack(g)
            return
        target = att["targets"][i]
        if target in att["bolster"]:
            log(g, f"{name(g, target)}: Усиление — вместо урона лечение.")
            gain_health(g, target, att["amount"])
            self.push(g, {"k": "hit", "i": i + 1})
            return
        extra = 0 if att["all"] else sum(1 for _, t in att["blooding"] if t == target)
        total = att["amounts"][i] + extra
        after = g["hp"][target] - total
        self.push(g, {"k": "hit_apply", "i": i, "total": total, "extra": extra})
        if after <= 0 and not g["raven"][target] and g["magic"][target] and not g["fx"]["no_heal"]:
            g["rescue_hp"] = after
            self.push(g, {"k": "window", "w": "rescue", "order": [target], "i": 0})
            g["rescue"] = 0

    def t_hit_apply(self, g: G, task: dict[str, Any]) -> None:
        att = g["attack"]
        i = task["i"]
        target = att["targets"][i]
        healed = g.pop("rescue", 0)
        g.pop("rescue_hp", None)
        if healed:
            g["hp"][target] += healed
        total, extra = task["total"], task["extra"]
        source = att["attacker"]
        if extra and g["hp"][target] - att["amounts"][i] > 0 >= g["hp"][target] - total:
            source = next(s for s, t in att["blooding"] if t == target)  # its point was lethal
        damage(g, target, total, source, att["why"])
        self.push(g, {"k": "hit", "i": i + 1})

    def finish_attack(self, g: G) -> None:
        att = g.pop("attack")
        outer = g.get("outer_hits")
        if outer:
            g["attack"] = outer.pop()
        if not outer:
            g.pop("outer_hits", None)
        if not att["is_attack"]:
            return
        self.push(
            g, *[self.harm([(att["attacker"], 2)], s, "Возмездие") for s in att["retribution"]]
        )
        if att["all"]:
            gain_vp(g, att["attacker"], 2, "удар по всем")

    def peck_offer(self, g: G, task: dict[str, Any]) -> None:
        seat, suit, second = task["seat"], task["suit"], task["second"]
        if suit not in ("attack", "healing", "victory") or (
            suit == "attack" and g["fx"]["no_attack"]
        ):
            return
        counts = task["counts"]
        if any(counts[s] for s in range(g["n"]) if s != seat):
            # someone else has the suit: only the second place is pecked (none if the others
            # tie the raven for the most)
            targets = [s for s in humans(g) if s != seat and second > 0 and counts[s] == second]
        else:
            targets = [s for s in humans(g) if s != seat]
        if targets:
            self.ask(g, seat, "peck", [True, False], {"targets": targets})

    def a_peck(self, g: G, ctx: dict[str, Any], seat: int, pick: Any) -> None:
        if not pick:
            log(g, f"{name(g, seat)} (ворон) не клюёт.")
            return
        targets = [s for s in ctx["targets"] if not g["raven"][s]]
        log(g, f"{name(g, seat)} (ворон) клюёт: {', '.join(name(g, s) for s in targets)}.")
        if targets:
            self.push(
                g,
                self.harm([(s, 1) for s in targets], seat, "клевок"),
                {"k": "peck_end", "seat": seat},
            )

    def t_peck_end(self, g: G, task: dict[str, Any]) -> None:
        seat = task["seat"]
        if not humans(g):
            to_human(g, seat)
            finish(g, seat, f"Клевок {name(g, seat)} обратил всех людей в воронов — он побеждает!")

    def score_radiance(self, g: G, winners: list[int], amount: int, counts: list[int]) -> None:
        betrayed = g.get("betrayed")
        draws: list[dict[str, Any]] = []
        for s in winners:  # in priority order: nearest the dealer draws first, as in every tie
            if betrayed:
                self.magic.discard_light(g, s, amount)
            elif amount > 0:
                draws.append({"k": "light_gain", "seat": s, "amount": amount, "radiance": True})
        self.push(g, *draws)
        for s in priority(g):
            if counts[s] >= 5 and not betrayed:
                log(g, f"{name(g, s)}: пять Сияний!")
                gain_health(g, s, 2)
                gain_vp(g, s, 1, "пять Сияний")

    def t_light_gain(self, g: G, task: dict[str, Any]) -> None:
        if self.restock_first(g, task, "light", task["amount"]):
            return
        self.magic.light_gain(g, task["seat"], task["amount"], bool(task.get("radiance")))

    # ----- the skulking ravens and the end of the round --------------------------------------

    def t_rest(self, g: G, task: dict[str, Any]) -> None:
        seats = [s for s in range(g["n"]) if len(g["opened"][s]) < len(g["items"][s])]
        self.simultaneous(g, "rest", seats)

    def i_rest(self, g: G, need: dict[str, Any], seat: int, action: Action) -> None:
        entries = self.open_entries(g, seat, action, "rest")
        for i, slot, cid, doom in entries:
            self.record_open(g, seat, i, slot, cid)
            g["doom"][seat].append(doom)
            if cid == "raven" and not doom:
                g["skulk"][seat] += 1
            elif cid != "raven":
                log(g, f"Нарушение: у {name(g, seat)} осталась карта «{SUIT_WORDS[cid]}».")
            g["killed"][seat].append(slot)
        for slot in list(g["hand"][seat]):
            g["hand"][seat].remove(slot)
            g["discard"].append(slot)
        self.got(g, need, seat, len(entries))

    def done_rest(self, g: G, got: dict[str, Any], ctx: dict[str, Any]) -> None:
        """Skulking ravens: ravens left over once every other card was destroyed."""

    def t_skulk(self, g: G, task: dict[str, Any]) -> None:
        fx = g["fx"]
        counts = [0] * g["n"]
        if "raven" not in fx["banned"]:
            for s in range(g["n"]):
                spare = self.extra_count(g, s, "raven") - g["extra_used"][s]
                counts[s] = g["skulk"][s] + max(0, spare)
        if not any(counts):
            return
        log(
            g,
            "Скрытые вороны: " + ", ".join(f"{name(g, s)} {c}" for s, c in enumerate(counts) if c),
        )
        tasks = [
            self.harm([(s, counts[s]) for s in priority(g) if counts[s]], None, "Кара")
            for _holder, cid in fx["passive"]
            if cid == "penance"
        ]
        leaders, top, second = majority(counts)
        if fx["punish_raven"]:
            log(g, "Скрытые вороны не приносят карт магии Тени.")
        else:
            tasks += [
                {"k": "draw_magic", "seat": s, "pile": "shadow", "count": top - second}
                for s in priority(g)
                if s in leaders
            ]
        self.push(g, *tasks)

    def t_end_round(self, g: G, task: dict[str, Any]) -> None:
        for s in priority(g):
            added = [self.cat.suit_of(card(g, x) or "") for x in g["extra"][s]]
            hand = g["collected"][s] + [a for a in added if a]  # magic suit cards count too
            if g["raven"][s] and returns_to_human(hand):
                to_human(g, s)
        for s in range(g["n"]):
            for zone in ZONES:
                if zone == "magic":
                    continue
                g["discard"].extend(g[zone][s])
                g[zone][s] = []
            g["peek"][s] = []
        g["fx"] = fresh_effects()
        g.update(fresh_round(g["n"]))
        g["betrayed"] = False
        g["dealer"] = (g["dealer"] + 1) % g["n"]
        g["dir"] = -g["dir"]


def returns_to_human(collected: list[str]) -> bool:
    """Five cards of one suit, or one card of every suit, in the hand of the round."""
    return any(collected.count(s) >= 5 for s in SUITS) or all(s in collected for s in SUITS)
