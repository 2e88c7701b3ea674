"""The flow of a match: a wizard's turn (opening the spell, wild magic, its cards, creatures,
treasure windows, the end of the turn) and the end of a fight; fights and rounds are in
``rounds.Rounds``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.model import IllegalAction

from .base import Src
from .cards import SLOTS, WILD
from .rounds import MAX_INITIATIVE, Rounds, push
from .runner import Ask, Ctx, G
from .state import CastCard, Step, sealed
from .text import spell_name

__all__ = ["MAX_INITIATIVE", "Flow", "push"]

PLACE_ORDER = {place: i for i, place in enumerate(SLOTS)}
"""Where each place stands in a spell: its cards are cast in this order."""


class Flow(Rounds):
    """Every step of the game; ``steps()`` maps step names to these methods."""

    # Steps the runner may run without a copy of the data (see ``runner.advance``): they never
    # ask for an input, or (``window``, ``open``) ask before they change anything.
    IN_PLACE = frozenset(
        (
            "turn", "card_loop", "creatures", "round_start", "fight_end", "window", "open",
            "hepatitis", "order",
        )
    )  # fmt: skip

    def steps(self) -> dict[str, Any]:
        return {name[3:]: getattr(self, name) for name in dir(self) if name.startswith("st_")}

    def quiet(self) -> dict[str, Callable[[G, Step], bool]]:
        """Steps that change the data before they may ask, each with a test that is true only
        when it will not ask now: the runner then runs it without a copy (``Runner.quiet``)."""
        return {"draw": self.quiet_draw, "wilds": self.quiet_wilds, "end_turn": self.quiet_end_turn}

    def quiet_wilds(self, g: G, step: Step) -> bool:
        """No wild magic in the cast: nothing to search for."""
        cast = g["cast"]
        return cast is None or all(e["card"] != WILD for e in cast["cards"])

    def quiet_end_turn(self, g: G, step: Step) -> bool:
        """No disease and no treasure of the seat acts at the end of its turn."""
        seat = step["seat"]
        if not g["alive"][seat]:
            return True
        diseases = any(self.disease_kind(t).get("end_turn") for t in g["diseases"][seat])
        return not diseases and not any(
            self.cat.treasures[t].get("end_turn") for t in g["treasures"][seat]
        )

    def after(self, g: G) -> None:
        """After each finished step: ghosts draw at once; the fight ends when ≤ 1 is alive."""
        if g["pending_ghosts"]:
            push(g, [{"k": "ghost", "seat": s} for s in g["pending_ghosts"]])
            g["pending_ghosts"] = []
        if not g["in_fight"] or g["alive"].count(True) > 1:
            return
        agenda = g["agenda"]
        if not agenda or agenda[0]["k"] not in ("ghost", "fight_end"):
            g["agenda"] = [{"k": "fight_end"}]

    # ----- a wizard's turn -----------------------------------------------------------------

    def st_turn(self, g: G, ctx: Ctx, step: Step) -> None:
        seat = step["seat"]
        if not g["alive"][seat]:
            return
        g["turn"] = seat
        g["used"] = []
        self.log(g, "turn", seat=seat)
        spell = g["spell"][seat]
        if spell is None or spell.get("forfeit"):
            push(g, self.turn_tail(seat))
        else:
            push(
                g,
                [
                    {"k": "open", "seat": seat},
                    {"k": "wilds", "seat": seat},
                    {"k": "card_loop", "seat": seat},
                ],
            )

    def st_open(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat = step["seat"]
        spell = sealed(g, seat)
        closed = self.closed_indices(g, seat)
        entries: list[dict[str, Any]] = [dict(e) for e in spell["revealed"].values()]
        if closed:
            action = yield from ctx.ask(
                {"kind": "move", "seats": [seat], "phase": "open", "closed": closed}
            )
            if action.get("type") == "skip":
                self.forfeit(g, seat)
                return
            opened = action.get("open")
            if action.get("type") != "open" or not isinstance(opened, list):
                raise IllegalAction("ожидалось раскрытие заклинания")
            if sorted(e.get("index") for e in opened) != closed:
                raise IllegalAction("раскрыть нужно ровно все закрытые карты заклинания")
            entries += [
                {"slot": e.get("slot"), "card": e.get("card"), "as": e.get("as")} for e in opened
            ]
        slots = [e["slot"] for e in entries]
        if len(set(slots)) != len(slots) or any(s not in g["hand"][seat] for s in slots):
            raise IllegalAction("раскрытые карты должны быть разными картами из руки")
        for e in entries:
            if e["card"] not in self.cat.spells:
                raise IllegalAction(f"неизвестная карта {e['card']}")
            if e["card"] != WILD:
                e["as"] = e["as"] or self.spell(e["card"])["slot"]
                if e["as"] != self.spell(e["card"])["slot"]:
                    raise IllegalAction("компонент кладётся только на своё место")
            elif e["as"] not in SLOTS:
                raise IllegalAction("шальной магии нужно место: source, quality или delivery")
        places = [e["as"] for e in entries]
        if len(set(places)) != len(places):
            raise IllegalAction("в заклинании не больше одного компонента каждого типа")
        init = self.initiative_of(entries)
        if spell["init"] is not None and not spell["dropped"] and spell["init"] != init:
            raise IllegalAction("объявленная инициатива не совпадает с приходом")
        known = self.own_known(g)
        for e in entries:
            g["hand"][seat].remove(e["slot"])
            known[str(e["slot"])] = e["card"]
        entries.sort(key=lambda e: PLACE_ORDER[e["as"]])
        cards: list[CastCard] = []
        for e in entries:
            card: CastCard = {"slot": e["slot"], "card": e["card"], "as": e["as"], "done": False}
            if e.get("spent"):
                card["spent"] = True
            cards.append(card)
        g["cast"] = {"seat": seat, "init": init, "cards": cards}
        self.own_spell(g, seat)["opened"] = True
        cards = [e["card"] for e in entries]
        self.log(g, "open", seat=seat, cards=cards, initiative=init)

    def initiative_of(self, entries: list[dict[str, Any]]) -> int:
        """The delivery's initiative; wild magic as delivery or no delivery gives 0."""
        for e in entries:
            if e["as"] == "delivery" and e["card"] != WILD:
                value: int = self.spell(e["card"])["initiative"]
                return value
        return 0

    def st_wilds(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat = step["seat"]
        cast = g["cast"]
        if cast is None:
            return
        for entry in list(cast["cards"]):
            if entry["card"] != WILD:
                continue
            runs_out = 0
            while True:
                # The search takes the discard back at most once: when the deck runs out a
                # second time, every card outside the hands and the table has been seen.
                runs_out += not g["draw"]
                slot = (yield from self.draw_slot(g, ctx)) if runs_out < 2 else None
                if slot is None:
                    self.log(g, "wild_fizzles", slot=entry["as"], spent=runs_out >= 2)
                    cast["cards"].remove(entry)
                    g["discard"].append(entry["slot"])
                    break
                card_id = (yield from ctx.reveal([slot], "wild"))[slot]
                self.check_card(card_id)
                self.own_known(g)[str(slot)] = card_id
                if card_id == WILD or self.spell(card_id)["slot"] != entry["as"]:
                    g["discard"].append(slot)
                    self.log(g, "wild_miss", card=card_id)
                    continue
                g["discard"].append(entry["slot"])
                entry["slot"], entry["card"], entry["wild"] = slot, card_id, True
                self.log(g, "wild_becomes", card=card_id)
                break
        name = spell_name([(self.spell(e["card"]), e["as"]) for e in cast["cards"]])
        cast["name"] = name
        self.log(g, "cast", seat=seat, cards=[[e["card"], e["as"]] for e in cast["cards"]])

    def st_card_loop(self, g: G, ctx: Ctx, step: Step) -> None:
        seat = step["seat"]
        cast = g["cast"]
        if cast is None or not g["alive"][seat]:
            if g["alive"][seat]:
                push(g, self.turn_tail(seat))
            return
        pending = [c for c in cast["cards"] if not c["done"]]
        if not pending or not self.has_enemy(g, seat):
            push(g, self.turn_tail(seat))
            return
        nxt = min(pending, key=lambda c: PLACE_ORDER[c["as"]])
        push(
            g,
            [
                {"k": "window", "seat": seat},
                {"k": "card", "seat": seat, "slot": nxt["slot"]},
                {"k": "card_loop", "seat": seat},
            ],
        )

    @staticmethod
    def turn_tail(seat: int) -> list[Step]:
        """The steps that end a wizard's turn once the spell is done."""
        return [
            {"k": "creatures", "seat": seat},
            {"k": "window", "seat": seat},
            {"k": "end_turn", "seat": seat},
        ]

    def find_cast_card(self, g: G, seat: int, slot: int) -> CastCard | None:
        cast = g["cast"]
        if cast is None or cast["seat"] != seat:
            return None
        for card in cast["cards"]:
            if card["slot"] == slot:
                return card
        return None

    def st_card(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat, slot = step["seat"], step["slot"]
        entry = self.find_cast_card(g, seat, slot)
        if entry is None or entry["done"] or not g["alive"][seat]:
            return
        card = self.spell(entry["card"])
        self.log(g, "card", seat=seat, card=entry["card"])
        src = Src(seat, "spell", card["school"])
        yield from self.run_ops(g, ctx, src, card["effect"], [])
        entry = self.find_cast_card(g, seat, slot)
        if entry is None:
            return
        entry["done"] = True
        if card.get("creature") and src.total >= 5 and g["alive"][seat]:
            entry["stays"] = True
            self.log(g, "creature_stays", card=entry["card"])

    def st_creatures(self, g: G, ctx: Ctx, step: Step) -> None:
        seat = step["seat"]
        if g["alive"][seat]:
            push(
                g,
                [{"k": "creature", "seat": seat, "slot": c["slot"]} for c in g["creatures"][seat]],
            )

    def st_creature(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat, slot = step["seat"], step["slot"]
        creature = next((c for c in g["creatures"][seat] if c["slot"] == slot), None)
        if creature is None or not g["alive"][seat] or not self.has_enemy(g, seat):
            return
        card = self.spell(creature["card"])
        self.log(g, "creature_again", seat=seat, card=creature["card"])
        src = Src(seat, "creature", card["school"])
        yield from self.run_ops(g, ctx, src, card["effect"], [])
        if creature in g["creatures"][seat] and src.total < 5:
            self.own_seat_list(g, "creatures", seat).remove(creature)
            g["discard"].append(slot)
            self.log(g, "creature_gone", card=creature["card"])

    def st_window(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat = step["seat"]
        if not g["alive"][seat]:
            return
        usable = self.usable_treasures(g, seat)
        if not usable:
            return
        action = yield from ctx.ask(
            {"kind": "move", "seats": [seat], "phase": "treasure", "usable": usable}
        )
        if action.get("type") != "treasure":
            raise IllegalAction("ожидалось решение о сокровище")
        tid = action.get("use")
        if tid is None:
            return
        slots = action.get("slots")
        cost = self.cat.treasures[tid]["cost"] if tid in usable else -1
        if (
            not isinstance(slots, list)
            or len(slots) != cost
            or len(set(slots)) != cost
            or any(s not in g["hand"][seat] for s in slots)
        ):
            raise IllegalAction("нужно сбросить с руки столько разных карт, сколько просит предмет")
        revealed = yield from ctx.reveal(sorted(slots), "payment")
        known = self.own_known(g)
        for slot in slots:
            self.check_card(revealed[slot])
            known[str(slot)] = revealed[slot]
            g["hand"][seat].remove(slot)
            g["discard"].append(slot)
        g["used"].append(tid)
        card = self.cat.treasures[tid]
        paid = [revealed[s] for s in slots]
        self.log(g, "use_treasure", seat=seat, treasure=tid, paid=paid)
        yield from self.run_ops(g, ctx, Src(seat, "treasure"), card["effect"], [])
        push(g, [{"k": "window", "seat": seat}])

    def usable_treasures(self, g: G, seat: int) -> list[str]:
        """Active treasures the seat may still use this turn and can pay for: each copy held
        is used at most once a turn (two «Бутыль микстуры» give two uses)."""
        if g["turn"] != seat:
            return []
        out: list[str] = []
        held = g["treasures"][seat]
        for tid in held:
            card = self.cat.treasures[tid]
            if (
                card["kind"] == "active"
                and g["used"].count(tid) < held.count(tid)
                and tid not in out
                and len(g["hand"][seat]) >= card["cost"]
            ):
                out.append(tid)
        return out

    def st_end_turn(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat = step["seat"]
        cast = g["cast"]
        if cast is not None and cast["seat"] == seat:
            for entry in cast["cards"]:
                if entry.get("stays") and g["alive"][seat]:
                    creature = {"slot": entry["slot"], "card": entry["card"]}
                    self.own_seat_list(g, "creatures", seat).append(creature)
                else:
                    g["discard"].append(entry["slot"])
            g["cast"] = None
        g["spell"][seat] = None
        g["turn"] = None
        g["used"] = []
        if not g["alive"][seat]:
            return
        for token in list(g["diseases"][seat]):
            kind = self.disease_kind(token)
            if kind.get("end_turn") and g["alive"][seat] and token in g["diseases"][seat]:
                self.log(g, "disease_turn", seat=seat, disease=token)
                yield from self.run_ops(
                    g, ctx, Src(seat, "disease", kind.get("sign")), kind["end_turn"], []
                )
        for tid in list(g["treasures"][seat]):
            card = self.cat.treasures[tid]
            if card.get("end_turn") and g["alive"][seat]:
                yield from self.run_ops(g, ctx, Src(seat, "treasure"), card["end_turn"], [])

    # ----- end of a fight ------------------------------------------------------------------

    def st_fight_end(self, g: G, ctx: Ctx, step: Step) -> None:
        g["in_fight"] = False
        living = self.living(g)
        survivor = living[0] if len(living) == 1 else g["last_standing"]
        if survivor is None and g["dead_order"]:
            survivor = g["dead_order"][-1]
        if survivor is not None:
            self.own_list(g, "survivals")[survivor] += 1
            self.log(g, "survivor", seat=survivor)
        self.own_list(g, "results").append(
            {
                "fight": g["fight"],
                "survivor": survivor,
                "life": list(g["life"]),
                "alive": list(g["alive"]),
                "death_order": list(g["dead_order"]),
                "kills": list(g["kills"]),
                "survivals": list(g["survivals"]),
                "palace": g["palace"],
            }
        )
        cast = g["cast"]
        if cast is not None:
            g["discard"].extend(c["slot"] for c in cast["cards"])
            g["cast"] = None
        g["spell"] = [None] * g["n"]
        g["turn"] = None
        g["queue"] = []
        for s in range(g["n"]):
            g["discard"].extend(c["slot"] for c in g["creatures"][s])
            g["creatures"][s] = []
            keep = [t for t in g["treasures"][s] if self.cat.treasures[t].get("eternal")]
            self.own_list(g, "t_discard").extend(t for t in g["treasures"][s] if t not in keep)
            g["treasures"][s] = keep
            for token in list(g["diseases"][s]):
                if not self.disease_kind(token).get("eternal"):
                    self.lose_disease(g, s, token)
        medals = [g["kills"][s] + g["survivals"][s] for s in range(g["n"])]
        winners: list[int] = []
        if g["mode"] == "tournament" and g["fight"] >= g["fights"]:
            best = max(medals)
            winners = [s for s in range(g["n"]) if medals[s] == best]
        elif g["mode"] == "two_wins":
            winners = [s for s in range(g["n"]) if g["survivals"][s] >= 2]
        if winners:
            g["winners"] = winners
            g["agenda"] = []
            self.log(g, "game_over", winners=list(winners))
        else:
            push(g, [{"k": "fight_start"}])
