"""Verifiable secret sharing of a seat's escrow secret: Shamir over the P-256 group order with
Feldman commitments.

A seat's escrow secret ``e`` (a scalar in ``[1, n)``) is the root of everything it keeps secret
in one game: its shuffle seed and its hash-chain seed both derive from it (``seeds_of``). The
seat deals ``f(x) = e + a_1 x + … + a_{t-1} x^{t-1}`` to every other seat ``j`` as the share
``f(j + 1)``, and publishes ``C_k = a_k·G`` (``C_0 = e·G``). A receiver checks its share with
``share·G = Σ (j+1)^k C_k`` as soon as it is dealt; any ``t`` checked shares rebuild ``e`` by
Lagrange interpolation at 0, and fewer than ``t`` say nothing about it.

No maintained Feldman library runs under Pyodide, so the point arithmetic is the project's own
reference P-256 code (``curve``); ``cryptography`` speeds up ``s·G`` where it is installed.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from engine.fairness import curve
from engine.fairness.deck import ShuffleSeed
from engine.fairness.encoding import join_fields

Point = curve.Affine
_G: Point = (curve.GX, curve.GY)


def threshold(seats: int) -> int:
    """How many shares rebuild a seat's secret at a table of ``seats`` (0: nothing is shared).

    Two seats: none, since the only other holder would be one player (a departure ends the game).
    Three or four: every other seat (t = seats − 1), so two colluders at a table of four learn
    nothing and one departure can be recovered. Five or more: t = seats − 2, so fewer than
    ``seats − 2`` colluders learn nothing and two departures can still be recovered."""
    if seats <= 2:
        return 0
    if seats <= 4:
        return seats - 1
    return seats - 2


def share_x(seat: int) -> int:
    """The evaluation point of a seat's share (never 0, which is the secret)."""
    return seat + 1


def base_mult(k: int) -> Point:
    """``k·G`` for ``k`` in ``[1, n)``: OpenSSL where available, else the pure reference code."""
    if not 0 < k < curve.N:
        raise curve.CurveError("scalar out of range")
    ec = _openssl_ec()
    if ec is None:  # Pyodide without the wheel: pure Python
        point = curve.multiply(k, _G)
        assert point is not None
        return point
    numbers = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
    return (numbers.x, numbers.y)


@cache
def _openssl_ec() -> Any:
    """``cryptography``'s elliptic-curve module, or ``None`` where it is not installed; looked up
    once (an import that fails searches every path again each time it is tried)."""
    try:
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError:
        return None
    return ec


def _small_mult(k: int, point: Point | None) -> Point | None:
    """``k·point`` for a small non-negative ``k`` (share indices and their powers stay small)."""
    if point is None or k == 0:
        return None
    return curve.multiply(k, point)


def polynomial(secret: int, t: int, coefficients: Sequence[int] | None = None) -> list[int]:
    """The dealt polynomial ``[secret, a_1, …, a_{t-1}]`` (``coefficients`` first, then random)."""
    if t < 1 or not 0 < secret < curve.N:
        raise ValueError("a sharing needs t ≥ 1 and a secret in [1, n)")
    extra = list(coefficients) if coefficients is not None else []
    while len(extra) < t - 1:
        extra.append(secrets.randbelow(curve.N - 1) + 1)
    return [secret, *extra[: t - 1]]


def deal(
    secret: int, t: int, xs: Sequence[int], coefficients: Sequence[int] | None = None
) -> tuple[list[Point], dict[int, int]]:
    """Feldman commitments ``[C_0, …, C_{t-1}]`` and the share ``f(x)`` for each ``x``."""
    poly = polynomial(secret, t, coefficients)
    commitments = [base_mult(a) for a in poly]
    shares = {x: evaluate(poly, x) for x in xs}
    return commitments, shares


def evaluate(poly: Sequence[int], x: int) -> int:
    """``f(x)`` modulo the group order: the share dealt at ``x``."""
    value = 0
    for coefficient in reversed(poly):
        value = (value * x + coefficient) % curve.N
    return value


def expected_point(commitments: Sequence[Point], x: int) -> Point | None:
    """``Σ x^k C_k`` (Horner with the small ``x``): what ``f(x)·G`` must be."""
    acc: Point | None = None
    for point in reversed(commitments):
        acc = curve.add(_small_mult(x, acc), point)
    return acc


def verify_share(commitments: Sequence[Point], x: int, share: int) -> bool:
    """True when ``share`` is ``f(x)`` for the polynomial the commitments fix."""
    if not 0 < share < curve.N:
        return False
    return base_mult(share) == expected_point(commitments, x)


def recover(shares: Mapping[int, int]) -> int:
    """``f(0)`` from shares ``{x: f(x)}`` (at least ``t`` of them, distinct non-zero ``x``)."""
    if not shares or any(x % curve.N == 0 for x in shares):
        raise ValueError("shares need distinct non-zero points")
    secret = 0
    for xi, yi in shares.items():
        num, den = 1, 1
        for xj in shares:
            if xj != xi:
                num = num * xj % curve.N
                den = den * (xj - xi) % curve.N
        secret = (secret + yi * num * pow(den, -1, curve.N)) % curve.N
    return secret


def encode_commitments(points: Sequence[Point]) -> list[str]:
    """Compressed SEC1 hex of each commitment (66 characters)."""
    return [(bytes([2 + p[1] % 2]) + p[0].to_bytes(32, "big")).hex() for p in points]


def decode_commitments(values: object, t: int) -> list[Point]:
    """Parse ``t`` compressed points; ``ValueError`` (or ``CurveError``) on anything else."""
    if not isinstance(values, list) or len(values) != t:
        raise ValueError(f"a sharing carries {t} commitments")
    points = []
    for value in values:
        if not isinstance(value, str) or len(value) != 66:
            raise ValueError("a commitment is 33 bytes of hex")
        points.append(curve.decode_point(bytes.fromhex(value)))
    return points


def escrow_secret(master: bytes, room: str, game: str) -> int:
    """A seat's escrow secret for one game, derived from its private master secret."""
    return curve.scalar_from_bytes(b"magic-table/escrow/v1", master, room.encode(), game.encode())


def seeds_of(secret: int) -> tuple[ShuffleSeed, bytes]:
    """The shuffle seed and the hash-chain seed that derive from an escrow secret."""
    raw = secret.to_bytes(32, "big")
    shuffle = hashlib.sha256(join_fields("magic-table/seed/v1", raw, "shuffle")).digest()
    chain = hashlib.sha256(join_fields("magic-table/seed/v1", raw, "chain")).digest()
    return ShuffleSeed(shuffle), chain
