"""Configuration of the signalling server: every limit in one dataclass."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from signaling.turn import TurnIssuer


def default_static_dir() -> Path:
    """The built site, ``web/dist`` next to the ``signaling`` package."""
    return Path(__file__).resolve().parent.parent / "web" / "dist"


@dataclass(frozen=True)
class ServerConfig:
    """Limits and paths of one signalling server instance."""

    static_dir: Path = field(default_factory=default_static_dir)
    max_frame_bytes: int = 64 * 1024
    max_players: int = 6
    max_spectators: int = 4
    max_rooms: int = 1000
    msg_rate: float = 50.0
    msg_burst: int = 100
    rate_strikes: int = 20
    join_limit: int = 30
    join_window: float = 60.0
    max_name_chars: int = 32
    heartbeat: float = 30.0
    send_queue: int = 512
    send_queue_bytes: int = 2 * 1024 * 1024
    close_timeout: float = 2.0
    request_timeout: float = 10.0
    max_conns_per_address: int = 100
    trust_forwarded: bool = False
    resume_grace: float = 120.0
    bots: bool = True
    max_bots_per_room: int = 5
    max_bots: int = 20
    bot_server: str = ""
    redis: str = ""
    node_ttl: float = 5.0
    turn: TurnIssuer | None = None  # --turn-url/--turn-secret-file/--turn-ttl, see signaling.turn
