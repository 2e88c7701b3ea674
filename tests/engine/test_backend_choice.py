"""The start-up choice of crypto backend: fastest kind first, never one that fails the self-test."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.fairness import backends
from engine.fairness.backends.native import NativeBackend
from engine.fairness.backends.pure import PureBackend


class BrokenBackend(NativeBackend):
    """Answers one multiplication wrongly: must never be chosen."""

    name = "broken"

    async def mult_many(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        result = await super().mult_many(pairs)
        return [result[0] ^ 1, *result[1:]] if result else result


async def test_a_backend_failing_the_self_test_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        backends, "available_backends", lambda: [BrokenBackend(), PureBackend(), NativeBackend()]
    )
    chosen = await backends.select_backend()
    assert chosen.name == "pure"  # the first in order that passes, whatever its speed
    assert (await backends.select_backend(prefer="cryptography")).name == "cryptography"
    with pytest.raises(backends.CryptoError):
        await backends.select_backend(prefer="broken")
