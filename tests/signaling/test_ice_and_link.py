"""Units: loopback candidate modes and parsing of trickled browser candidates."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from signaling import ice
from signaling.link import parse_candidate

CAND = "candidate:842163049 1 udp 1677729535 127.0.0.1 50000 typ host generation 0 ufrag ab"


@pytest.fixture
def fake_hosts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Replace aioice's own discovery with a controllable list."""
    found: list[str] = []
    monkeypatch.setattr(ice, "_original", lambda use_ipv4, use_ipv6: list(found))
    yield found
    ice.use_loopback_candidates("auto")


def test_auto_adds_loopback_only_when_nothing_else(fake_hosts: list[str]) -> None:
    ice.use_loopback_candidates("auto")
    assert ice.host_addresses() == ["127.0.0.1"]
    fake_hosts.append("192.0.2.7")
    assert ice.host_addresses() == ["192.0.2.7"]


def test_always_and_never(fake_hosts: list[str]) -> None:
    fake_hosts.append("192.0.2.7")
    ice.use_loopback_candidates("always")
    assert ice.host_addresses() == ["192.0.2.7", "127.0.0.1"]
    ice.use_loopback_candidates("never")
    fake_hosts.clear()
    assert ice.host_addresses() == []


def test_parse_browser_candidate() -> None:
    cand = parse_candidate({"candidate": CAND, "sdpMid": "0", "sdpMLineIndex": 0})
    assert cand is not None
    assert (cand.ip, cand.port, cand.type, cand.protocol) == ("127.0.0.1", 50000, "host", "udp")
    assert (cand.sdpMid, cand.sdpMLineIndex) == ("0", 0)


@pytest.mark.parametrize("data", [None, {"candidate": ""}, {"candidate": "", "sdpMid": "0"}])
def test_end_of_candidates_is_none(data: object) -> None:
    assert parse_candidate(data) is None


@pytest.mark.parametrize("data", [5, {"candidate": 3}, {"candidate": "candidate:1 2"}])
def test_bad_candidates_raise(data: object) -> None:
    with pytest.raises(ValueError):
        parse_candidate(data)
