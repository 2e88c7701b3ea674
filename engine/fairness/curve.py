"""P-256 arithmetic in pure Python: the reference every crypto backend must agree with.

Points travel as x-coordinates only. Masking is ``x(k·P)``, which does not depend on which of the
two points ``±P`` sharing that x-coordinate is lifted, so ``lift_x`` may pick either one.
"""

from __future__ import annotations

import hashlib

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5

Affine = tuple[int, int]
Jacobian = tuple[int, int, int]
_INFINITY: Jacobian = (1, 1, 0)


class CurveError(ValueError):
    """A value that is not a valid P-256 point, coordinate or scalar."""


def _rhs(x: int) -> int:
    return (x * x * x + A * x + B) % P


def is_valid_x(x: int) -> bool:
    """True when ``x`` is the x-coordinate of a point on P-256: the curve's right-hand side is a
    square modulo P (its Legendre symbol is not −1)."""
    if not 0 <= x < P:
        return False
    return legendre(_rhs(x)) != -1


def legendre(value: int) -> int:
    """The Legendre symbol of ``value`` modulo P: 1 for a nonzero square, −1 for a non-square,
    0 for zero. Worked out as a Jacobi symbol by quadratic reciprocity (shifts and remainders,
    about six times faster in Python than Euler's criterion, a modular power, which it equals
    for the prime P)."""
    a, n, sign = value % P, P, 1
    while a:
        while not a & 1:
            a >>= 1
            if n & 7 in (3, 5):  # (2/n) = −1 for n ≡ ±3 (mod 8)
                sign = -sign
        a, n = n, a
        if a & 3 == 3 and n & 3 == 3:  # reciprocity: both ≡ 3 (mod 4) flips the sign
            sign = -sign
        a %= n
    return sign if n == 1 else 0


def lift_x(x: int) -> Affine:
    """One of the two points with x-coordinate ``x`` (the one with even y)."""
    if not is_valid_x(x):
        raise CurveError("not a P-256 x-coordinate")
    y = pow(_rhs(x), (P + 1) // 4, P)
    return (x, y if y % 2 == 0 else P - y)


def is_on_curve(point: Affine) -> bool:
    """True when the affine point satisfies the curve equation."""
    x, y = point
    return 0 <= x < P and 0 <= y < P and (y * y - _rhs(x)) % P == 0


def _double(pt: Jacobian) -> Jacobian:
    x, y, z = pt
    if z == 0 or y == 0:
        return _INFINITY
    zz = z * z % P
    m = 3 * (x - zz) * (x + zz) % P
    yy = y * y % P
    s = 4 * x * yy % P
    x3 = (m * m - 2 * s) % P
    y3 = (m * (s - x3) - 8 * yy * yy) % P
    z3 = 2 * y * z % P
    return (x3, y3, z3)


def _add(p1: Jacobian, p2: Jacobian) -> Jacobian:
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    if z1 == 0:
        return p2
    if z2 == 0:
        return p1
    z1z1 = z1 * z1 % P
    z2z2 = z2 * z2 % P
    u1 = x1 * z2z2 % P
    u2 = x2 * z1z1 % P
    s1 = y1 * z2 * z2z2 % P
    s2 = y2 * z1 * z1z1 % P
    h = (u2 - u1) % P
    r = (s2 - s1) % P
    if h == 0:
        return _double(p1) if r == 0 else _INFINITY
    hh = h * h % P
    hhh = h * hh % P
    v = u1 * hh % P
    x3 = (r * r - hhh - 2 * v) % P
    y3 = (r * (v - x3) - s1 * hhh) % P
    z3 = h * z1 * z2 % P
    return (x3, y3, z3)


def _to_affine(pt: Jacobian) -> Affine | None:
    x, y, z = pt
    if z == 0:
        return None
    zi = pow(z, -1, P)
    zi2 = zi * zi % P
    return (x * zi2 % P, y * zi2 * zi % P)


def multiply(k: int, point: Affine) -> Affine | None:
    """``k·point`` (``None`` for the point at infinity), 4-bit fixed window."""
    k %= N
    if k == 0:
        return None
    base: Jacobian = (point[0], point[1], 1)
    table = [_INFINITY, base]
    for _ in range(14):
        table.append(_add(table[-1], base))
    acc = _INFINITY
    for shift in range((k.bit_length() + 3) // 4 * 4 - 4, -4, -4):
        for _ in range(4):
            acc = _double(acc)
        digit = (k >> shift) & 0xF
        if digit:
            acc = _add(acc, table[digit])
    return _to_affine(acc)


def add(p1: Affine | None, p2: Affine | None) -> Affine | None:
    """Affine point addition (``None`` is the point at infinity)."""
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    return _to_affine(_add((p1[0], p1[1], 1), (p2[0], p2[1], 1)))


def mult_x(k: int, x: int) -> int:
    """``x(k·P)`` for the point(s) ``P`` with x-coordinate ``x``; ``k`` must be in ``[1, n)``."""
    if not 0 < k < N:
        raise CurveError("scalar out of range")
    result = multiply(k, lift_x(x))
    if result is None:  # impossible for a prime-order group and k in [1, n)
        raise CurveError("point at infinity")
    return result[0]


def hash_to_x(*fields: bytes) -> int:
    """Try-and-increment: first valid x among SHA-256(fields ‖ counter); no known discrete log."""
    prefix = b"".join(len(f).to_bytes(4, "big") + f for f in fields)
    counter = 0
    while True:
        x = int.from_bytes(hashlib.sha256(prefix + counter.to_bytes(4, "big")).digest(), "big")
        if x < P and is_valid_x(x):
            return x
        counter += 1


def scalar_from_bytes(*fields: bytes) -> int:
    """A uniform scalar in ``[1, n)`` from hashed fields (rejection with a counter)."""
    prefix = b"".join(len(f).to_bytes(4, "big") + f for f in fields)
    counter = 0
    while True:
        value = int.from_bytes(hashlib.sha256(prefix + counter.to_bytes(4, "big")).digest(), "big")
        if 0 < value < N:
            return value
        counter += 1


def encode_point(point: Affine) -> bytes:
    """Uncompressed SEC1 encoding (65 bytes)."""
    return b"\x04" + point[0].to_bytes(32, "big") + point[1].to_bytes(32, "big")


def decode_point(data: bytes) -> Affine:
    """Parse an uncompressed or compressed SEC1 point and check it lies on the curve."""
    if len(data) == 65 and data[0] == 4:
        point = (int.from_bytes(data[1:33], "big"), int.from_bytes(data[33:], "big"))
    elif len(data) == 33 and data[0] in (2, 3):
        x, y = lift_x(int.from_bytes(data[1:], "big"))
        point = (x, y if y % 2 == data[0] % 2 else P - y)
    else:
        raise CurveError("bad SEC1 point encoding")
    if not is_on_curve(point):
        raise CurveError("point not on P-256")
    return point


def compressed_x(x: int) -> bytes:
    """SEC1 compressed encoding of the even-y point with x-coordinate ``x``."""
    return b"\x02" + x.to_bytes(32, "big")
