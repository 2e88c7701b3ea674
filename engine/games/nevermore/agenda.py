"""«Невермор» flow, part 1: the agenda and the generic needs (choices, chances, reveals,
simultaneous calls) every task asks through; the runner step ``task`` and the check between
tasks ``after``."""

from __future__ import annotations

from typing import Any, cast

from engine.core.model import Action, IllegalAction
from engine.core.runner import Ask, Ctx
from engine.core.runner import Need as RunnerNeed
from engine.core.view_schema import Pick

from .cards import SUITS, TOKENS, Catalog
from .magic import Magic
from .scoring import (
    check_win,
)
from .state import Need, Task
from .table import (
    G,
    pile_of,
)

SUIT_WORDS = {
    "attack": "Атака",
    "healing": "Лечение",
    "radiance": "Сияние",
    "victory": "Победа",
    "raven": "Ворон",
}


CHOICES: dict[str, Pick] = {
    "attack": "seat",  # or "all" (an attack of 4 or more)
    "betrayed_attack": "seat",
    "blooding": "seat",
    "steal": "seat",
    "add_raven": "seat",
    "acquire": "seat",
    "nightmare": "seat",
    "spite": "seat",
    "discard_pick": "card",
    "summon": "card",
    "tax": "card",
    "brilliance": "card",  # or None: keep the hand
    "foretell": "suit",
    "peck": "flag",
    "scrye": "price",
}
"""Every public choice a task asks (its ``what``) and what its options pick; ``ask`` refuses a
choice not declared here, and the view tells the page (``view_schema.Prompt.picks``)."""


def opt(seat: int, pick: Any) -> Action:
    """A public choice offered to ``seat``."""
    return {"type": "choose", "seat": seat, "pick": pick}


class Agenda:
    """The agenda of one game and the needs its tasks ask through (``magic``: the Light and
    Shadow cards, whose handlers the needs may name too)."""

    cat: Catalog
    magic: Magic

    # ----- the agenda ------------------------------------------------------------------------

    @staticmethod
    def push(g: G, *tasks: Task) -> None:
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

    def task(self, g: G, ctx: Ctx, task: Task) -> Ask[None]:
        """One task and every input it needs (``t_<k>`` sets ``g["need"]``, the answer goes on in
        the handler the need names); a runner step."""
        self.handler("t_", task["k"])(g, task)
        while (need := g["need"]) is not None:
            action = yield from ctx.ask(cast(RunnerNeed, need))  # the runner's generic need
            self.answer(g, action)

    def handler(self, prefix: str, what: str) -> Any:
        """The method ``prefix + what`` of the flow, or else the magic cards' step of that name."""
        found = getattr(self, prefix + what, None)
        return found if found is not None else self.magic.step(prefix + what)

    def answer(self, g: G, action: Action) -> None:
        """Apply one input (checked by the runner against its need) to the pending need."""
        need = g["need"]
        if need is None:
            raise KeyError("no input is awaited")
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
        if what not in CHOICES:
            raise KeyError(f"choice {what!r} is not declared in agenda.CHOICES")
        g["need"] = {
            "kind": "move",
            "phase": "choose",
            "seats": [seat],
            "what": what,
            "ctx": ctx,
            "options": [opt(seat, p) for p in options],
            "private": private,
        }

    def i_choose(self, g: G, need: Need, seat: int, action: Action) -> None:
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

    def got(self, g: G, need: Need, seat: int, data: Any) -> None:
        need["got"][str(seat)] = data
        need["seats"].remove(seat)
        if not need["seats"]:
            g["need"] = None
            getattr(self, "done_" + need["phase"])(g, need["got"], need["ctx"])
