"""Life and death: healing, hits with the cloak and the creature's absorb, disease tokens,
«Гепатит Ы», «Нежданчик» and death with its medals, Palace and ghost card."""

from __future__ import annotations

from engine.core.model import Action, IllegalAction

from .base import MAX_LIFE, Base, Src
from .runner import Ask, Ctx, G


class Life(Base):
    """Everything that changes a wizard's life, diseases or existence."""

    def heal(self, g: G, seat: int, amount: int) -> None:
        if not g["alive"][seat]:
            return
        before = g["life"][seat]
        g["life"][seat] = min(MAX_LIFE, before + amount)
        gained = g["life"][seat] - before
        self.log(g, "heal", seat=seat, gained=gained)

    def hurt(self, g: G, ctx: Ctx, src: Src, target: int, amount: int) -> Ask[None]:
        """A hit on ``target``: the cloak, then the creature's absorb question, then life."""
        if not g["alive"][target]:
            return
        enemy = src.via != "disease" and src.seat is not None and src.seat != target
        cloak = self.cloak(g, target) if enemy else 0
        if cloak and amount > 0:
            amount = max(0, amount - cloak)
            self.log(g, "cloak", seat=target, amount=amount)
        if amount <= 0:
            self.log(g, "zero_hit", seat=target)
            return
        if enemy and g["creatures"][target]:
            options: list[Action] = [{"type": "absorb", "seat": target, "creature": None}]
            options += [
                {"type": "absorb", "seat": target, "creature": cr["slot"]}
                for cr in g["creatures"][target]
            ]
            need = {
                "kind": "move",
                "seats": [target],
                "phase": "absorb",
                "options": options,
                "hit": amount,
                "from": src.seat,
            }
            answer = yield from ctx.ask(need)
            if answer["creature"] is not None:
                creature = next(
                    c for c in g["creatures"][target] if c["slot"] == answer["creature"]
                )
                self.own_seat_list(g, "creatures", target).remove(creature)
                g["discard"].append(creature["slot"])
                self.log(g, "sacrifice", seat=target, card=creature["card"], amount=amount)
                return
        g["life"][target] -= amount
        by = None if src.seat == target else src.seat
        self.log(g, "hurt", seat=target, amount=amount, by=by, life=max(g["life"][target], 0))
        if g["life"][target] <= 0:
            yield from self.die(g, ctx, target, src.seat if enemy else None)

    def lose_disease(self, g: G, seat: int, token: str) -> None:
        self.own_seat_list(g, "diseases", seat).remove(token)
        bag = self.own_list(g, "bag")
        bag.append(token)
        bag.sort()

    def infect(self, g: G, ctx: Ctx, src: Src, target: int) -> Ask[None]:
        """A blind draw from the disease bag for ``target`` (the Palace protects from others)."""
        if not g["alive"][target]:
            return
        if g["palace"] == target and src.seat != target:
            self.log(g, "guard_infect", seat=target)
            return
        token = yield from self.blind_pick(g, ctx, "bag", None, "disease")
        if token is None:
            self.log(g, "bag_empty")
            return
        kind = self.disease_kind(token)
        self.log(g, "catch", seat=target, disease=token)
        if kind.get("special") == "trindecit":
            bag = self.own_list(g, "bag")
            bag.append(token)
            bag.sort()
            yield from self.hurt(g, ctx, Src(target, "disease"), target, 2)
            return
        self.own_seat_list(g, "diseases", target).append(token)
        yield from self.after_infection(g, ctx, target, token)

    def after_infection(self, g: G, ctx: Ctx, seat: int, token: str) -> Ask[None]:
        if self.disease_kind(token).get("special") == "hepatitis":
            yield from self.hepatitis(g, ctx, seat)

    def closed_indices(self, g: G, seat: int) -> list[int]:
        """Indices of the seat's sealed cards that are still closed (not dropped, not shown)."""
        spell = g["spell"][seat]
        if spell is None or spell.get("opened") or spell.get("forfeit"):
            return []
        return [
            i
            for i in range(spell["count"])
            if str(i) not in spell["dropped"] and str(i) not in spell["revealed"]
        ]

    def hepatitis(self, g: G, ctx: Ctx, seat: int) -> Ask[None]:
        """«Гепатит Ы»: the owner secretly removes one card from a still-closed spell."""
        spell = g["spell"][seat]
        if spell is None or spell.get("opened") or spell.get("hep_done"):
            return
        closed = self.closed_indices(g, seat)
        size = spell["count"] - len(spell["dropped"])
        if size < 2 or not closed:
            return
        answer = yield from ctx.ask(
            {"kind": "move", "seats": [seat], "phase": "drop", "closed": closed}
        )
        if answer.get("type") == "skip":
            self.own_spell(g, seat)["hep_done"] = True
            self.forfeit(g, seat)
            return
        index, slot = answer.get("index"), answer.get("slot")
        if answer.get("type") != "drop" or index not in closed or slot not in g["hand"][seat]:
            raise IllegalAction("гепатит: нужно убрать одну закрытую карту заклинания")
        if slot in spell["dropped"].values():
            raise IllegalAction("эта карта уже убрана")
        g["hand"][seat].remove(slot)
        g["discard"].append(slot)
        mine = self.own_spell(g, seat)
        mine["dropped"][str(index)] = slot
        mine["hep_done"] = True
        self.log(g, "hepatitis", seat=seat)

    def try_surprise(self, g: G, ctx: Ctx, seat: int) -> Ask[bool]:
        """«Нежданчик» on a prepared, not yet resolved card cancels the death."""
        found = False
        cast = g["cast"]
        if cast is not None and cast["seat"] == seat:
            for c in cast["cards"]:
                if not c["done"] and self.spell(c["card"]).get("surprise") and not c.get("spent"):
                    c["spent"] = True
                    found = True
                    break
        spell = g["spell"][seat]
        if not found and spell is not None and not spell.get("opened"):
            for key, entry in spell["revealed"].items():
                if self.spell(entry["card"]).get("surprise") and not entry.get("spent"):
                    self.own_spell(g, seat)["revealed"][key]["spent"] = True
                    found = True
                    break
        if not found and self.closed_indices(g, seat):
            answer = yield from ctx.ask({"kind": "move", "seats": [seat], "phase": "surprise"})
            found = self.reveal_surprise(g, seat, answer)
        if not found:
            return False
        count = len(g["diseases"][seat])
        self.log(g, "surprise", seat=seat)
        if count == 0:
            self.log(g, "surprise_none")
            return False
        for token in list(g["diseases"][seat]):
            self.lose_disease(g, seat, token)
        g["life"][seat] = count
        self.log(g, "surprise_saves", seat=seat, count=count)
        return True

    def forfeit(self, g: G, seat: int) -> None:
        """An absent player's sealed spell is lost: it is never cast, its cards stay in hand."""
        spell = g["spell"][seat]
        if spell is not None and not spell.get("forfeit"):
            self.own_spell(g, seat)["forfeit"] = True
            self.log(g, "forfeit", seat=seat)

    def reveal_surprise(self, g: G, seat: int, answer: Action) -> bool:
        if answer.get("type") == "skip":
            return False
        if answer.get("type") != "surprise" or not isinstance(answer.get("open"), list):
            raise IllegalAction("ожидался ответ про Нежданчик")
        if not answer["open"]:
            return False
        if len(answer["open"]) != 1:
            raise IllegalAction("раскрыть можно одну карту")
        entry = answer["open"][0]
        index, slot, card_id = entry.get("index"), entry.get("slot"), entry.get("card")
        if index not in self.closed_indices(g, seat) or slot not in g["hand"][seat]:
            raise IllegalAction("такой закрытой карты нет")
        if card_id not in self.cat.spells or not self.spell(card_id).get("surprise"):
            raise IllegalAction("это не Нежданчик")
        self.own_known(g)[str(slot)] = card_id
        self.own_spell(g, seat)["revealed"][str(index)] = {
            "slot": slot,
            "card": card_id,
            "as": self.spell(card_id)["slot"],
            "spent": True,
        }
        return True

    def die(self, g: G, ctx: Ctx, seat: int, killer: int | None) -> Ask[None]:
        """Death: medals, the Palace, everything lost but eternal things, a ghost card to come."""
        if (yield from self.try_surprise(g, ctx, seat)):
            return
        g["alive"][seat] = False
        g["life"][seat] = 0
        self.log(g, "dies", seat=seat)
        if killer is not None and killer != seat:
            self.own_list(g, "kills")[killer] += 1
            self.log(g, "kill_medal", seat=killer)
        if g["palace"] == seat:
            g["palace"] = killer
            g["palace_ghost"] = killer is not None and not g["alive"][killer]
            if killer is None:
                self.log(g, "palace_back")
            else:
                self.log(g, "palace_taken", seat=killer)
        g["discard"].extend(g["hand"][seat])
        g["hand"][seat] = []
        g["spell"][seat] = None
        cast = g["cast"]
        if cast is not None and cast["seat"] == seat:
            g["discard"].extend(c["slot"] for c in cast["cards"])
            g["cast"] = None
        g["discard"].extend(c["slot"] for c in g["creatures"][seat])
        g["creatures"][seat] = []
        keep = [t for t in g["treasures"][seat] if self.cat.treasures[t].get("eternal")]
        self.own_list(g, "t_discard").extend(t for t in g["treasures"][seat] if t not in keep)
        g["treasures"][seat] = keep
        for token in list(g["diseases"][seat]):
            if not self.disease_kind(token).get("eternal"):
                self.lose_disease(g, seat, token)
        self.own_list(g, "dead_order").append(seat)
        self.own_list(g, "pending_ghosts").append(seat)
        living = self.living(g)
        if len(living) == 1:
            g["last_standing"] = living[0]
