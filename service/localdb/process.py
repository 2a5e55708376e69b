"""Detached server processes: spawn, recognise by pid, terminate.

The server must outlive the short-lived CLI command that starts it, so it
runs in its own session with output to a file, and is found again later
through a pid file.  A pid file can outlive its process (crash, reboot) and
the pid can be reused, so a pid only counts if that process's command line
is a Neo4j server with this instance's ``--home-dir``.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .errors import LocalNeo4jError

_POLL_SECONDS = 0.1
_KILL_GRACE_SECONDS = 15.0
_EMPTY_CMDLINE_RETRIES = 100

log = logging.getLogger(__name__)

# Servers spawned by this Python process, kept so they can be reaped (no
# zombies while a test session stops and restarts servers) and so Popen does
# not warn about a still-running child when it is garbage collected.
_children: dict[int, subprocess.Popen[bytes]] = {}


def spawn_detached(command: Sequence[str], cwd: Path, env: dict[str, str], output: Path) -> int:
    """Start ``command`` in a new session with stdout/stderr to ``output``; return its pid."""
    with output.open("wb") as out:
        try:
            proc = subprocess.Popen(
                list(command),
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            raise LocalNeo4jError(f"could not launch {command[0]}: {exc}") from exc
    _children[proc.pid] = proc
    return proc.pid


def reap(pid: int) -> None:
    """Collect the exit status of ``pid`` if we spawned it and it exited; no-op otherwise."""
    proc = _children.get(pid)
    if proc is not None and proc.poll() is not None:
        del _children[pid]


def _linux_command_line(pid: int) -> str | None:
    # Right after exec the kernel briefly reports an empty command line, so an
    # empty one is only believed for zombies; otherwise it is re-read.
    for _ in range(_EMPTY_CMDLINE_RETRIES):
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        state = stat.rpartition(")")[2].split()[:1]
        if state and state[0] in ("Z", "X"):
            return None
        if raw:
            return raw.rstrip(b"\0").decode("utf-8", errors="replace").replace("\0", " ")
        time.sleep(0.01)
    return None


def _ps_command_line(pid: int) -> str | None:
    # macOS and other POSIX systems: ask ps.
    try:
        result = subprocess.run(
            ["ps", "-o", "stat=", "-o", "command=", "-p", str(pid)],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    line = result.stdout.strip()
    if result.returncode != 0 or not line:
        return None
    stat, _, command = line.partition(" ")
    if stat.startswith("Z"):
        return None
    return command.strip()


def command_line(pid: int) -> str | None:
    """The space-joined argv of a live process, or ``None`` if it is gone or a zombie."""
    if pid <= 0:
        return None
    reap(pid)
    if sys.platform.startswith("linux"):
        return _linux_command_line(pid)
    return _ps_command_line(pid)


def is_server_process(pid: int, main_class: str, home: Path) -> bool:
    """Whether ``pid`` is alive and is the server ``main_class`` for ``home``."""
    command = command_line(pid)
    if command is None:
        return False
    # Whole-argument matches, so ".../dev" does not match a server in ".../dev2".
    padded = f" {command} "
    return f" {main_class} " in padded and f" --home-dir={home} " in padded


def read_pid(pid_file: Path) -> int | None:
    try:
        text = pid_file.read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def write_pid(pid_file: Path, pid: int) -> None:
    tmp = pid_file.with_name(f".{pid_file.name}.tmp")
    tmp.write_text(f"{pid}\n", encoding="ascii")
    os.replace(tmp, pid_file)


def _running(pid: int, main_class: str, home: Path) -> bool:
    """Whether ``pid`` still has to be stopped: a child of ours until it is reaped.

    For our own child, waitpid is the truth, not /proc: once the JVM's main thread
    has exited /proc shows a zombie while its other threads still run or exit, and
    a child taken for gone then was never reaped (Popen warned at exit that it was
    still running).
    """
    proc = _children.get(pid)
    if proc is None:
        return is_server_process(pid, main_class, home)
    if proc.poll() is None:
        return True
    del _children[pid]
    return False


def _wait_until_gone(pid: int, main_class: str, home: Path, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _running(pid, main_class, home):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_SECONDS)
    return True


def terminate(pid: int, main_class: str, home: Path, timeout: float) -> None:
    """SIGTERM (Neo4j checkpoints and shuts down cleanly), then SIGKILL after ``timeout``.

    Returns once the server is gone and, if this Python process spawned it, reaped.
    """
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, _KILL_GRACE_SECONDS)):
        if not _running(pid, main_class, home):
            return
        if sig == signal.SIGKILL:
            log.warning("Neo4j process %d ignored SIGTERM for %.0fs; sending SIGKILL", pid, timeout)
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        except PermissionError as exc:
            raise LocalNeo4jError(f"not allowed to signal Neo4j process {pid}: {exc}") from exc
        if _wait_until_gone(pid, main_class, home, wait):
            return
    raise LocalNeo4jError(f"Neo4j process {pid} survived SIGKILL; check it with `ps -p {pid}`")
