"""The flow of a match: fights, rounds, assembly, the queue, turns, ghosts and medals."""

from __future__ import annotations

from typing import Any

from engine.core.model import IllegalAction

from .base import HAND_SIZE, MAX_LIFE, START_LIFE, Src
from .cards import SLOTS, WILD
from .effects import Effects
from .runner import Ask, Ctx, G
from .text import SLOT_GENITIVE, cards_count, cards_words, spell_name

Step = dict[str, Any]
MAX_INITIATIVE = 99


def push(g: G, steps: list[Step]) -> None:
    """Put ``steps`` at the front of the agenda, in the given order."""
    g["agenda"][0:0] = steps


class Flow(Effects):
    """Every step of the game; ``steps()`` maps step names to these methods."""

    # Steps the runner may run without a copy of the data (see ``runner.advance``): they never
    # ask for an input, or (``window``, ``open``) ask before they change anything.
    IN_PLACE = frozenset(
        ("turn", "card_loop", "creatures", "round_start", "fight_end", "window", "open")
    )

    def steps(self) -> dict[str, Any]:
        return {name[3:]: getattr(self, name) for name in dir(self) if name.startswith("st_")}

    def after(self, g: G) -> None:
        """After each finished step: ghosts draw at once; the fight ends when ≤ 1 is alive."""
        if g["pending_ghosts"]:
            push(g, [{"k": "ghost", "seat": s} for s in g["pending_ghosts"]])
            g["pending_ghosts"] = []
        if not g["in_fight"] or g["alive"].count(True) > 1:
            return
        front = g["agenda"][0]["k"] if g["agenda"] else ""
        if front not in ("ghost", "fight_end"):
            g["agenda"] = [{"k": "fight_end"}]

    # ----- fights and rounds ---------------------------------------------------------------

    def st_fight_start(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        g["fight"] += 1
        g["round"] = 0
        g["in_fight"] = True
        self.log(g, f"Схватка {g['fight']}!")
        for s in range(g["n"]):
            g["alive"][s] = True
            g["life"][s] = START_LIFE
            g["ghost_discard"].extend(g["ghost_active"][s])
            g["ghost_active"][s] = []
        if not g["palace_ghost"]:
            g["palace"] = None
        elif g["palace"] is not None:
            self.log(g, f"Хоромы, захваченные призраком, остаются: {self.who(g, g['palace'])}.")
        g["palace_ghost"] = False
        for s in range(g["n"]):
            for gid in g["ghost_next"][s]:
                card = self.cat.ghosts[gid]
                if card.get("life"):
                    g["life"][s] = min(MAX_LIFE, g["life"][s] + card["life"])
                    self.log(g, f"{self.who(g, s)}: «{card['name']}» — жизней {g['life'][s]}.")
                if card.get("treasure"):
                    yield from self.gain_treasure(g, ctx, s)
                if card.get("sign"):
                    g["ghost_active"][s].append(gid)
                    self.log(g, f"{self.who(g, s)}: призрачный знак «{card['name']}».")
                else:
                    g["ghost_discard"].append(gid)
            g["ghost_next"][s] = []
        g["dead_order"] = []
        g["last_standing"] = None
        push(g, [{"k": "round_start"}])

    def st_round_start(self, g: G, ctx: Ctx, step: Step) -> None:
        g["round"] += 1
        g["spell"] = [None] * g["n"]
        g["queue"] = []  # this round's queue is ordered after the assembly; no old places shown
        self.log(g, f"Раунд {g['round']}.")
        ghosts = [{"k": "ghost", "seat": s} for s in g["dead_order"] if not g["alive"][s]]
        push(g, [*ghosts, {"k": "draw"}, {"k": "assembly"}, {"k": "hepatitis"}, {"k": "order"}])

    def st_ghost(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat = step["seat"]
        gid = yield from self.blind_pick(g, ctx, "ghost_pile", "ghost_discard", "ghost")
        if gid is None:
            return
        card = self.cat.ghosts[gid]
        self.log(g, f"{self.who(g, seat)} (призрак) тянет карту «{card['name']}».")
        if card["when"] == "now":
            yield from self.run_ops(g, ctx, Src(seat, "ghost"), card["effect"], [])
            g["ghost_discard"].append(gid)
        else:
            g["ghost_next"][seat].append(gid)

    def st_draw(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        for s in self.living(g):
            while len(g["hand"][s]) < HAND_SIZE:
                slot = yield from self.draw_slot(g, ctx)
                if slot is None:
                    break
                g["hand"][s].append(slot)
        self.log(g, "Маги добирают руку до 8 карт.")

    def st_assembly(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        pending = [s for s in self.living(g) if g["hand"][s]]
        for s in self.living(g):
            if not g["hand"][s]:
                self.log(g, f"{self.who(g, s)}: пустая рука — колдовство пропущено.")
        while pending:
            action = yield from ctx.ask(
                {"kind": "simultaneous", "seats": list(pending), "phase": "assembly"}
            )
            seat = action["seat"]
            if action.get("type") == "skip":
                pending.remove(seat)
                self.log(g, f"{self.who(g, seat)} не запечатал заклинание — пропускает колдовство.")
                continue
            commit = action.get("commit")
            if action.get("type") != "seal" or not isinstance(commit, list):
                raise IllegalAction("ожидалась печать заклинания (seal с commit)")
            count = len(commit) - 1
            if not 1 <= count <= min(3, len(g["hand"][seat])):
                raise IllegalAction("запечатать можно 1–3 карты из руки и обязательство инициативы")
            if not all(isinstance(d, str) for d in commit):
                raise IllegalAction("обязательства — строки")
            g["spell"][seat] = {
                "count": count,
                "commit": commit[:count],
                "init_commit": commit[count],
                "init": None,
                "dropped": {},
                "revealed": {},
                "opened": False,
            }
            pending.remove(seat)
            self.log(g, f"{self.who(g, seat)} запечатывает {cards_words(count)}.")

    def st_hepatitis(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        for s in self.living(g):
            if g["spell"][s] is not None and self.has_special(g, s, "hepatitis"):
                yield from self.hepatitis(g, ctx, s)

    def st_order(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        living = self.living(g)
        count = {s: g["spell"][s]["count"] if g["spell"][s] else 0 for s in living}
        groups: dict[int, list[int]] = {}
        for s in living:
            groups.setdefault(count[s], []).append(s)
        need_init = [s for c, seats in groups.items() if c > 0 and len(seats) > 1 for s in seats]
        pending = list(need_init)
        while pending:
            action = yield from ctx.ask(
                {"kind": "simultaneous", "seats": list(pending), "phase": "initiative"}
            )
            seat = action["seat"]
            if action.get("type") == "skip":
                self.forfeit(g, seat)
                g["spell"][seat]["init"] = -1
                pending.remove(seat)
                continue
            entries = action.get("open")
            if action.get("type") != "initiative" or not isinstance(entries, list):
                raise IllegalAction("ожидалось открытие инициативы")
            if len(entries) != 1 or entries[0].get("index") != count[seat]:
                raise IllegalAction("инициатива открывается одной записью с индексом после карт")
            value = entries[0].get("initiative")
            if not isinstance(value, int) or not 0 <= value <= MAX_INITIATIVE:
                raise IllegalAction("инициатива — целое 0..99")
            g["spell"][seat]["init"] = value
            pending.remove(seat)
        queue: list[int] = []
        for c in sorted(groups):
            seats = groups[c]
            if c == 0:
                queue += seats
                continue
            by_init: dict[int, list[int]] = {}
            for s in seats:
                by_init.setdefault(g["spell"][s]["init"] or 0, []).append(s)
            for init in sorted(by_init, reverse=True):
                tied = by_init[init]
                queue += tied if len(tied) == 1 else (yield from self.rolloff(g, ctx, tied))
        g["queue"] = queue
        described = ", ".join(f"{self.who(g, s)} ({cards_count(count[s])})" for s in queue)
        self.log(g, f"Очередь: {described}.")
        push(g, [*({"k": "turn", "seat": s} for s in queue), {"k": "round_start"}])

    def rolloff(self, g: G, ctx: Ctx, seats: list[int]) -> Ask[list[int]]:
        """Roll-off among tied seats: higher d6 first, ties roll again."""
        rolls: dict[int, int] = {}
        for s in seats:
            rolls[s] = yield from ctx.die("rolloff")
        shown = ", ".join(f"{self.who(g, s)} — {rolls[s]}" for s in seats)
        self.log(g, f"Жребий за место в очереди: {shown}.")
        out: list[int] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in seats if rolls[s] == value]
            out += tied if len(tied) == 1 else (yield from self.rolloff(g, ctx, tied))
        return out

    # ----- a wizard's turn -----------------------------------------------------------------

    def st_turn(self, g: G, ctx: Ctx, step: Step) -> None:
        seat = step["seat"]
        if not g["alive"][seat]:
            return
        g["turn"] = seat
        g["used"] = []
        self.log(g, f"Ход: {self.who(g, seat)}.")
        tail = [
            {"k": "creatures", "seat": seat},
            {"k": "window", "seat": seat},
            {"k": "end_turn", "seat": seat},
        ]
        spell = g["spell"][seat]
        if spell is None or spell.get("forfeit"):
            push(g, tail)
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
        spell = g["spell"][seat]
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
        for e in entries:
            g["hand"][seat].remove(e["slot"])
            g["known"][str(e["slot"])] = e["card"]
        order = {slot: i for i, slot in enumerate(SLOTS)}
        entries.sort(key=lambda e: order[e["as"]])
        g["cast"] = {
            "seat": seat,
            "init": init,
            "cards": [
                {"slot": e["slot"], "card": e["card"], "as": e["as"], "done": False}
                | ({"spent": True} if e.get("spent") else {})
                for e in entries
            ],
        }
        spell["opened"] = True
        names = ", ".join(self.spell(e["card"])["name"] for e in entries)
        self.log(g, f"{self.who(g, seat)} раскрывает заклинание: {names}; инициатива {init}.")

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
                    word = SLOT_GENITIVE[entry["as"]]
                    why = "колода пуста" if runs_out < 2 else "колода и сброс перебраны"
                    self.log(
                        g, f"{why.capitalize()}, нет ни одного {word}: шальная магия рассеивается."
                    )
                    cast["cards"].remove(entry)
                    g["discard"].append(entry["slot"])
                    break
                card_id = (yield from ctx.reveal([slot], "wild"))[slot]
                self.check_card(card_id)
                g["known"][str(slot)] = card_id
                if card_id == WILD or self.spell(card_id)["slot"] != entry["as"]:
                    g["discard"].append(slot)
                    self.log(g, f"Шальная магия: открыта «{self.card_name(card_id)}» — в сброс.")
                    continue
                g["discard"].append(entry["slot"])
                entry["slot"], entry["card"], entry["wild"] = slot, card_id, True
                self.log(g, f"Шальная магия становится «{self.spell(card_id)['name']}».")
                break
        name = spell_name([(self.spell(e["card"]), e["as"]) for e in cast["cards"]])
        cast["name"] = name
        self.log(g, f"{self.who(g, seat)} творит «{name}».")

    def card_name(self, card_id: str) -> str:
        name: str = self.spell(card_id)["name"]
        return name

    def st_card_loop(self, g: G, ctx: Ctx, step: Step) -> None:
        seat = step["seat"]
        cast = g["cast"]
        tail = [
            {"k": "creatures", "seat": seat},
            {"k": "window", "seat": seat},
            {"k": "end_turn", "seat": seat},
        ]
        if cast is None or not g["alive"][seat]:
            if g["alive"][seat]:
                push(g, tail)
            return
        pending = [c for c in cast["cards"] if not c["done"]]
        if not pending or not self.enemies(g, seat):
            push(g, tail)
            return
        order = {slot: i for i, slot in enumerate(SLOTS)}
        nxt = min(pending, key=lambda c: order[c["as"]])
        push(
            g,
            [
                {"k": "window", "seat": seat},
                {"k": "card", "seat": seat, "slot": nxt["slot"]},
                {"k": "card_loop", "seat": seat},
            ],
        )

    def find_cast_card(self, g: G, seat: int, slot: int) -> dict[str, Any] | None:
        cast = g["cast"]
        if cast is None or cast["seat"] != seat:
            return None
        return next((c for c in cast["cards"] if c["slot"] == slot), None)

    def st_card(self, g: G, ctx: Ctx, step: Step) -> Ask[None]:
        seat, slot = step["seat"], step["slot"]
        entry = self.find_cast_card(g, seat, slot)
        if entry is None or entry["done"] or not g["alive"][seat]:
            return
        card = self.spell(entry["card"])
        self.log(g, f"{self.who(g, seat)}: {card['name']}.")
        src = Src(seat, "spell", card["school"])
        yield from self.run_ops(g, ctx, src, card["effect"], [])
        entry = self.find_cast_card(g, seat, slot)
        if entry is None:
            return
        entry["done"] = True
        if card.get("creature") and src.total >= 5 and g["alive"][seat]:
            entry["stays"] = True
            self.log(g, f"Тварь «{card['name']}» остаётся на столе.")

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
        if creature is None or not g["alive"][seat] or not self.enemies(g, seat):
            return
        card = self.spell(creature["card"])
        self.log(g, f"{self.who(g, seat)}: тварь «{card['name']}» атакует снова.")
        src = Src(seat, "creature", card["school"])
        yield from self.run_ops(g, ctx, src, card["effect"], [])
        if creature in g["creatures"][seat] and src.total < 5:
            g["creatures"][seat].remove(creature)
            g["discard"].append(slot)
            self.log(g, f"Тварь «{card['name']}» уходит в сброс.")

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
        for slot in slots:
            self.check_card(revealed[slot])
            g["known"][str(slot)] = revealed[slot]
            g["hand"][seat].remove(slot)
            g["discard"].append(slot)
        g["used"].append(tid)
        card = self.cat.treasures[tid]
        paid = ", ".join(self.card_name(revealed[s]) for s in slots)
        self.log(g, f"{self.who(g, seat)} применяет «{card['name']}», сбросив: {paid}.")
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
                    g["creatures"][seat].append({"slot": entry["slot"], "card": entry["card"]})
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
                self.log(g, f"{self.who(g, seat)}: конец хода, «{kind['name']}».")
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
            g["survivals"][survivor] += 1
            self.log(g, f"Схватка окончена: медаль выжившего — {self.who(g, survivor)}.")
        g["results"].append(
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
            g["t_discard"].extend(t for t in g["treasures"][s] if t not in keep)
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
            self.log(g, "Партия окончена. Победа: " + ", ".join(self.who(g, s) for s in winners))
        else:
            push(g, [{"k": "fight_start"}])
