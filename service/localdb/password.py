"""The instance's ``neo4j`` user password: generation, storage, initial setup.

Authentication stays on, and the password is random per instance so a dev
database left running on a shared machine is not open to ``neo4j/neo4j``.

Rather than logging in with the expired default credentials and changing
them over Bolt (which leaves a window where anyone local could claim the
account), the password is installed *before the first start* with Neo4j's own
``neo4j-admin dbms set-initial-password`` command, run from the same jars.
Its arguments go through a 0600 Java ``@argfile`` so the secret never appears
on a process command line.
"""

from __future__ import annotations

import os
import secrets
import string
import subprocess
from pathlib import Path

from .errors import LocalNeo4jError
from .layout import InstanceLayout
from .runtime import ADMIN_MAIN_CLASS

USERNAME = "neo4j"
_ADMIN_TIMEOUT_SECONDS = 180.0


_ALPHABET = string.ascii_letters + string.digits


def generate_password() -> str:
    """32 letters and digits (~190 bits): no quoting issues in URLs, shells or CLIs.

    (``secrets.token_urlsafe`` can start with ``-``, which the admin CLI would
    take for an option.)
    """
    return "".join(secrets.choice(_ALPHABET) for _ in range(32))


def write_private(path: Path, text: str) -> None:
    """Atomically replace ``path`` with ``text``, readable by the owner only."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def save_password(path: Path, password: str) -> None:
    write_private(path, password + "\n")


def load_password(path: Path) -> str | None:
    """The saved password, or ``None`` if none was saved yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LocalNeo4jError(f"cannot read the saved password {path}: {exc}") from exc
    password = text.strip()
    return password or None


def _argfile_quote(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def set_initial_password(java: Path, lib_dir: Path, layout: InstanceLayout, password: str) -> None:
    """Record ``password`` for user ``neo4j``; effective only before the first start.

    Writes ``data/dbms/auth.ini``, which the server imports when it creates
    its system database, so the account is never usable with the default.
    """
    argfile = layout.home / ".set-initial-password.args"
    # "--" ends the options, so even a saved password starting with "-" is positional.
    args = [ADMIN_MAIN_CLASS, "dbms", "set-initial-password", "--", _argfile_quote(password)]
    write_private(argfile, "\n".join(args) + "\n")
    env = dict(os.environ, NEO4J_HOME=str(layout.home), NEO4J_CONF=str(layout.conf_dir))
    command = [
        str(java),
        "-Xms64m",
        "-Xmx256m",
        "-XX:+UseSerialGC",
        "-Dfile.encoding=UTF-8",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "-cp",
        str(lib_dir / "*"),
        f"@{argfile}",
    ]
    try:
        result = subprocess.run(
            command,
            cwd=layout.home,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=_ADMIN_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise LocalNeo4jError(
            f"`neo4j-admin dbms set-initial-password` did not finish within "
            f"{_ADMIN_TIMEOUT_SECONDS:.0f}s for {layout.home}"
        ) from exc
    except OSError as exc:
        raise LocalNeo4jError(f"could not run {java}: {exc}") from exc
    finally:
        argfile.unlink(missing_ok=True)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip() or "(no output)"
        raise LocalNeo4jError(
            f"`neo4j-admin dbms set-initial-password` failed (exit {result.returncode}) "
            f"for {layout.home}:\n{output}"
        )
