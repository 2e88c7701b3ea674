"""Set-up: hash-chain tips with the verifiable sharing of each seat's escrow secret, the two
shuffle passes, and rebuilding a departed seat's secret from checked shares."""

from __future__ import annotations

from typing import Any

from engine.fairness import commit as commitments
from engine.fairness import sharing
from engine.fairness.deck import (
    DeckError,
    ShuffleSeed,
    check_deck_shape,
    check_xs,
    key_commitment,
)
from engine.fairness.randomness import HashChain
from engine.protocol.errors import ProtocolError
from engine.protocol.pace import in_slices, yield_if_long
from engine.protocol.table_state import CHAIN_LENGTH, TableState
from engine.protocol.table_values import hex_bytes


class SetUp(TableState):
    """Set-up."""

    async def _plan_chain(self, seat: int, body: dict[str, Any], name: str) -> Any:
        if self.stage != "chains" or seat in self.tips:
            raise ProtocolError(name, "no chain commitment expected now")
        tip = hex_bytes(body.get("tip"), 32, name, "chain tip")
        points: list[sharing.Point] = []
        boxes: dict[int, str] = {}
        if self.threshold:
            dealt = body.get("shares")
            others = [s for s in range(self.seats) if s != seat]
            if not isinstance(dealt, dict) or not isinstance(dealt.get("boxes"), dict):
                raise ProtocolError(name, "chain commitment carries no shares of the seat's secret")
            await yield_if_long()  # each commitment is lifted onto the curve (a modular power)
            try:
                points = sharing.decode_commitments(dealt.get("commitments"), self.threshold)
            except ValueError as exc:
                raise ProtocolError(name, f"share commitments are malformed: {exc}") from exc
            raw = dealt["boxes"]
            if sorted(raw) != sorted(str(s) for s in others) or not all(
                isinstance(v, str) and len(v) <= 512 for v in raw.values()
            ):
                raise ProtocolError(name, "shares must be one box for each other seat")
            boxes = {int(k): v for k, v in raw.items()}

        def apply() -> None:
            self.tips[seat] = tip
            self.chain_last[seat] = tip
            if points:
                self.sharings[seat] = points
                self.share_boxes[seat] = boxes

        return apply

    def share_ok(self, dealer: int, holder: int, value: int) -> bool:
        """True when ``value`` is ``holder``'s share of ``dealer``'s secret."""
        points = self.sharings.get(dealer)
        return points is not None and sharing.verify_share(points, sharing.share_x(holder), value)

    def _expect_turn(self, stage: str, seat: int, name: str) -> None:
        if self.stage != stage or self._shuffle_turn().get(seat) is None:
            raise ProtocolError(name, f"it is not seat {seat}'s turn to shuffle")

    async def _parse_decks(
        self, body: dict[str, Any], name: str, seat: int
    ) -> dict[str, list[int]]:
        """Each deck's x-coordinates, checked a few points per browser task (each check of a
        point is a Legendre symbol, ``curve.is_valid_x``)."""
        decks = body.get("decks")
        if not isinstance(decks, dict) or set(decks) != {d for d, _ in self.layout.decks}:
            raise ProtocolError(name, "shuffle must carry every hidden deck")
        parsed = {}
        for deck, cards in self.layout.decks:
            values = decks[deck]
            if not isinstance(values, list) or not all(
                isinstance(v, str) and len(v) == 64 for v in values
            ):
                raise ProtocolError(name, f"deck {deck!r} is not a list of x-coordinates")
            try:
                xs = [int(v, 16) for v in values]
                check_deck_shape(xs, len(cards), seat)
                async for part in in_slices(xs):  # a few points per browser task
                    check_xs(part, seat)
            except (ValueError, DeckError) as exc:
                raise ProtocolError(name, f"deck {deck!r}: {exc}") from exc
            parsed[deck] = xs
        return parsed

    async def _plan_shuffle1(self, seat: int, body: dict[str, Any], name: str) -> Any:
        self._expect_turn("shuffle1", seat, name)
        decks = await self._parse_decks(body, name, seat)

        def apply() -> None:
            for deck, xs in decks.items():
                self.decks[deck].pass1.append(xs)
            if seat == self.seats - 1:
                self.stage = "shuffle2"

        return apply

    async def _plan_shuffle2(self, seat: int, body: dict[str, Any], name: str) -> Any:
        self._expect_turn("shuffle2", seat, name)
        decks = await self._parse_decks(body, name, seat)
        commits = body.get("commits")
        if not isinstance(commits, dict):
            raise ProtocolError(name, "pass 2 carries no slot-key commitments")
        parsed: dict[str, list[str]] = {}
        for deck, cards in self.layout.decks:
            values = commits.get(deck)
            if (
                not isinstance(values, list)
                or len(values) != len(cards)
                or not all(commitments.is_digest(v) for v in values)
            ):
                raise ProtocolError(name, f"slot-key commitments of deck {deck!r} are malformed")
            parsed[deck] = values

        def apply() -> None:
            for deck, xs in decks.items():
                self.decks[deck].pass2.append(xs)
                self.decks[deck].commitments.append(parsed[deck])
            if seat == self.seats - 1:
                self.stage = "play"
                self._new_node()

        return apply

    async def _plan_escrow(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A present seat posts its share of a departed seat's secret; each share is checked
        against the departed seat's commitments, so a lying opener is refused and named."""
        pending = self.escrow_pending()
        departed = body.get("seat")
        if departed not in pending or seat not in self.recovery_owed(departed):
            raise ProtocolError(name, "no share of that seat is owed by this seat")
        assert isinstance(departed, int)
        value = int.from_bytes(hex_bytes(body.get("share"), 32, name, "share"), "big")
        if not self.share_ok(departed, seat, value):
            raise ProtocolError(
                name, f"share of seat {departed}'s secret does not match its commitments"
            )
        shares = {**self.recovery.get(departed, {}), seat: value}
        if len(shares) < self.threshold:
            return lambda: self.recovery.__setitem__(departed, shares)
        secret = sharing.recover({sharing.share_x(s): v for s, v in shares.items()})
        seed, chain_seed = sharing.seeds_of(secret)
        await HashChain(chain_seed, CHAIN_LENGTH).walk(yield_if_long)
        problem = self._recovered_mismatch(departed, seed, chain_seed)

        def apply() -> None:
            self.recovery[departed] = shares
            if problem:
                # The departed seat shared a secret that is not the root of what it committed
                # to: its keys are lost, so the table cannot go on.
                self._halt(departed, problem)
                return
            self.recovered[departed] = seed
            self.recovered_chains[departed] = chain_seed

        return apply

    def _recovered_mismatch(self, departed: int, seed: ShuffleSeed, chain_seed: bytes) -> str:
        """Why a rebuilt secret is not the departed seat's (empty: it is)."""
        if HashChain(chain_seed, CHAIN_LENGTH).tip() != self.tips.get(departed):
            return "its shared secret does not give the chain it committed to"
        shuffles = [self.decks[deck] for deck, _ in self.layout.decks] + [
            t for t in self.reshuffles if departed in t.seats and t.complete(self.seats)
        ]
        for transcript in shuffles:
            if len(transcript.commitments) <= transcript.seat_numbers(self.seats).index(departed):
                continue
            position = transcript.seat_numbers(self.seats).index(departed)
            published_keys = transcript.commitments[position]
            for slot, published in zip(transcript.slot_numbers(), published_keys, strict=True):
                key = seed.slot_key(slot, transcript.epoch)
                if key_commitment(self.room, self.game, departed, slot, key) != published:
                    return "its shared secret does not give the slot keys it committed to"
        return ""

    async def _plan_share(self, seat: int, body: dict[str, Any], name: str) -> Any:
        """A dealer answers a holder's complaint by publishing that holder's share."""
        holder = body.get("to")
        if (seat, holder) not in self.share_requests:
            raise ProtocolError(name, "nobody asked this seat for that share")
        assert isinstance(holder, int)
        value = int.from_bytes(hex_bytes(body.get("share"), 32, name, "share"), "big")
        if not self.share_ok(seat, holder, value):
            raise ProtocolError(name, "published share does not match the seat's commitments")

        def apply() -> None:
            self.share_requests.remove((seat, holder))
            self.public_shares[(seat, holder)] = value

        return apply
