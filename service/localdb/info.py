"""Value objects handed to the rest of the application."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ConnectionInfo:
    """What a Bolt client needs to reach a local instance."""

    uri: str
    username: str
    # Kept out of repr so a logged ConnectionInfo never leaks the secret.
    password: str = field(repr=False)


@dataclass(frozen=True)
class Status:
    """Whether an instance's server process is alive, and where it lives."""

    running: bool
    pid: int | None
    uri: str
    home: Path
