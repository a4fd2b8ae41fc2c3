"""The address students on the same wifi use to reach this laptop."""

import socket
from urllib.parse import urlsplit


def lan_ip() -> str:
    """This machine's address on its local network, or 127.0.0.1 if it has none.

    Connecting a UDP socket sends nothing; it only asks the OS which interface would be used.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def join_url(host: str, *, secure: bool, code: str) -> str:
    """The address phones open to join: the laptop's wifi address when the teacher browses
    the console on the laptop itself (localhost means nothing on a phone)."""
    parts = urlsplit(f"//{host}")
    name = parts.hostname or ""
    if name in ("", "localhost", "127.0.0.1", "::1"):
        name = lan_ip()
    elif ":" in name:
        name = f"[{name}]"
    address = f"{name}:{parts.port}" if parts.port else name
    return f"{'https' if secure else 'http'}://{address}/join/{code}/"
