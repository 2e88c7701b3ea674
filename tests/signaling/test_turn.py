"""TURN credentials: the REST API shared-secret scheme, the options, and a real coturn relaying."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time
from pathlib import Path

import aioice
import pytest
from aioice.ice import TransportPolicy

from signaling.__main__ import config_from_args, parse_args
from signaling.config import ServerConfig
from signaling.turn import TurnConfigError, TurnIssuer, check_ice_url, credential
from tests.signaling.conftest import StartServer, create, join, recv
from tests.signaling.turn_proc import running_turn


def test_credential_is_base64_hmac_sha1_of_the_username() -> None:
    # RFC 2202 test case 2: HMAC-SHA1("Jefe", "what do ya want for nothing?")
    expected = bytes.fromhex("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    assert credential("Jefe", "what do ya want for nothing?") == base64.b64encode(expected).decode()


def test_issued_servers_carry_an_expiring_username_and_its_hmac() -> None:
    issuer = TurnIssuer.build(
        ["stun:stun.example:3478", "turn:turn.example:3478?transport=udp"], "s3cret", 600
    )
    assert issuer is not None
    stun, turn = issuer.ice_servers("peer-1", now=1_000_000)
    assert stun == {"urls": ["stun:stun.example:3478"]}
    assert turn["urls"] == ["turn:turn.example:3478?transport=udp"]
    assert turn["username"] == "1000600:peer-1"
    mac = hmac.new(b"s3cret", b"1000600:peer-1", hashlib.sha1).digest()
    assert turn["credential"] == base64.b64encode(mac).decode()
    assert "s3cret" not in repr(issuer.joined_fields("peer-1"))
    assert "iceTransportPolicy" not in issuer.joined_fields("x")
    relay = TurnIssuer.build(["turn:t.example"], "s", 600, relay_only=True)
    assert relay is not None and relay.joined_fields("x")["iceTransportPolicy"] == "relay"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://turn.example", "must start with turn:"),
        ("turn://turn.example:3478", "without //"),
        ("turn:", "no valid host"),
        ("turn:turn.example:0", "port must be 1-65535"),
        ("turn:turn.example:99999", "port must be 1-65535"),
        ("turn:turn.example:34x", "port must be 1-65535"),
        ("turn:turn.example?transport=sctp", "only ?transport=udp"),
        ("stun:stun.example?transport=udp", "take no ?transport"),
        ("turn:user@turn.example", "no valid host"),
    ],
)
def test_bad_ice_urls_are_refused_with_the_reason(url: str, why: str) -> None:
    with pytest.raises(TurnConfigError, match=why.replace("?", r"\?")):
        check_ice_url(url)


@pytest.mark.parametrize(
    "url", ["turn:127.0.0.1", "turns:turn.example:5349?transport=tcp", "turn:[::1]:3478"]
)
def test_good_ice_urls_pass(url: str) -> None:
    assert check_ice_url(url) == url


def run_cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(list(argv))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--turn-url", "turn:t.example"], "need the shared secret"),
        (["--turn-secret", "s"], "needs --turn-url"),
        (["--turn-relay-only"], "needs --turn-url"),
        (["--turn-url", "stun:s.example", "--turn-relay-only"], "needs a turn: or turns: URL"),
        (["--turn-url", "turn:t.example", "--turn-secret", "s", "--turn-ttl", "5"], "--turn-ttl"),
        (["--turn-url", "ftp:x", "--turn-secret", "s"], "must start with turn:"),
        (["--turn-url", "turn:t", "--turn-secret-file", "/nonexistent/secret"], "cannot read"),
        (
            ["--turn-url", "turn:t", "--turn-secret", "a", "--turn-secret-file", "/x"],
            "not both",
        ),
    ],
)
def test_bad_turn_options_exit_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], why: str
) -> None:
    assert why in run_cli_error(capsys, *argv)


def test_an_empty_secret_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "secret"
    empty.write_text("\n")
    argv = ["--turn-url", "turn:t.example", "--turn-secret-file", str(empty)]
    assert "is empty" in run_cli_error(capsys, *argv)


def test_the_secret_file_sets_the_issuer(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    path.write_text("from-the-file\nignored\n")
    args = parse_args(["--turn-url", "turn:127.0.0.1:3478", "--turn-secret-file", str(path)])
    config = config_from_args(args)
    assert config.turn == TurnIssuer(("turn:127.0.0.1:3478",), "from-the-file", 3600.0)
    assert ServerConfig().turn is None  # without options the page gets no ICE servers


async def test_joined_carries_fresh_credentials_and_never_the_secret(
    start_server: StartServer,
) -> None:
    issuer = TurnIssuer.build(["turn:127.0.0.1:3478"], "tier-secret", 120, relay_only=True)
    server = await start_server(turn=issuer)
    a, ja = await create(server, "A")
    b, jb = await join(server, ja["room"], "B")
    await recv(a)
    for joined in (ja, jb):
        (ice,) = joined["iceServers"]
        expiry, user = ice["username"].split(":")
        assert user == joined["you"] and 100 < int(expiry) - time.time() <= 121
        assert ice["credential"] == credential("tier-secret", ice["username"])
        assert joined["iceTransportPolicy"] == "relay"
        assert "tier-secret" not in repr(joined)
    await a.close()
    await b.close()


async def relay_pair(turn_port: int, creds: tuple[str, str]) -> tuple[str, bytes]:
    """Two aioice agents that may only use the relay connect through coturn and trade a datagram;
    returns the candidate type the controlling side sends from and what arrived."""
    agents = [
        aioice.Connection(
            ice_controlling=controlling,
            turn_server=("127.0.0.1", turn_port),
            turn_username=creds[0],
            turn_password=creds[1],
            use_ipv6=False,
            transport_policy=TransportPolicy.RELAY,
        )
        for controlling in (True, False)
    ]
    a, b = agents
    try:
        await asyncio.wait_for(asyncio.gather(a.gather_candidates(), b.gather_candidates()), 15)
        if not a.local_candidates or not b.local_candidates:
            return "", b""
        for me, other in ((a, b), (b, a)):
            for candidate in other.local_candidates:
                await me.add_remote_candidate(candidate)
            await me.add_remote_candidate(None)
            me.remote_username, me.remote_password = other.local_username, other.local_password
        await asyncio.wait_for(asyncio.gather(a.connect(), b.connect()), 20)
        await a.send(b"through the relay")
        data = await asyncio.wait_for(b.recv(), 10)
        pair = a._nominated[1]  # the component's selected pair
        return pair.local_candidate.type, data
    finally:
        await asyncio.gather(a.close(), b.close())


async def test_coturn_relays_with_issued_credentials_and_refuses_others() -> None:
    with running_turn() as turn:
        issuer = TurnIssuer.build([turn.url], turn.secret, 300)
        assert issuer is not None
        ice = issuer.ice_servers("peer-a")[0]
        kind, data = await relay_pair(turn.port, (ice["username"], ice["credential"]))
        assert (kind, data) == ("relay", b"through the relay"), turn.log_text()[-2000:]
        # a credential made with another secret, or one that has expired, gets no allocation
        forged = TurnIssuer.build([turn.url], "not-the-secret", 300)
        assert forged is not None
        bad = forged.ice_servers("peer-b")[0]
        assert await relay_pair(turn.port, (bad["username"], bad["credential"])) == ("", b"")
        old = issuer.ice_servers("peer-c", now=time.time() - 400)[0]
        assert await relay_pair(turn.port, (old["username"], old["credential"])) == ("", b"")
