"""Commitments, hash chains, uniform reduction, the deck and its audit, backend agreement."""

from __future__ import annotations

import hashlib
import random

import pytest
from cryptography.hazmat.primitives.serialization import load_der_private_key
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.fairness import curve
from engine.fairness.backends import aes_gcm, available_backends, select_backend, self_test
from engine.fairness.backends.encoding import pkcs8_from_scalar
from engine.fairness.backends.native import NativeBackend
from engine.fairness.backends.pure import PureBackend
from engine.fairness.commit import CommitContext, Opening, commit, commitment, verify
from engine.fairness.deck import (
    DeckError,
    DeckLayout,
    DeckTranscript,
    ShuffleSeed,
    audit_deck,
    card_points,
    card_table,
    check_deck,
    pass_one,
    pass_two,
    slot_commitments,
    unmask,
)
from engine.fairness.randomness import HashChain, joint_value, reduce_uniform, verify_link

CTX = CommitContext("room", "game", 3, "seal", 1)


def test_commitment_opens_only_with_its_own_opening() -> None:
    digest, opening = commit(CTX, 7)
    assert verify(CTX, digest, opening)
    assert not verify(CTX, digest, Opening(opening.nonce, 8))
    assert not verify(CTX, digest, Opening(bytes(32), 7))
    for other in (
        CommitContext("room2", "game", 3, "seal", 1),
        CommitContext("room", "game", 4, "seal", 1),
        CommitContext("room", "game", 3, "seal", 2),
    ):
        assert not verify(other, digest, opening)


def test_length_prefix_keeps_fields_apart() -> None:
    nonce = bytes(32)
    a = commitment(CommitContext("ab", "c", 1, "p", 0), Opening(nonce, 1))
    b = commitment(CommitContext("a", "bc", 1, "p", 0), Opening(nonce, 1))
    assert a != b


def test_hash_chain_links_verify_in_order() -> None:
    chain = HashChain(b"s" * 32, 20)
    previous = chain.tip()
    for event in range(1, 6):
        value = chain.preimage(event)
        assert verify_link(previous, value)
        assert not verify_link(previous, chain.preimage(event + 1))
        previous = value


def test_joint_die_is_uniform_chi_square() -> None:
    rolls = 6000
    counts = [0] * 6
    for k in range(rolls):
        preimages = [hashlib.sha256(f"{k}/{s}".encode()).digest() for s in range(3)]
        counts[joint_value(("chance", "r", "g", k), preimages, 6)] += 1
    expected = rolls / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 20.5  # df = 5, p = 0.001


@given(st.binary(min_size=32, max_size=32), st.integers(min_value=1, max_value=2**256))
def test_reduce_uniform_stays_in_range(digest: bytes, n: int) -> None:
    assert 0 <= reduce_uniform(digest, n) < n


def test_reduce_uniform_rejects_the_biased_band() -> None:
    n = 2**255 + 1  # almost half of all digests fall in the rejected band
    top = (2**256 - 1).to_bytes(32, "big")
    value = reduce_uniform(top, n)
    assert value != (2**256 - 1) % n or value < n


def test_pkcs8_encoding_is_valid_der() -> None:
    key = load_der_private_key(pkcs8_from_scalar(123456789), None)
    assert key.private_numbers().private_value == 123456789  # type: ignore[union-attr]


def test_pure_aes_gcm_matches_openssl() -> None:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    for size in (0, 1, 16, 33, 200):
        key, nonce, data, aad = bytes(range(32)), bytes(12), bytes(size), b"x" * (size % 7)
        sealed = aes_gcm.encrypt(key, nonce, data, aad)
        assert sealed == AESGCM(key).encrypt(nonce, data, aad)
        assert aes_gcm.decrypt(key, nonce, sealed[:-1] + bytes([sealed[-1] ^ 1]), aad) is None


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=curve.N - 1), min_size=1, max_size=4),
    st.binary(min_size=1, max_size=8),
)
async def test_backends_agree_bit_for_bit(scalars: list[int], label: bytes) -> None:
    x = curve.hash_to_x(b"test", label)
    pairs = [(k, x) for k in scalars]
    assert await NativeBackend().mult_many(pairs) == await PureBackend().mult_many(pairs)


async def test_signatures_and_boxes_cross_backends() -> None:
    native, pure = NativeBackend(), PureBackend()
    a, b = await native.generate_keypair(), await pure.generate_keypair()
    assert await pure.verify(a.public, b"m", await native.sign(a, b"m"))
    assert await native.verify(b.public, b"m", await pure.sign(b, b"m"))
    assert not await native.verify(b.public, b"n", await pure.sign(b, b"m"))
    assert await native.ecdh(a, b.public) == await pure.ecdh(b, a.public)


async def test_self_test_picks_a_correct_backend() -> None:
    for backend in available_backends():
        assert await self_test(backend)
    assert (await select_backend()).name == "cryptography"


async def _shuffle(
    seats: int, cards: list[str], cheat: dict[int, str] | None = None
) -> tuple[NativeBackend, DeckLayout, list[ShuffleSeed], DeckTranscript]:
    backend = NativeBackend()
    layout = DeckLayout.from_rules({"main": cards})
    seeds = [ShuffleSeed(bytes([s]) * 32) for s in range(seats)]
    transcript = DeckTranscript("main", 0, card_points("r", "g", "main", cards), [], [], [])
    current = transcript.initial
    for seat, seed in enumerate(seeds):
        current = await pass_one(backend, seed, "main", current)
        if (cheat or {}).get(seat) == "foreign":
            current = [curve.hash_to_x(b"foreign"), *current[1:]]
        check_deck(current, len(cards), seat)
        transcript.pass1.append(current)
    for seat, seed in enumerate(seeds):
        current = await pass_two(backend, seed, "main", 0, current)
        check_deck(current, len(cards), seat)
        transcript.pass2.append(current)
        transcript.commitments.append(slot_commitments("r", "g", seat, seed, 0, len(cards)))
    return backend, layout, seeds, transcript


async def test_shuffle_is_a_permutation_and_audit_passes() -> None:
    cards = ["a", "b", "c", "a", "d", "e"]
    backend, layout, seeds, transcript = await _shuffle(3, cards)
    table = card_table("r", "g", layout)
    found = []
    for slot in range(len(cards)):
        keys = [seed.slot_key(slot) for seed in seeds]
        found.append(await unmask(backend, transcript.final[slot], keys, table))
    assert sorted(found) == sorted(cards)
    await audit_deck(backend, "r", "g", transcript, seeds)


async def test_audit_names_the_seat_that_slipped_in_a_foreign_card() -> None:
    backend, _, seeds, transcript = await _shuffle(4, list("abcdefgh"), cheat={2: "foreign"})
    with pytest.raises(DeckError) as caught:
        await audit_deck(backend, "r", "g", transcript, seeds)
    assert caught.value.seat == 2


def test_deck_checks_refuse_duplicates_and_bad_points() -> None:
    xs = card_points("r", "g", "main", ["a", "b", "c"])
    with pytest.raises(DeckError, match="duplicated"):
        check_deck([xs[0], xs[0], xs[2]], 3, 1)
    with pytest.raises(DeckError, match="x-coordinate"):
        check_deck([xs[0], xs[1], 2], 3, 1)
    with pytest.raises(DeckError, match="expected 3"):
        check_deck(xs[:2], 3, 1)


def test_legendre_symbol_agrees_with_eulers_criterion() -> None:
    """The curve check's Legendre symbol equals Euler's criterion on squares, non-squares, zero
    and random values (the check of every card value in a shuffle rests on it)."""
    rng = random.Random(7)
    values = [0, 1, 2, 3, curve.P - 1, curve.B, *(rng.randrange(curve.P) for _ in range(300))]
    values += [v * v % curve.P for v in values[:40]]  # squares
    for value in values:
        euler = pow(value, (curve.P - 1) // 2, curve.P)
        assert curve.legendre(value) == {0: 0, 1: 1, curve.P - 1: -1}[euler], value
    assert {curve.legendre(v) for v in values} == {-1, 0, 1}
    assert curve.is_valid_x(curve.GX)
    assert not curve.is_valid_x(next(x for x in range(1, 50) if curve.legendre(curve._rhs(x)) < 0))
