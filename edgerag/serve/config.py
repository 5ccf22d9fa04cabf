"""What `edgerag serve` was asked to do: the indexes it serves, where it listens, its key and its
limits (`ServeConfig`), and the rule that a server reachable from other machines has a key."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MiB = 1 << 20

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
"""An index's name as clients see it (``edgerag:NAME``): letters, digits, ``.``, ``_``, ``-``."""


@dataclass(frozen=True)
class ServeConfig:
    indexes: dict[str, Path]
    """Index name → its directory; each is one model a client can pick (``edgerag:NAME``)."""
    host: str = "127.0.0.1"
    port: int = 8080
    api_key: str | None = None
    """Every route but ``/health`` needs ``Authorization: Bearer KEY`` when set."""
    queue: int = 8
    """Requests that may wait for the model; one more is refused with 503 and Retry-After."""
    max_body_bytes: int = 4 * MiB
    """A JSON request larger than this gets 413."""
    max_upload_bytes: int = 256 * MiB
    """An upload (all its files) larger than this gets 413."""
    uploads: Path = Path(".edgerag/uploads")
    """Where uploaded files and the jobs that index them are kept (a restart resumes them)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """Setting overrides for every index (the CLI's flags: method, budget, model, …)."""
    access_log: bool = True
    """One line a request in the server's log (access_log.py); ``--quiet`` turns it off."""

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def index_names(specs: list[str]) -> dict[str, Path]:
    """``--index`` values, ``PATH`` or ``NAME=PATH``, as name → path; the name defaults to the
    directory's own name. Two indexes with one name are refused."""
    out: dict[str, Path] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not NAME.match(name):
            name, path = Path(spec).name or "index", spec
        if not NAME.match(name):
            raise ValueError(f"--index {spec!r}: name it NAME=PATH, NAME of letters, digits, '.', '_' or '-'")
        if name in out:
            raise ValueError(f"two indexes are named {name!r} ({out[name]} and {path}): name one with --index OTHER={path}")
        out[name] = Path(path)
    if not out:
        raise ValueError("serve at least one index: --index PATH")
    return out


def read_api_key(path: str | Path) -> str:
    """The key in ``path`` (its first line, surrounding blanks removed); a key shorter than 16
    characters is refused: it could be guessed."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"--api-key-file {path}: {getattr(e, 'strerror', None) or e}") from None
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    key = lines[0] if lines else ""
    if len(key) < 16:
        raise ValueError(f"--api-key-file {path}: the key is {len(key)} characters; use at least 16 (e.g. `openssl rand -hex 24 > {path}`)")
    return key


def is_loopback(host: str) -> bool:
    """Whether ``host`` is only reachable from this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, api_key: str | None) -> None:
    """Refuse to listen beyond this machine without a key."""
    if not is_loopback(host) and not api_key:
        raise ValueError(
            f"--host {host} makes the server reachable from other machines: give it a key with --api-key-file PATH "
            "(clients then send `Authorization: Bearer KEY`), or keep the default --host 127.0.0.1"
        )
