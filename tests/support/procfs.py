"""Which process holds which connection, read from /proc (Linux): how the tests of
`serve --workers` find the worker a kept-alive connection landed on."""

from __future__ import annotations

import os
from pathlib import Path


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid`."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            after_name = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(after_name[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def connections_to(port: int) -> dict[int, int]:
    """Socket inode -> client port, for each established connection to local `port`."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            cols = row.split()
            local, remote, state, inode = cols[1], cols[2], cols[3], int(cols[9])
            if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:
                found[inode] = int(remote.rsplit(":", 1)[1], 16)
    return found


def holders(pids: set[int], port: int) -> dict[int, int]:
    """Client port -> the process (of `pids`) holding the server end of that connection."""
    connections = connections_to(port)
    held = {}
    for pid in pids:
        try:
            links = [os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()]
        except OSError:
            continue
        for link in links:
            if link.startswith("socket:[") and int(link[8:-1]) in connections:
                held[connections[int(link[8:-1])]] = pid
    return held


def environment(pid: int) -> dict[str, str]:
    """The environment the process `pid` started with."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (entry.decode().partition("=") for entry in raw.split(b"\0") if entry)
    return {name: value for name, _, value in pairs}


def describe(pid: int) -> str:
    """`pid`, its state letter (Z: ended, not reaped) and its command line, for a report."""
    try:
        name, _, rest = Path(f"/proc/{pid}/stat").read_text().rpartition(")")
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return f"{pid} (ended meanwhile)"
    command = raw.rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace")
    return f"{pid} [{rest.split()[0]}] {command or name.partition('(')[2]}"
