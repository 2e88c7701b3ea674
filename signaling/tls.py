"""HTTPS for play beyond this machine: a locally made, self-signed certificate, or given files.

Browsers grant WebCrypto, the microphone and the camera only to a *secure context*: ``https://``,
or plain ``http://`` from ``localhost``/``127.0.0.0/8``. A friend opening ``http://<LAN address>/``
gets neither, so a server bound beyond loopback serves HTTPS (and the signalling socket becomes
``wss://`` on the same port). Without ``--tls-cert``/``--tls-key`` it makes one ECDSA P-256 key
and a self-signed certificate for this host's addresses and ``localhost`` with ``cryptography``,
keeps both under the user's data folder (``$XDG_DATA_HOME/magic-table/tls``, by default
``~/.local/share/magic-table/tls``) and reuses them on later starts while they still cover the
host's addresses and are valid for a month more. Its SHA-256 fingerprint is printed, so a friend
whose browser warns about the certificate can compare it before clicking through.

Nothing here sends a packet: the host's addresses are read from its interfaces, never looked up.
"""

from __future__ import annotations

import array
import contextlib
import datetime
import hashlib
import ipaddress
import os
import socket
import ssl
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

TLS_MODES = ("auto", "on", "off")
CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"
VALID_DAYS = 397  # the longest validity browsers accept for a server certificate
RENEW_DAYS = 30  # a certificate valid for fewer days than this is made anew
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


class TLSError(Exception):
    """The TLS set-up cannot go on (a bad option, an unreadable file); exit code 2."""


@dataclass(frozen=True)
class TLSSetup:
    """What the server serves HTTPS with."""

    context: ssl.SSLContext
    cert_path: Path
    key_path: Path
    fingerprint: str  # SHA-256 of the (first) certificate, AB:CD:… as browsers show it
    made: bool  # True when the certificate was made by this start
    generated: bool  # True for our own self-signed certificate, False for given files
    why: str = ""  # why a certificate was made by this start


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses; ``""``/``0.0.0.0``/``::`` are not."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def wants_tls(mode: str, host: str, cert: Path | None) -> bool:
    """``on``/``off`` as said; ``auto``: HTTPS unless bound to loopback only (or files given)."""
    if mode == "on":
        return True
    if mode == "off":
        return False
    return cert is not None or not is_loopback(host)


def data_dir() -> Path:
    """Where this program keeps its files: ``$XDG_DATA_HOME/magic-table`` or
    ``~/.local/share/magic-table``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "magic-table"


def fingerprint_of(der: bytes) -> str:
    """SHA-256 of a DER certificate as colon-separated upper-case hex (``AB:CD:…``)."""
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())


def parse_fingerprint(text: str) -> bytes:
    """The 32 bytes of a SHA-256 fingerprint written with or without colons or spaces."""
    digits = text.replace(":", "").replace(" ", "").strip()
    try:
        raw = bytes.fromhex(digits)
    except ValueError:
        raise ValueError(f"not a hex SHA-256 fingerprint: {text!r}") from None
    if len(raw) != 32:
        raise ValueError(f"a SHA-256 fingerprint has 32 bytes, not {len(raw)}: {text!r}")
    return raw


# ---- this host's addresses (read from the interfaces; nothing is sent) --------------------------


def _ipv4_of_interfaces() -> set[IPAddress]:
    """Linux: each interface's (primary) IPv4 address, asked of the kernel with an ioctl."""
    found: set[IPAddress] = set()
    if not sys.platform.startswith("linux"):
        return found
    import fcntl

    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in names:
            request = struct.pack("256s", name.encode()[:15])
            buffer = array.array("B", request)
            try:
                fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, buffer)
            except OSError:  # an interface without an IPv4 address
                continue
            found.add(ipaddress.IPv4Address(bytes(buffer[20:24])))
    return found


def _ipv4_local_routes() -> set[IPAddress]:
    """Linux: every local IPv4 address, secondary ones too (``/32 host LOCAL`` in fib_trie)."""
    found: set[IPAddress] = set()
    with contextlib.suppress(OSError):
        last = ""
        for line in Path("/proc/net/fib_trie").read_text().splitlines():
            text = line.strip()
            if text.startswith(("|--", "+--")):
                last = text[3:].strip()
            elif text == "/32 host LOCAL" and last:
                with contextlib.suppress(ValueError):
                    found.add(ipaddress.IPv4Address(last))
    return found


def _ipv6_of_interfaces() -> set[IPAddress]:
    found: set[IPAddress] = set()
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            fields = line.split()
            if fields:
                with contextlib.suppress(ValueError):
                    address = ipaddress.IPv6Address(bytes.fromhex(fields[0]))
                    if not address.is_link_local:  # a URL cannot name one without a zone
                        found.add(address)
    return found


def host_addresses() -> list[IPAddress]:
    """Every address of this host's interfaces (IPv4 first), loopback included."""
    found = _ipv4_of_interfaces() | _ipv4_local_routes() | _ipv6_of_interfaces()
    found |= {ipaddress.IPv4Address("127.0.0.1"), ipaddress.IPv6Address("::1")}
    return sorted(found, key=lambda a: (a.version, a.is_loopback, int(a)))


def lan_addresses() -> list[IPAddress]:
    """The host's addresses that other machines may reach (not loopback)."""
    return [a for a in host_addresses() if not a.is_loopback]


def wanted_names(host: str) -> tuple[list[str], list[IPAddress]]:
    """DNS names and IP addresses the certificate should cover for a server bound to ``host``."""
    names = ["localhost"]
    hostname = socket.gethostname().strip().rstrip(".").lower()
    if hostname and hostname != "localhost" and _dns_name_ok(hostname):
        names += [hostname] if "." in hostname else [hostname, hostname + ".local"]
    addresses = host_addresses()
    bare = host.strip("[]")
    try:
        bound = ipaddress.ip_address(bare)
    except ValueError:
        if bare and _dns_name_ok(bare.lower()) and bare.lower() not in names:
            names.append(bare.lower())
    else:
        if not bound.is_unspecified and bound not in addresses:
            addresses.append(bound)
    return names, addresses


def _dns_name_ok(name: str) -> bool:
    labels = name.split(".")
    return all(
        0 < len(label) <= 63 and all(c.isalnum() or c == "-" for c in label) and label.isascii()
        for label in labels
    )


# ---- the certificate -----------------------------------------------------------------------------


def make_certificate(
    key: ec.EllipticCurvePrivateKey, names: list[str], addresses: list[IPAddress]
) -> x509.Certificate:
    """A self-signed server certificate for ``names`` and ``addresses``."""
    now = datetime.datetime.now(datetime.UTC)
    hostname = names[1] if len(names) > 1 else names[0]
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, f"magic-table on {hostname}"[:64]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Магия есть. Тормозов нет."),
        ]
    )
    alt: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alt += [x509.IPAddress(a) for a in addresses]
    public = key.public_key()
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )


def _why_not_reuse(
    cert: x509.Certificate, key: ec.EllipticCurvePrivateKey, addresses: list[IPAddress]
) -> str | None:
    """Why a stored certificate cannot be used again, or None when it can."""
    if cert.public_key() != key.public_key():
        return "it does not match the key"
    left = cert.not_valid_after_utc - datetime.datetime.now(datetime.UTC)
    if left < datetime.timedelta(days=RENEW_DAYS):
        return "it expires soon"
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return "it names no address"
    covered = set(san.get_values_for_type(x509.IPAddress))
    missing = [str(a) for a in addresses if a not in covered]
    if missing:
        return "it does not cover " + ", ".join(missing)
    return None


def _write_private(path: Path, data: bytes, mode: int) -> None:
    """Write a file atomically, readable by its owner only when ``mode`` says so."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def ensure_certificate(folder: Path, host: str) -> tuple[Path, Path, bool, str]:
    """The key and certificate under ``folder``, made or renewed when needed.

    Returns (certificate path, key path, made now, why it was made or "")."""
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    names, addresses = wanted_names(host)
    key: ec.EllipticCurvePrivateKey | None = None
    reason = "there was none"
    try:
        if key_path.exists():
            loaded = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
            if isinstance(loaded, ec.EllipticCurvePrivateKey):
                key = loaded
        if key is not None and cert_path.exists():
            cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
            why = _why_not_reuse(cert, key, addresses)
            if why is None:
                return cert_path, key_path, False, ""
            reason = why
    except (OSError, ValueError) as exc:
        reason = f"the stored one could not be read ({exc})"
        key = None
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if key is None:
            key = ec.generate_private_key(ec.SECP256R1())
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            _write_private(key_path, pem, 0o600)
        cert = make_certificate(key, names, addresses)
        _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    except OSError as exc:
        raise TLSError(
            f"cannot keep a TLS certificate in {folder}: {exc.strerror or exc} "
            "(set XDG_DATA_HOME, or give --tls-cert and --tls-key)"
        ) from None
    return cert_path, key_path, True, reason


def load_context(cert_path: Path, key_path: Path) -> tuple[ssl.SSLContext, str]:
    """A server SSL context for these files and the first certificate's fingerprint."""
    for what, path in (("--tls-cert", cert_path), ("--tls-key", key_path)):
        if not path.exists():
            raise TLSError(f"{what} {path}: no such file")
        if not path.is_file():
            raise TLSError(f"{what} {path}: not a file")
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            raise TLSError(f"{what} {path}: cannot read it ({exc.strerror or exc})") from None
    try:
        certs = x509.load_pem_x509_certificates(cert_path.read_bytes())
    except ValueError:
        raise TLSError(f"--tls-cert {cert_path}: not a PEM certificate") from None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert_path, key_path)
    except (ssl.SSLError, ValueError) as exc:
        raise TLSError(
            f"--tls-key {key_path} does not fit --tls-cert {cert_path} "
            f"or is not a PEM key without a password ({exc})"
        ) from None
    der = certs[0].public_bytes(serialization.Encoding.DER)
    return context, fingerprint_of(der)


def setup_tls(
    host: str, cert: Path | None = None, key: Path | None = None, folder: Path | None = None
) -> TLSSetup:
    """Given files, or our own certificate under ``folder`` (default: the user's data folder)."""
    if (cert is None) != (key is None):
        raise TLSError("--tls-cert and --tls-key go together: give both or neither")
    if cert is not None and key is not None:
        context, fingerprint = load_context(cert, key)
        return TLSSetup(context, cert, key, fingerprint, made=False, generated=False)
    folder = folder or data_dir() / "tls"
    cert_path, key_path, made, why = ensure_certificate(folder, host)
    context, fingerprint = load_context(cert_path, key_path)
    return TLSSetup(context, cert_path, key_path, fingerprint, made, generated=True, why=why)
