"""Inter-process mutual exclusion with ``fcntl`` advisory locks.

Two CLI invocations or pytest-xdist workers may provision the same runtime or
start the same instance at once; a lock file serialises them.  The kernel
drops the lock when its holder dies, so a crashed process never wedges others.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import LocalNeo4jError

_POLL_SECONDS = 0.2


@contextmanager
def file_lock(path: Path, timeout: float, purpose: str) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` for the ``with`` body.

    Polls rather than blocking so a stuck peer yields a clear error instead of
    a silent hang.  The descriptor is close-on-exec (Python's default), so a
    server spawned while the lock is held does not inherit it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LocalNeo4jError(
                        f"timed out after {timeout:.0f}s waiting for another process "
                        f"to finish {purpose} (lock file {path})"
                    ) from None
                time.sleep(_POLL_SECONDS)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
