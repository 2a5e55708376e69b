"""The local development instance's key for secrets sealed at rest.

Kept next to the instance's password, readable by its owner only, made once on
first use: webhook secrets sealed under it stay readable across restarts. A
deployment on its own Neo4j sets `GOVERNANCE_SECRET_KEY` instead.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from .errors import LocalNeo4jError
from .password import write_private


def load_or_create_key(path: Path) -> str:
    """The saved key (32 bytes, URL-safe base64), made and saved first if there is none."""
    try:
        key = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = ""
    except OSError as exc:
        raise LocalNeo4jError(f"cannot read the saved secret key {path}: {exc}") from exc
    if not key:
        key = base64.urlsafe_b64encode(os.urandom(32)).decode()
        write_private(path, key + "\n")
    return key
