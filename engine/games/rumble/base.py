"""Shared ground for the rules: constants, the effect source, table helpers and the piles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from .cards import Catalog, DiseaseCard, SpellCard
from .runner import Ask, Ctx, G
from .state import PickPhase, Pile, Refill, Sealed, Via, sealed

MAX_LIFE = 25
START_LIFE = 20
HAND_SIZE = 8


@dataclass
class Src:
    """Who an effect comes from: a seat (or none for disease text) and through what."""

    seat: int | None
    via: Via
    school: str | None = None
    copy: bool = False
    depth: int = 0
    total: int = 0


class Base:
    """Reads of the game data ``g`` every part of the rules needs, and the piles."""

    def __init__(self, catalog: Catalog) -> None:
        self.cat = catalog

    # ----- small helpers -------------------------------------------------------------------

    def log(self, g: G, kind: str, **args: Any) -> None:
        """A log event ``{"e": kind, ...args}`` (web/ui/phrases says it in words)."""
        g["log"].append({"e": kind, **args})

    def own_spell(self, g: G, seat: int) -> Sealed:
        """The seat's sealed spell, to change: copies of the data share sealed spells (they are
        never changed in place, see ``runner.clone_game``), so ``g`` gets a copy of its own."""
        spell = sealed(g, seat)
        mine: Sealed = {
            **spell,
            "commit": spell["commit"][:],
            "dropped": spell["dropped"].copy(),
            "revealed": {k: v.copy() for k, v in spell["revealed"].items()},
        }
        g["spell"][seat] = mine
        return mine

    @staticmethod
    def own_list(g: G, key: str) -> list[Any]:
        """The list under ``key`` (one of ``runner.SHARED_LISTS``), to change: copies of the
        data share those lists, so ``g`` gets a copy of its own."""
        data = cast(dict[str, Any], g)
        mine: list[Any] = data[key][:]
        data[key] = mine
        return mine

    @staticmethod
    def own_known(g: G) -> dict[str, str]:
        """The cards shown to all (``known``), to change: copies of the data share that map
        (``runner.SHARED_MAPS``), so ``g`` gets a copy of its own."""
        known = g["known"].copy()
        g["known"] = known
        return known

    @staticmethod
    def own_seat_list(g: G, key: str, seat: int) -> list[Any]:
        """The seat's list under ``key`` (one of ``runner.SHARED_PER_SEAT``), to change: copies
        of the data share those lists, so ``g`` gets a copy of its own."""
        lists: list[list[Any]] = cast(dict[str, Any], g)[key]
        mine = lists[seat][:]
        lists[seat] = mine
        return mine

    def spell(self, card_id: str) -> SpellCard:
        return self.cat.spells[card_id]

    def living(self, g: G) -> list[int]:
        return [s for s, alive in enumerate(g["alive"]) if alive]

    def enemies(self, g: G, seat: int | None) -> list[int]:
        """Living seats other than ``seat``, starting from its left (seat + 1) around the table."""
        n, alive = g["n"], g["alive"]
        start = 0 if seat is None else seat + 1
        return [s for i in range(n) if (s := (start + i) % n) != seat and alive[s]]

    @staticmethod
    def has_enemy(g: G, seat: int) -> bool:
        """Whether a seat other than ``seat`` is alive (``enemies`` is not empty)."""
        alive = g["alive"]
        return alive.count(True) > (1 if alive[seat] else 0)

    def neighbour(self, g: G, seat: int, step: int) -> int | None:
        """Nearest living enemy to the left (step +1) or right (step -1)."""
        n: int = g["n"]
        for i in range(1, n):
            s = (seat + step * i) % n
            if s != seat and g["alive"][s]:
                return s
        return None

    def disease_kind(self, token: str) -> DiseaseCard:
        return self.cat.diseases[token.split("#")[0]]

    def has_special(self, g: G, seat: int, special: str) -> bool:
        diseases = g["diseases"][seat]
        return bool(diseases) and any(
            self.disease_kind(t).get("special") == special for t in diseases
        )

    def cloak(self, g: G, seat: int) -> int:
        treasures = g["treasures"][seat]
        return sum(self.cat.treasures[t].get("cloak", 0) for t in treasures) if treasures else 0

    def signs(self, g: G, seat: int, school: str | None) -> int:
        """Signs of ``school``: spell cards, creatures, diseases, ghost signs, sign treasures."""
        if school is None:
            return 0
        count: int = 0
        seen: set[int] = set()
        cast = g["cast"]
        if cast is not None and cast["seat"] == seat:
            for c in cast["cards"]:
                seen.add(c["slot"])
                count += self.spell(c["card"]).get("school") == school
        for cr in g["creatures"][seat]:
            if cr["slot"] not in seen:
                count += self.spell(cr["card"]).get("school") == school
        for token in g["diseases"][seat]:
            count += self.disease_kind(token).get("sign") == school
        for ghost in g["ghost_active"][seat]:
            count += self.cat.ghosts[ghost].get("sign") == school
        for tid in g["treasures"][seat]:
            count += self.cat.treasures[tid].get("sign") == school
        return count

    def bonus(self, g: G, seat: int) -> int:
        """+1 per «заводила с усилением» in this turn's spell, plus power treasures."""
        total: int = sum(self.cat.treasures[t].get("power", 0) for t in g["treasures"][seat])
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

    def reshuffle(self, g: G, ctx: Ctx) -> Ask[None]:
        """The discard goes back into the exhausted spell deck, secretly re-shuffled by the table.

        Cards that went to the discard face down are shown first (the table can only re-shuffle
        cards whose identity is public); then the table re-masks every discard slot in a fresh
        order that nobody knows, and the game forgets their identities.
        """
        if g["draw"] or not g["discard"]:
            return
        slots = sorted(g["discard"])
        hidden = [s for s in slots if str(s) not in g["known"]]
        if hidden:
            shown = yield from ctx.reveal(hidden, "reshuffle")
            known = self.own_known(g)
            for slot, card in shown.items():
                known[str(slot)] = card
        yield from ctx.reshuffle(slots, "reshuffle")
        g["draw"] = slots
        known = self.own_known(g)
        for slot in slots:
            known.pop(str(slot), None)
        g["discard"] = []
        self.log(g, "reshuffle")

    def draw_slot(self, g: G, ctx: Ctx) -> Ask[int | None]:
        """The top slot of the spell deck, reshuffling the discard if the deck is empty."""
        if not g["draw"]:
            yield from self.reshuffle(g, ctx)
        if not g["draw"]:
            return None
        slot: int = g["draw"].pop(0)
        return slot

    def blind_pick(
        self, g: G, ctx: Ctx, pile: Pile, refill: Refill | None, phase: PickPhase
    ) -> Ask[str | None]:
        """A face-up blind draw: a uniform pick from what remains of ``pile`` (``refill``, when
        there is one, is shuffled back into an empty pile first)."""
        if not g[pile] and refill is not None:
            g[pile] = sorted(g[refill])
            g[refill] = []
        if not g[pile]:
            return None
        i = yield from ctx.chance(len(g[pile]), phase)
        picked: str = self.own_list(g, pile).pop(i)
        return picked

    def gain_treasure(self, g: G, ctx: Ctx, seat: int) -> Ask[None]:
        tid = yield from self.blind_pick(g, ctx, "t_pile", "t_discard", "treasure")
        if tid is None:
            self.log(g, "no_treasure")
            return
        self.own_seat_list(g, "treasures", seat).append(tid)
        self.log(g, "treasure", seat=seat, treasure=tid)
