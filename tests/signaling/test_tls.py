"""HTTPS for LAN play: the real ``python -m signaling`` with TLS on 127.0.0.1 (port 0).

The page and the signalling socket (wss://, same port) are fetched with an SSL context that
trusts only the generated certificate, whose printed SHA-256 fingerprint is checked against the
file and the certificate the server actually presents; a second start reuses the certificate; bad
options and unusable files exit with code 2; a bot the host asks for dials back over wss.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import shlex
import shutil
import ssl
import stat
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from signaling import tls
from signaling.__main__ import parse_args
from signaling.guard import redirect_to_https
from tests.signaling.conftest import expect_error, recv, send

ROOT = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"^serving .* at (https?)://127\.0\.0\.1:(\d+)/$")
FINGERPRINT = re.compile(r"^SHA-256 fingerprint ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$")
PAGE = "<!doctype html><title>стол</title>"


@dataclass
class Running:
    """A started server process and what it printed."""

    process: asyncio.subprocess.Process
    scheme: str
    port: int
    lines: list[str]

    @property
    def fingerprint(self) -> str:
        for line in self.lines:
            if found := FINGERPRINT.match(line):
                return found[1]
        raise AssertionError(f"no fingerprint printed: {self.lines}")


def env_for(data_home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(data_home)}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    static = tmp_path / "dist"
    static.mkdir()
    (static / "index.html").write_text(PAGE, encoding="utf-8")
    return static


@contextlib.asynccontextmanager
async def running(data_home: Path, static: Path, *flags: str) -> AsyncIterator[Running]:
    """``python -m signaling --host 127.0.0.1 --port 0 …`` until its announcement is printed."""
    args = ["-m", "signaling", "--host", "127.0.0.1", "--port", "0", "--static", str(static)]
    args += ["--log-level", "WARNING", *flags]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *args, cwd=ROOT, env=env_for(data_home), stdout=asyncio.subprocess.PIPE
    )
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 30)).decode().rstrip("\n")
        found = SERVING.match(first)
        assert found, f"no serving line: {first!r}"
        lines = [first]
        if found[1] == "https":  # the certificate lines follow at once
            while not lines[-1].startswith("friends open"):
                line = await asyncio.wait_for(process.stdout.readline(), 10)
                assert line, f"output ended early: {lines}"
                lines.append(line.decode().rstrip("\n"))
        yield Running(process, found[1], int(found[2]), lines)
    finally:
        if process.returncode is None:
            process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
        if process.returncode is None:
            process.kill()
            await process.wait()


async def exit_code(data_home: Path, *flags: str) -> tuple[int, str]:
    """Run the server with ``flags``; it must stop by itself. Returns (code, stderr)."""
    args = ["-m", "signaling", "--host", "127.0.0.1", "--port", "0", *flags]
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        cwd=ROOT,
        env=env_for(data_home),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, err = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, err.decode()


def trusting(cert: Path) -> ssl.SSLContext:
    """A client context that trusts this certificate and nothing else (with ``cafile`` the
    system's certificates are not loaded)."""
    return ssl.create_default_context(cafile=str(cert))


def der_fingerprint(cert: Path) -> str:
    der = x509.load_pem_x509_certificate(cert.read_bytes()).public_bytes(serialization.Encoding.DER)
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


async def presented_fingerprint(port: int, context: ssl.SSLContext, name: str) -> str:
    """The fingerprint of the certificate the server presents (verified by ``context``)."""
    _, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname=name)
    try:
        sslobj = writer.get_extra_info("ssl_object")
        der = sslobj.getpeercert(binary_form=True)
        return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError, ssl.SSLError):
            await writer.wait_closed()


async def test_https_page_and_wss_socket_with_the_generated_certificate(
    tmp_path: Path, site: Path
) -> None:
    data_home = tmp_path / "data"
    async with running(data_home, site, "--tls", "on", "--no-bots") as server:
        assert server.scheme == "https"
        folder = data_home / "magic-table" / "tls"
        cert, key = folder / "cert.pem", folder / "key.pem"
        assert cert.is_file() and key.is_file()
        assert stat.S_IMODE(key.stat().st_mode) == 0o600, oct(key.stat().st_mode)
        assert any("made now" in line for line in server.lines), server.lines
        assert f"friends open https://127.0.0.1:{server.port}/" in server.lines
        # The printed fingerprint is the file's and the one the server presents.
        assert server.fingerprint == der_fingerprint(cert)
        context = trusting(cert)
        for name in ("127.0.0.1", "localhost"):  # both are subject alt names
            assert await presented_fingerprint(server.port, context, name) == server.fingerprint
        names = x509.load_pem_x509_certificate(cert.read_bytes()).extensions
        san = names.get_extension_for_class(x509.SubjectAlternativeName).value
        assert "localhost" in san.get_values_for_type(x509.DNSName)
        assert {str(a) for a in san.get_values_for_type(x509.IPAddress)} >= {"127.0.0.1", "::1"}

        base = f"https://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as session:
            async with session.get(base + "/", ssl=context) as response:
                assert response.status == 200
                assert await response.text() == PAGE
            async with session.get(f"https://localhost:{server.port}/healthz", ssl=context) as r:
                assert await r.text() == "ok"
            # Signalling over wss:// on the same port, the certificate pinned by fingerprint.
            pinned = aiohttp.Fingerprint(tls.parse_fingerprint(server.fingerprint))
            ws_url = f"wss://127.0.0.1:{server.port}/ws"
            host = await session.ws_connect(ws_url, ssl=pinned)
            await send(host, {"type": "create", "name": "Аня"})
            joined = await recv(host)
            assert joined["type"] == "joined", joined
            guest = await session.ws_connect(ws_url, ssl=context)
            await send(guest, {"type": "join", "room": joined["room"], "name": "Боря"})
            assert (await recv(guest))["type"] == "joined"
            assert (await recv(host))["type"] == "peer-joined"
            await send(guest, {"type": "signal", "to": joined["you"], "data": {"sdp": "x"}})
            relayed = await recv(host)
            assert relayed["type"] == "signal" and relayed["data"] == {"sdp": "x"}
            # A client that trusts some other certificate is refused the handshake.
            other = tls.make_certificate(
                tls.ec.generate_private_key(tls.ec.SECP256R1()), ["localhost"], []
            )
            stranger_pem = tmp_path / "stranger.pem"
            stranger_pem.write_bytes(other.public_bytes(serialization.Encoding.PEM))
            with pytest.raises(aiohttp.ClientConnectorCertificateError):
                await session.get(base + "/healthz", ssl=trusting(stranger_pem))
            # Plain http to the https port (a friend typed http:// or no scheme): a redirect.
            plain = f"http://127.0.0.1:{server.port}/r/ABC234?x=1"
            async with session.get(plain, allow_redirects=False) as response:
                assert response.status == 307
                assert response.headers["Location"] == f"{base}/r/ABC234?x=1"
            async with session.get(plain, ssl=context) as response:  # followed: the page
                assert response.status == 200 and await response.text() == PAGE
            await host.close()
            await guest.close()


async def silent_until_closed(port: int, first: bytes = b"") -> float:
    """Seconds until the server closes a connection that sends ``first`` and then nothing."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    start = loop.time()
    try:
        if first:
            writer.write(first)
        await asyncio.wait_for(reader.read(), 10)
        return loop.time() - start
    except ConnectionError:
        return loop.time() - start
    finally:
        writer.close()


async def test_tls_connections_are_timed_and_capped_from_accept(tmp_path: Path, site: Path) -> None:
    flags = ["--tls", "on", "--no-bots", "--request-timeout", "1", "--max-conns-per-address", "3"]
    async with running(tmp_path / "data", site, *flags) as server:
        # Silence, half a TLS record, half an HTTP request head: each closed after the timeout.
        waits = await asyncio.gather(
            silent_until_closed(server.port),
            silent_until_closed(server.port, b"\x16\x03"),
            silent_until_closed(server.port, b"GET / HTTP/1.1\r\nHost: x"),
        )
        assert all(0.5 < w < 5 for w in waits), waits
        # The cap counts connections still in their handshake: a fourth one is refused at once.
        held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]
        await asyncio.sleep(0.2)
        assert await silent_until_closed(server.port) < 0.5
        for _, writer in held:
            writer.close()


async def test_second_start_reuses_the_certificate(tmp_path: Path, site: Path) -> None:
    data_home = tmp_path / "data"
    cert = data_home / "magic-table" / "tls" / "cert.pem"
    async with running(data_home, site, "--tls", "on", "--no-bots") as first:
        printed = first.fingerprint
    before = cert.read_bytes()
    async with running(data_home, site, "--tls", "on", "--no-bots") as second:
        assert second.fingerprint == printed
        assert any("kept from an earlier start" in line for line in second.lines), second.lines
        assert await presented_fingerprint(second.port, trusting(cert), "localhost") == printed
    assert cert.read_bytes() == before


async def test_given_certificate_files_are_served(tmp_path: Path, site: Path) -> None:
    made = tmp_path / "mine"
    cert, key, _, _ = tls.ensure_certificate(made, "127.0.0.1")
    data_home = tmp_path / "data"
    # auto: given files mean https even on loopback
    async with running(data_home, site, "--tls-cert", str(cert), "--tls-key", str(key)) as server:
        assert server.scheme == "https"
        assert any(line.endswith(", given") for line in server.lines), server.lines
        assert server.fingerprint == der_fingerprint(cert)
        assert await presented_fingerprint(server.port, trusting(cert), "127.0.0.1") == (
            server.fingerprint
        )
    assert not (data_home / "magic-table").exists()  # nothing made when files are given


async def test_loopback_stays_plain_http_by_default(tmp_path: Path, site: Path) -> None:
    data_home = tmp_path / "data"
    async with running(data_home, site, "--no-bots") as server:
        assert server.scheme == "http"
        url = f"http://127.0.0.1:{server.port}/healthz"
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            assert await response.text() == "ok"
    assert not (data_home / "magic-table").exists()


@pytest.mark.skipif(
    shutil.which("unshare") is None or shutil.which("ip") is None, reason="no unshare"
)
async def test_a_wildcard_bind_serves_https_for_every_address_of_the_host(
    tmp_path: Path, site: Path
) -> None:
    """``--host 0.0.0.0`` (tls auto) in a network namespace of its own, where loopback also holds
    a documentation address standing for a LAN one: the certificate names it and the server
    tells friends to open it."""
    lan = "192.0.2.77"  # TEST-NET-1, only ever on this namespace's loopback
    command = (
        f"ip link set lo up && ip addr add {lan}/24 dev lo && "
        f"exec {shlex.quote(sys.executable)} -m signaling --host 0.0.0.0 --port 0 --no-bots "
        f"--static {shlex.quote(str(site))} --log-level WARNING"
    )
    process = await asyncio.create_subprocess_exec(
        "unshare", "-rn", "sh", "-c", command,
        cwd=ROOT, env=env_for(tmp_path / "data"), stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = []
        while not lines or not lines[-1].startswith("the certificate is self-signed"):
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            assert line, f"output ended early: {lines}"
            lines.append(line.decode().rstrip("\n"))
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 10)
    assert re.match(r"^serving .* at https://0\.0\.0\.0:(\d+)/$", lines[0]), lines
    port = lines[0].rsplit(":", 1)[1].rstrip("/")
    assert f"friends open https://{lan}:{port}/" in lines, lines
    cert = tmp_path / "data" / "magic-table" / "tls" / "cert.pem"
    extensions = x509.load_pem_x509_certificate(cert.read_bytes()).extensions
    san = extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    addresses = {str(a) for a in san.get_values_for_type(x509.IPAddress)}
    assert {lan, "127.0.0.1", "::1"} <= addresses, addresses
    assert "localhost" in san.get_values_for_type(x509.DNSName)


def test_tls_defaults_by_bind_address() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "a.localhost"):
        assert tls.is_loopback(host), host
        assert not tls.wants_tls("auto", host, None), host
        assert tls.wants_tls("on", host, None), host
    for host in ("0.0.0.0", "", "::", "192.0.2.7", "myhost.example"):
        assert not tls.is_loopback(host), host
        assert tls.wants_tls("auto", host, None), host
        assert not tls.wants_tls("off", host, None), host
    assert tls.wants_tls("auto", "127.0.0.1", Path("cert.pem"))
    assert parse_args([]).tls == "auto"


def test_data_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert tls.data_dir() == tmp_path / "magic-table"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert tls.data_dir() == Path.home() / ".local" / "share" / "magic-table"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert tls.data_dir() == Path.home() / ".local" / "share" / "magic-table"


def test_a_certificate_that_no_longer_covers_the_host_is_made_anew(tmp_path: Path) -> None:
    cert, key, made, _ = tls.ensure_certificate(tmp_path, "127.0.0.1")
    assert made
    assert tls.ensure_certificate(tmp_path, "127.0.0.1")[2] is False
    # A certificate for other addresses (the host moved to another network): a new one, same key.
    loaded = serialization.load_pem_private_key(key.read_bytes(), password=None)
    assert isinstance(loaded, tls.ec.EllipticCurvePrivateKey)
    old = tls.make_certificate(loaded, ["localhost"], [])
    cert.write_bytes(old.public_bytes(serialization.Encoding.PEM))
    _, _, made, why = tls.ensure_certificate(tmp_path, "127.0.0.1")
    assert made and "does not cover" in why, why
    key_after = serialization.load_pem_private_key(key.read_bytes(), password=None)
    assert isinstance(key_after, tls.ec.EllipticCurvePrivateKey)
    assert key_after.private_numbers() == loaded.private_numbers()


def test_plain_http_is_redirected_to_the_same_address_over_https() -> None:
    head = b"GET /r/ABC234?a=1 HTTP/1.1\r\nHost: magic.lan:8000\r\nAccept: */*\r\n\r\n"
    answer = redirect_to_https(head, ("192.0.2.9", 8000))
    assert answer.startswith(b"HTTP/1.1 307 ")
    assert b"\r\nLocation: https://magic.lan:8000/r/ABC234?a=1\r\n" in answer
    ipv6 = b"GET / HTTP/1.1\r\nhost: [fd00::5]:8000\r\n\r\n"
    assert b"Location: https://[fd00::5]:8000/\r\n" in redirect_to_https(ipv6, None)
    # No usable Host header (or a forged one): the address the connection came in on.
    for bad in (b"GET / HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n"):
        assert b"Location: https://[::1]:8443/\r\n" in redirect_to_https(bad, ("::1", 8443))
    garbage = redirect_to_https(b"\x00\xffjunk\n\n", ("127.0.0.1", 1))
    assert b"Location: https://127.0.0.1:1/\r\n" in garbage


def test_fingerprints_parse_with_or_without_colons() -> None:
    raw = bytes(range(32))
    text = tls.fingerprint_of(b"x")
    assert tls.parse_fingerprint(text) == hashlib.sha256(b"x").digest()
    assert tls.parse_fingerprint(raw.hex()) == raw
    for bad in ("zz", "AB:CD", raw.hex() + "00"):
        with pytest.raises(ValueError):
            tls.parse_fingerprint(bad)


async def test_bad_tls_options_and_files_exit_2(tmp_path: Path, site: Path) -> None:
    data_home = tmp_path / "data"
    cert, key, _, _ = tls.ensure_certificate(tmp_path / "good", "127.0.0.1")
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    other_key = tmp_path / "other-key.pem"
    _, made_key, _, _ = tls.ensure_certificate(tmp_path / "other", "127.0.0.1")
    other_key.write_bytes(made_key.read_bytes())
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    static = ["--static", str(site)]
    cases: list[tuple[list[str], str, Path]] = [
        (["--tls", "maybe"], "invalid choice", data_home),
        (["--tls-cert", str(cert)], "go together", data_home),
        (["--tls-key", str(key)], "go together", data_home),
        (["--tls", "off", "--tls-cert", str(cert), "--tls-key", str(key)], "--tls off", data_home),
        (["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", str(key)], "no such file",
         data_home),
        (["--tls-cert", str(tmp_path), "--tls-key", str(key)], "not a file", data_home),
        (["--tls-cert", str(garbage), "--tls-key", str(key)], "not a PEM certificate", data_home),
        (["--tls-cert", str(cert), "--tls-key", str(garbage)], "does not fit", data_home),
        (["--tls-cert", str(cert), "--tls-key", str(other_key)], "does not fit", data_home),
        # the data folder cannot be made: XDG_DATA_HOME is a file
        (["--tls", "on"], "cannot keep a TLS certificate", blocker),
    ]  # fmt: skip
    results = await asyncio.gather(
        *(exit_code(home, *static, *flags, "--no-bots") for flags, _, home in cases)
    )
    for (flags, needle, _), (code, err) in zip(cases, results, strict=True):
        assert code == 2, (flags, code, err)
        assert needle in err, (flags, err)
        assert "Traceback" not in err, (flags, err)


async def test_a_bot_dials_back_over_wss_with_the_pinned_certificate(
    tmp_path: Path, site: Path
) -> None:
    data_home = tmp_path / "data"
    async with running(data_home, site, "--tls", "on", "--max-bots-per-room", "1") as server:
        pinned = aiohttp.Fingerprint(tls.parse_fingerprint(server.fingerprint))
        async with aiohttp.ClientSession() as session:
            host = await session.ws_connect(f"wss://127.0.0.1:{server.port}/ws", ssl=pinned)
            await send(host, {"type": "create", "name": "Аня"})
            assert (await recv(host))["type"] == "joined"
            await send(host, {"type": "add-bot"})
            assert await recv(host) == {"type": "bot-added", "name": "Бот 1"}
            arrived = await recv(host, timeout=60)
            assert arrived["type"] == "peer-joined", arrived
            assert arrived["peer"]["name"] == "Бот 1"
            await send(host, {"type": "add-bot"})
            await expect_error(host, "too-many-bots")
            await host.close()


def test_peer_command_line_refuses_a_bad_fingerprint() -> None:
    from signaling.peer import parse_args as peer_args
    from signaling.peer import server_ssl

    base = ["--server", "wss://127.0.0.1:1/ws", "--create", "--name", "x"]
    with pytest.raises(SystemExit) as stopped:
        peer_args([*base, "--server-fingerprint", "AB:CD"])
    assert stopped.value.code == 2
    good = tls.fingerprint_of(b"cert")
    args = peer_args([*base, "--server-fingerprint", good])
    assert isinstance(server_ssl(args.server_fingerprint), aiohttp.Fingerprint)
    assert server_ssl("") is True
