"""Where things live on disk: the cache root and one instance's directory tree.

Kept in one place so the conf renderer, the password store and the process
controller cannot disagree about a path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

CACHE_DIR_ENV = "GOVERNANCE_LOCALDB_DIR"


def default_cache_dir() -> Path:
    """``$GOVERNANCE_LOCALDB_DIR`` if set, else ``<repo root>/.cache/neo4j``.

    The repo root is the parent of the ``service`` package, so the cache sits
    beside the checkout (and is git-ignored) rather than in the home directory.
    """
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(__file__).resolve().parents[2] / ".cache" / "neo4j"


@dataclass(frozen=True)
class InstanceLayout:
    """The files of one named instance, all under ``home``.

    ``home`` doubles as Neo4j's ``--home-dir``; its absolute path on the java
    command line is also how a pid is recognised as this instance's server.
    """

    home: Path

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def conf_file(self) -> Path:
        return self.conf_dir / "neo4j.conf"

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def import_dir(self) -> Path:
        """Deliberately empty: ``LOAD CSV`` may only read files from here."""
        return self.home / "import"

    @property
    def plugins_dir(self) -> Path:
        """Deliberately empty: no server-side plugins or procedures are loaded."""
        return self.home / "plugins"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def system_db_dir(self) -> Path:
        """Exists once the server has initialised its auth store (first start)."""
        return self.data_dir / "databases" / "system"

    @property
    def pid_file(self) -> Path:
        return self.home / "localdb.pid"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    @property
    def secret_key_file(self) -> Path:
        """The key webhook secrets are sealed with when the service uses this instance."""
        return self.home / "secret-key"

    @property
    def stdout_log(self) -> Path:
        """JVM stdout/stderr: catches what happens before Neo4j's own logging is up."""
        return self.home / "neo4j.out"

    @property
    def lock_file(self) -> Path:
        return self.home / ".lock"

    def directories(self) -> tuple[Path, ...]:
        """Every directory the server expects to exist before it starts."""
        return (
            self.conf_dir,
            self.data_dir,
            self.logs_dir,
            self.import_dir,
            self.plugins_dir,
            self.run_dir,
        )
