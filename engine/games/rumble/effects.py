"""The effect interpreter: targets, power rolls, damage, creatures' absorb, diseases, death."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from engine.core.model import Action, IllegalAction

from .cards import WILD, Catalog
from .runner import Ctx, G
from .text import SLOT_GENITIVE, damage_words, life_words

MAX_LIFE = 25
START_LIFE = 20
HAND_SIZE = 8
RESHUFFLE_RANGE = 2**31


@dataclass
class Src:
    """Who an effect comes from: a seat (or none for disease text) and through what."""

    seat: int | None
    via: str  # "spell", "creature", "treasure", "ghost" or "disease"
    school: str | None = None
    copy: bool = False
    depth: int = 0
    total: int = 0


def shuffled(items: list[int], seed: int) -> list[int]:
    """A deterministic Fisher–Yates permutation of ``items`` driven by SHA-256 of ``seed``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        digest = hashlib.sha256(f"{seed}:{i}".encode()).digest()
        j = int.from_bytes(digest[:8], "big") % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


class Effects:
    """Effect operations over the game data ``g``; subclassed by the flow of the game."""

    def __init__(self, catalog: Catalog) -> None:
        self.cat = catalog

    # ----- small helpers -------------------------------------------------------------------

    def log(self, g: G, text: str) -> None:
        g["log"].append(text)

    def who(self, g: G, seat: int | None) -> str:
        return "никто" if seat is None else g["names"][seat]

    def spell(self, card_id: str) -> dict[str, Any]:
        return self.cat.spells[card_id]

    def living(self, g: G) -> list[int]:
        return [s for s in range(g["n"]) if g["alive"][s]]

    def enemies(self, g: G, seat: int | None) -> list[int]:
        """Living seats other than ``seat``, starting from its left (seat + 1) around the table."""
        n = g["n"]
        start = 0 if seat is None else seat + 1
        order = [(start + i) % n for i in range(n)]
        return [s for s in order if s != seat and g["alive"][s]]

    def neighbour(self, g: G, seat: int, step: int) -> int | None:
        """Nearest living enemy to the left (step +1) or right (step -1)."""
        n = g["n"]
        for i in range(1, n):
            s = (seat + step * i) % n
            if s != seat and g["alive"][s]:
                return s
        return None

    def disease_kind(self, token: str) -> dict[str, Any]:
        return self.cat.diseases[token.split("#")[0]]

    def has_special(self, g: G, seat: int, special: str) -> bool:
        return any(self.disease_kind(t).get("special") == special for t in g["diseases"][seat])

    def cloak(self, g: G, seat: int) -> int:
        return sum(self.cat.treasures[t].get("cloak", 0) for t in g["treasures"][seat])

    def signs(self, g: G, seat: int, school: str | None) -> int:
        """Signs of ``school``: spell cards, creatures, diseases, ghost signs, sign treasures."""
        if school is None:
            return 0
        count = 0
        seen: set[int] = set()
        cast = g["cast"]
        if cast is not None and cast["seat"] == seat:
            for c in cast["cards"]:
                seen.add(c["slot"])
                count += self.spell(c["card"]).get("school") == school
        for cr in g["creatures"][seat]:
            if cr["slot"] not in seen:
                count += self.spell(cr["card"]).get("school") == school
        count += sum(self.disease_kind(t).get("sign") == school for t in g["diseases"][seat])
        count += sum(self.cat.ghosts[x].get("sign") == school for x in g["ghost_active"][seat])
        count += sum(self.cat.treasures[t].get("sign") == school for t in g["treasures"][seat])
        return count

    def bonus(self, g: G, seat: int) -> int:
        """+1 per «заводила с усилением» in this turn's spell, plus power treasures."""
        total = sum(self.cat.treasures[t].get("power", 0) for t in g["treasures"][seat])
        cast = g["cast"]
        if cast is not None and cast["seat"] == seat:
            total += sum(
                1
                for c in cast["cards"]
                if c["as"] == "source" and self.spell(c["card"]).get("boost")
            )
        return total

    def acting(self, g: G, src: Src) -> bool:
        """Whether the source may still act (a wizard who died mid-spell stops casting)."""
        if src.via in ("spell", "creature", "treasure"):
            return src.seat is not None and g["alive"][src.seat]
        return True

    # ----- piles ---------------------------------------------------------------------------

    def reshuffle(self, g: G, ctx: Ctx) -> None:
        """The discard goes back into the exhausted spell deck in a jointly random order."""
        if g["draw"] or not g["discard"]:
            return
        seed = ctx.chance(RESHUFFLE_RANGE, "reshuffle")
        g["draw"] = shuffled(sorted(g["discard"]), seed)
        for slot in g["discard"]:
            g["known"].pop(str(slot), None)
        g["discard"] = []
        self.log(g, "Колода кончилась: сброс перемешан и стал колодой.")

    def draw_slot(self, g: G, ctx: Ctx) -> int | None:
        """The top slot of the spell deck, reshuffling the discard if the deck is empty."""
        if not g["draw"]:
            self.reshuffle(g, ctx)
        if not g["draw"]:
            return None
        slot: int = g["draw"].pop(0)
        return slot

    def blind_pick(self, g: G, ctx: Ctx, pile: str, refill: str, phase: str) -> str | None:
        """A face-up blind draw: a uniform pick from what remains of ``pile``."""
        if not g[pile] and refill:
            g[pile] = sorted(g[refill])
            g[refill] = []
        if not g[pile]:
            return None
        i = ctx.chance(len(g[pile]), phase)
        picked: str = g[pile].pop(i)
        return picked

    def gain_treasure(self, g: G, ctx: Ctx, seat: int) -> None:
        tid = self.blind_pick(g, ctx, "t_pile", "t_discard", "treasure")
        if tid is None:
            self.log(g, "Сокровищ не осталось.")
            return
        g["treasures"][seat].append(tid)
        self.log(g, f"{self.who(g, seat)} получает сокровище «{self.cat.treasures[tid]['name']}».")

    # ----- targets -------------------------------------------------------------------------

    def pick(self, g: G, ctx: Ctx, seat: int, among: list[int], why: str) -> int:
        options: list[Action] = [{"type": "target", "seat": seat, "target": t} for t in among]
        chosen = ctx.choose(seat, "target", options)
        self.log(g, f"{self.who(g, seat)} выбирает цель ({why}): {self.who(g, chosen['target'])}.")
        target: int = chosen["target"]
        return target

    def targets(self, g: G, ctx: Ctx, src: Src, spec: str, it: list[int]) -> list[int]:
        """Resolve a target spec to seats (choices and dice go through ``ctx``)."""
        if spec == "it":
            return [t for t in it if g["alive"][t]]
        seat = src.seat
        if spec == "self":
            return [seat] if seat is not None and g["alive"][seat] else []
        foes = self.enemies(g, seat)
        if not foes:
            return []
        if (
            spec in ("all_enemies", "all_players")
            and seat is not None
            and self.has_special(g, seat, "warts")
        ):
            return [self.pick(g, ctx, seat, foes, "Ведьмины бородавки")]
        if spec == "all_enemies":
            return foes
        if spec == "all_players":
            return foes + ([seat] if seat is not None and g["alive"][seat] else [])
        if spec in ("left", "right", "neighbours"):
            assert seat is not None
            left = self.neighbour(g, seat, +1)
            right = self.neighbour(g, seat, -1)
            if spec == "left":
                return [left] if left is not None else []
            if spec == "right":
                return [right] if right is not None else []
            return sorted({s for s in (left, right) if s is not None})
        if spec in ("weakest", "strongest"):
            lives = [g["life"][s] for s in foes]
            best = min(lives) if spec == "weakest" else max(lives)
            tied = [s for s in foes if g["life"][s] == best]
            if len(tied) == 1 or seat is None:
                return [tied[0]]
            why = "самый хилый" if spec == "weakest" else "самый живучий"
            return [self.pick(g, ctx, seat, tied, why)]
        if spec == "random":
            return [self.random_enemy(g, ctx, foes)]
        raise IllegalAction(f"неизвестная цель {spec}")

    def random_enemy(self, g: G, ctx: Ctx, foes: list[int]) -> int:
        """A d6 shared equally among living enemies; leftover values are re-rolled."""
        share = 6 // len(foes)
        while True:
            roll = ctx.die("random_target")
            index = (roll - 1) // share
            if index < len(foes):
                self.log(g, f"Бросок на случайную жертву: {roll} — {self.who(g, foes[index])}.")
                return foes[index]
            self.log(g, f"Бросок на случайную жертву: {roll} — перебрасывается.")

    # ----- operations ----------------------------------------------------------------------

    def run_ops(self, g: G, ctx: Ctx, src: Src, ops: list[dict[str, Any]], it: list[int]) -> None:
        for op in ops:
            if not self.acting(g, src):
                return
            getattr(self, "op_" + op["op"])(g, ctx, src, op, it)

    def op_damage(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        for target in self.targets(g, ctx, src, op["target"], it):
            self.hurt(g, ctx, src, target, op["amount"])

    def op_heal(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        if src.seat is not None:
            self.heal(g, src.seat, op["amount"])

    def op_power(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        targets = self.targets(g, ctx, src, op["target"], it)
        seat = src.seat
        dice_n = self.signs(g, seat, src.school) if seat is not None else 0
        bonus = self.bonus(g, seat) if seat is not None else 0
        dice = [ctx.die("power") for _ in range(dice_n)]
        total = sum(dice) + bonus
        src.total = total
        shown = "+".join(str(d) for d in dice) or "0"
        extra = f" +{bonus}" if bonus else ""
        self.log(g, f"{self.who(g, seat)}: могучий бросок {dice_n}d6: {shown}{extra} = {total}.")
        band = 0 if total <= 4 else 1 if total <= 9 else 2
        self.run_ops(g, ctx, src, op["bands"][band], targets)

    def op_infect(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        for target in self.targets(g, ctx, src, op["target"], it):
            self.infect(g, ctx, src, target)

    def op_infect_roll(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        for target in self.targets(g, ctx, src, op["target"], it):
            roll = ctx.die("infect_roll")
            sick = roll <= op["upto"]
            verdict = "заражается" if sick else "обходится"
            self.log(g, f"{self.who(g, target)} бросает на заражение: {roll} — {verdict}.")
            if sick:
                self.infect(g, ctx, src, target)

    def op_cure(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        if src.seat is None:
            return
        for _ in range(op.get("amount", 1)):
            ordinary = [
                t for t in g["diseases"][src.seat] if not self.disease_kind(t).get("eternal")
            ]
            if not ordinary:
                return
            token = ordinary[-1]
            self.lose_disease(g, src.seat, token)
            self.log(g, f"{self.who(g, src.seat)} вылечивает «{self.disease_kind(token)['name']}».")

    def op_transfer(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        seat = src.seat
        if seat is None:
            return
        ordinary = [t for t in g["diseases"][seat] if not self.disease_kind(t).get("eternal")]
        if not ordinary:
            self.log(g, f"{self.who(g, seat)}: передавать нечего.")
            return
        for target in self.targets(g, ctx, src, op["target"], it)[:1]:
            if g["palace"] == target and target != seat:
                self.log(g, f"{self.who(g, target)} под защитой Хоромов: передача не удалась.")
                return
            token = ordinary[-1]
            g["diseases"][seat].remove(token)
            g["diseases"][target].append(token)
            name = self.disease_kind(token)["name"]
            self.log(g, f"{self.who(g, seat)} передаёт «{name}» — {self.who(g, target)}.")
            self.after_infection(g, ctx, target, token)

    def op_treasure(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        if src.seat is None or not g["alive"][src.seat]:
            return
        for _ in range(op.get("count", 1)):
            self.gain_treasure(g, ctx, src.seat)

    def op_palace(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        if src.seat is None:
            return
        g["palace"] = src.seat
        g["palace_ghost"] = not g["alive"][src.seat]
        self.log(g, f"{self.who(g, src.seat)} захватывает Хоромы.")

    def op_add_card(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        cast = g["cast"]
        if cast is None or cast["seat"] != src.seat:
            return
        while True:
            slot = self.draw_slot(g, ctx)
            if slot is None:
                self.log(g, "Колода пуста: компонент не добавлен.")
                return
            card_id = ctx.reveal([slot], "add_card")[slot]
            self.check_card(card_id)
            g["known"][str(slot)] = card_id
            if card_id == WILD:
                g["discard"].append(slot)
                self.log(g, "С колоды открыта шальная магия — в сброс.")
                continue
            card = self.spell(card_id)
            cast["cards"].append({"slot": slot, "card": card_id, "as": card["slot"], "done": False})
            self.log(g, f"В заклинание добавлен компонент «{card['name']}».")
            return

    def op_copy(self, g: G, ctx: Ctx, src: Src, op: dict[str, Any], it: list[int]) -> None:
        cast = g["cast"]
        if cast is None or cast["seat"] != src.seat or src.depth >= 2:
            return
        for c in cast["cards"]:
            if c["as"] == op["slot"]:
                card = self.spell(c["card"])
                self.log(g, f"Копия эффекта {SLOT_GENITIVE[op['slot']]} «{card['name']}».")
                copy_src = Src(src.seat, src.via, card["school"], copy=True, depth=src.depth + 1)
                self.run_ops(g, ctx, copy_src, card["effect"], it)
                return
        self.log(g, f"Копировать нечего: в заклинании нет {SLOT_GENITIVE[op['slot']]}.")

    def check_card(self, card_id: str) -> None:
        if card_id not in self.cat.spells:
            raise IllegalAction(f"неизвестная карта {card_id}")

    # ----- life, damage, death -------------------------------------------------------------

    def heal(self, g: G, seat: int, amount: int) -> None:
        if not g["alive"][seat]:
            return
        before = g["life"][seat]
        g["life"][seat] = min(MAX_LIFE, before + amount)
        gained = g["life"][seat] - before
        self.log(g, f"{self.who(g, seat)} восстанавливает {life_words(gained)}.")

    def hurt(self, g: G, ctx: Ctx, src: Src, target: int, amount: int) -> None:
        """A hit on ``target``: the cloak, then the creature's absorb question, then life."""
        if not g["alive"][target]:
            return
        enemy = src.via != "disease" and src.seat is not None and src.seat != target
        cloak = self.cloak(g, target) if enemy else 0
        if cloak and amount > 0:
            amount = max(0, amount - cloak)
            self.log(g, f"{self.who(g, target)}: Чешуйчатый плащ смягчает удар до {amount}.")
        if amount <= 0:
            self.log(g, f"{self.who(g, target)}: удар в 0 жизней — ничего не происходит.")
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
            answer = ctx.ask(need)
            if answer["creature"] is not None:
                creature = next(
                    c for c in g["creatures"][target] if c["slot"] == answer["creature"]
                )
                g["creatures"][target].remove(creature)
                g["discard"].append(creature["slot"])
                name = self.spell(creature["card"])["name"]
                self.log(
                    g,
                    f"{self.who(g, target)} жертвует тварью «{name}» и поглощает "
                    f"{damage_words(amount)}.",
                )
                return
        g["life"][target] -= amount
        origin = (
            "" if src.seat is None or src.seat == target else f" (бьёт {self.who(g, src.seat)})"
        )
        self.log(
            g,
            f"{self.who(g, target)} получает {damage_words(amount)}{origin}: "
            f"жизней {max(g['life'][target], 0)}.",
        )
        if g["life"][target] <= 0:
            self.die(g, ctx, target, src.seat if enemy else None)

    def lose_disease(self, g: G, seat: int, token: str) -> None:
        g["diseases"][seat].remove(token)
        g["bag"].append(token)
        g["bag"].sort()

    def infect(self, g: G, ctx: Ctx, src: Src, target: int) -> None:
        """A blind draw from the disease bag for ``target`` (the Palace protects from others)."""
        if not g["alive"][target]:
            return
        if g["palace"] == target and src.seat != target:
            self.log(g, f"{self.who(g, target)} под защитой Хоромов: заражение не прошло.")
            return
        token = self.blind_pick(g, ctx, "bag", "", "disease")
        if token is None:
            self.log(g, "Мешок ЗПМП пуст.")
            return
        kind = self.disease_kind(token)
        self.log(g, f"{self.who(g, target)} вытягивает ЗПМП «{kind['name']}».")
        if kind.get("special") == "trindecit":
            g["bag"].append(token)
            g["bag"].sort()
            self.hurt(g, ctx, Src(target, "disease"), target, 2)
            return
        g["diseases"][target].append(token)
        self.after_infection(g, ctx, target, token)

    def after_infection(self, g: G, ctx: Ctx, seat: int, token: str) -> None:
        if self.disease_kind(token).get("special") == "hepatitis":
            self.hepatitis(g, ctx, seat)

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

    def hepatitis(self, g: G, ctx: Ctx, seat: int) -> None:
        """«Гепатит Ы»: the owner secretly removes one card from a still-closed spell."""
        spell = g["spell"][seat]
        if spell is None or spell.get("opened") or spell.get("hep_done"):
            return
        closed = self.closed_indices(g, seat)
        size = spell["count"] - len(spell["dropped"])
        if size < 2 or not closed:
            return
        answer = ctx.ask({"kind": "move", "seats": [seat], "phase": "drop", "closed": closed})
        if answer.get("type") == "skip":
            spell["hep_done"] = True
            self.forfeit(g, seat)
            return
        index, slot = answer.get("index"), answer.get("slot")
        if answer.get("type") != "drop" or index not in closed or slot not in g["hand"][seat]:
            raise IllegalAction("гепатит: нужно убрать одну закрытую карту заклинания")
        if slot in spell["dropped"].values():
            raise IllegalAction("эта карта уже убрана")
        g["hand"][seat].remove(slot)
        g["discard"].append(slot)
        spell["dropped"][str(index)] = slot
        spell["hep_done"] = True
        self.log(g, f"Гепатит Ы: {self.who(g, seat)} тайно убирает карту из заклинания.")

    def try_surprise(self, g: G, ctx: Ctx, seat: int) -> bool:
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
            for entry in spell["revealed"].values():
                if self.spell(entry["card"]).get("surprise") and not entry.get("spent"):
                    entry["spent"] = True
                    found = True
                    break
        if not found and self.closed_indices(g, seat):
            answer = ctx.ask({"kind": "move", "seats": [seat], "phase": "surprise"})
            found = self.reveal_surprise(g, seat, answer)
        if not found:
            return False
        count = len(g["diseases"][seat])
        self.log(g, f"{self.who(g, seat)} раскрывает Нежданчик!")
        if count == 0:
            self.log(g, "Нежданчик: ЗПМП нет, лечить нечего — смерть остаётся.")
            return False
        for token in list(g["diseases"][seat]):
            self.lose_disease(g, seat, token)
        g["life"][seat] = count
        self.log(
            g,
            f"Нежданчик отменяет смерть: вылечено ЗПМП — {count}; "
            f"{self.who(g, seat)}: жизней теперь {count}.",
        )
        return True

    def forfeit(self, g: G, seat: int) -> None:
        """An absent player's sealed spell is lost: it is never cast, its cards stay in hand."""
        spell = g["spell"][seat]
        if spell is not None and not spell.get("forfeit"):
            spell["forfeit"] = True
            self.log(g, f"{self.who(g, seat)} отсутствует: заклинание не будет сотворено.")

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
        g["known"][str(slot)] = card_id
        g["spell"][seat]["revealed"][str(index)] = {
            "slot": slot,
            "card": card_id,
            "as": self.spell(card_id)["slot"],
            "spent": True,
        }
        return True

    def die(self, g: G, ctx: Ctx, seat: int, killer: int | None) -> None:
        """Death: medals, the Palace, everything lost but eternal things, a ghost card to come."""
        if self.try_surprise(g, ctx, seat):
            return
        g["alive"][seat] = False
        g["life"][seat] = 0
        self.log(g, f"{self.who(g, seat)} погибает.")
        if killer is not None and killer != seat:
            g["kills"][killer] += 1
            self.log(g, f"{self.who(g, killer)} получает медаль за убийство.")
        if g["palace"] == seat:
            g["palace"] = killer
            g["palace_ghost"] = killer is not None and not g["alive"][killer]
            if killer is None:
                self.log(g, "Хоромы возвращаются в центр.")
            else:
                self.log(g, f"{self.who(g, killer)} забирает Хоромы.")
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
        g["t_discard"].extend(t for t in g["treasures"][seat] if t not in keep)
        g["treasures"][seat] = keep
        for token in list(g["diseases"][seat]):
            if not self.disease_kind(token).get("eternal"):
                self.lose_disease(g, seat, token)
        g["dead_order"].append(seat)
        g["pending_ghosts"].append(seat)
        living = self.living(g)
        if len(living) == 1:
            g["last_standing"] = living[0]
