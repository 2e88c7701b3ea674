"""AES-256-GCM in pure Python (FIPS 197 + SP 800-38D), for the fallback backend only.

Slow but exact; a test checks it bit for bit against the ``cryptography`` package.
"""

from __future__ import annotations

import hmac


def _xtime(a: int) -> int:
    a <<= 1
    return (a ^ 0x11B) & 0xFF if a & 0x100 else a


def _build_sbox() -> list[int]:
    sbox = [0] * 256
    p = q = 1
    while True:
        # p walks the multiplicative group by 3, q by its inverse (1/3)
        p = p ^ _xtime(p)
        q ^= q << 1
        q ^= q << 2
        q ^= q << 4
        q &= 0xFF
        if q & 0x80:
            q ^= 0x09
        x = q ^ _rotl8(q, 1) ^ _rotl8(q, 2) ^ _rotl8(q, 3) ^ _rotl8(q, 4)
        sbox[p] = x ^ 0x63
        if p == 1:
            break
    sbox[0] = 0x63
    return sbox


def _rotl8(x: int, shift: int) -> int:
    return ((x << shift) | (x >> (8 - shift))) & 0xFF


_SBOX = _build_sbox()


def _mul(a: int, b: int) -> int:
    result = 0
    while b:
        if b & 1:
            result ^= a
        a = _xtime(a)
        b >>= 1
    return result


# T-table: column contribution of one S-boxed byte through MixColumns, packed in 32 bits.
_T = [(_mul(s, 2) << 24) | (s << 16) | (s << 8) | _mul(s, 3) for s in _SBOX]


def _rot(word: int, bytes_: int) -> int:
    shift = 8 * bytes_
    return ((word >> shift) | (word << (32 - shift))) & 0xFFFFFFFF


_T1 = [_rot(t, 1) for t in _T]
_T2 = [_rot(t, 2) for t in _T]
_T3 = [_rot(t, 3) for t in _T]


def expand_key(key: bytes) -> list[int]:
    """AES-256 key schedule: 60 round-key words."""
    if len(key) != 32:
        raise ValueError("AES-256 needs a 32-byte key")
    words = [int.from_bytes(key[i : i + 4], "big") for i in range(0, 32, 4)]
    rcon = 1
    for i in range(8, 60):
        temp = words[i - 1]
        if i % 8 == 0:
            temp = ((temp << 8) | (temp >> 24)) & 0xFFFFFFFF
            temp = _sub_word(temp) ^ (rcon << 24)
            rcon = _xtime(rcon)
        elif i % 8 == 4:
            temp = _sub_word(temp)
        words.append(words[i - 8] ^ temp)
    return words


def _sub_word(word: int) -> int:
    return (
        (_SBOX[word >> 24] << 24)
        | (_SBOX[(word >> 16) & 0xFF] << 16)
        | (_SBOX[(word >> 8) & 0xFF] << 8)
        | _SBOX[word & 0xFF]
    )


def encrypt_block(round_keys: list[int], block: bytes) -> bytes:
    """Encrypt one 16-byte block."""
    s = [int.from_bytes(block[i : i + 4], "big") ^ round_keys[i // 4] for i in range(0, 16, 4)]
    for rnd in range(1, 14):
        k = round_keys[4 * rnd : 4 * rnd + 4]
        s = [
            _T[s[c] >> 24]
            ^ _T1[(s[(c + 1) % 4] >> 16) & 0xFF]
            ^ _T2[(s[(c + 2) % 4] >> 8) & 0xFF]
            ^ _T3[s[(c + 3) % 4] & 0xFF]
            ^ k[c]
            for c in range(4)
        ]
    k = round_keys[56:60]
    out = b""
    for c in range(4):
        word = (
            (_SBOX[s[c] >> 24] << 24)
            | (_SBOX[(s[(c + 1) % 4] >> 16) & 0xFF] << 16)
            | (_SBOX[(s[(c + 2) % 4] >> 8) & 0xFF] << 8)
            | _SBOX[s[(c + 3) % 4] & 0xFF]
        ) ^ k[c]
        out += word.to_bytes(4, "big")
    return out


_R = 0xE1 << 120


def _gf_mult(x: int, y: int) -> int:
    z = 0
    for i in range(127, -1, -1):
        if (y >> i) & 1:
            z ^= x
        x = (x >> 1) ^ _R if x & 1 else x >> 1
    return z


def _ghash(h: int, aad: bytes, ciphertext: bytes) -> int:
    y = 0
    for data in (aad, ciphertext):
        for i in range(0, len(data), 16):
            chunk = data[i : i + 16].ljust(16, b"\0")
            y = _gf_mult(y ^ int.from_bytes(chunk, "big"), h)
    lengths = ((8 * len(aad)) << 64) | (8 * len(ciphertext))
    return _gf_mult(y ^ lengths, h)


def _ctr(round_keys: list[int], nonce: bytes, data: bytes) -> bytes:
    out = bytearray()
    for block_index, i in enumerate(range(0, len(data), 16)):
        counter = nonce + (block_index + 2).to_bytes(4, "big")
        stream = encrypt_block(round_keys, counter)
        out += bytes(a ^ b for a, b in zip(data[i : i + 16], stream, strict=False))
    return bytes(out)


def _tag(round_keys: list[int], nonce: bytes, aad: bytes, ciphertext: bytes) -> bytes:
    h = int.from_bytes(encrypt_block(round_keys, b"\0" * 16), "big")
    s = _ghash(h, aad, ciphertext)
    j0 = int.from_bytes(encrypt_block(round_keys, nonce + b"\0\0\0\1"), "big")
    return (s ^ j0).to_bytes(16, "big")


def encrypt(key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
    """AES-256-GCM with a 12-byte nonce: ciphertext ‖ 16-byte tag."""
    if len(nonce) != 12:
        raise ValueError("GCM nonce must be 12 bytes")
    round_keys = expand_key(key)
    ciphertext = _ctr(round_keys, nonce, data)
    return ciphertext + _tag(round_keys, nonce, aad, ciphertext)


def decrypt(key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes | None:
    """Plaintext, or ``None`` when the tag does not match."""
    if len(nonce) != 12 or len(data) < 16:
        return None
    round_keys = expand_key(key)
    ciphertext, tag = data[:-16], data[-16:]
    if not hmac.compare_digest(_tag(round_keys, nonce, aad, ciphertext), tag):
        return None
    return _ctr(round_keys, nonce, ciphertext)
