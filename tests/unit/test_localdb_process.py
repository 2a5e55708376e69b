"""Stopping a server this process spawned ends with the child reaped, never left behind
(a child left unreaped makes Popen warn "still running" when it is collected)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.localdb import process
from tests.support.waiting import eventually

MAIN_CLASS = "org.example.Server"

# The main thread ends first (as the JVM's does on the way out) while another thread
# lives on until SIGTERM: /proc then shows the process as a zombie, yet it still runs.
MAIN_THREAD_ENDS_FIRST = """
import ctypes, os, signal, threading
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
def until_sigterm():
    signal.sigwait({signal.SIGTERM})
    os._exit(0)
threading.Thread(target=until_sigterm).start()
ctypes.CDLL(None).pthread_exit(None)
"""


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]


@pytest.fixture
def spawned(tmp_path: Path) -> Iterator[int]:
    command = [sys.executable, "-c", MAIN_THREAD_ENDS_FIRST, MAIN_CLASS, f"--home-dir={tmp_path}"]
    pid = process.spawn_detached(command, tmp_path, {}, tmp_path / "out.log")
    child = process._children[pid]
    yield pid
    if child.poll() is None:  # what a failing stop left behind
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    process._children.pop(pid, None)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_terminate_stops_and_reaps_a_child_whose_main_thread_has_ended(
    spawned: int, tmp_path: Path
) -> None:
    child = process._children[spawned]
    eventually(lambda: _state(spawned) == "Z", what="the child's main thread ended")
    assert child.poll() is None  # not reapable: another thread still runs

    process.terminate(spawned, MAIN_CLASS, tmp_path, timeout=30)

    assert child.returncode == 0
    assert spawned not in process._children
