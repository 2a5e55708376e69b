"""Excerpts of log files for error messages.

When the server fails to come up, the reason is in one of its logs; quoting
their tails in the exception saves the developer a hunt through the cache.
"""

from __future__ import annotations

from pathlib import Path

from .layout import InstanceLayout

_MAX_TAIL_BYTES = 64 * 1024


def tail(path: Path, lines: int) -> str | None:
    """The last ``lines`` lines of ``path``, or ``None`` if it is missing or empty."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - _MAX_TAIL_BYTES))
            data = handle.read()
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace").rstrip()
    if not text:
        return None
    return "\n".join(text.splitlines()[-lines:])


def instance_log_excerpt(layout: InstanceLayout, lines: int = 25) -> str:
    """JVM output, then Neo4j's user log, then its debug log's last warnings/errors."""
    sections: list[str] = []
    for path in (layout.stdout_log, layout.logs_dir / "neo4j.log"):
        text = tail(path, lines)
        if text is not None:
            sections.append(f"--- {path} (last lines) ---\n{text}")
    debug_log = layout.logs_dir / "debug.log"
    debug = tail(debug_log, 2000)
    if debug is not None:
        problems = [line for line in debug.splitlines() if " ERROR " in line or " WARN " in line]
        if problems:
            recent = "\n".join(problems[-lines:])
            sections.append(f"--- {debug_log} (last warnings/errors) ---\n{recent}")
    if not sections:
        return "(no log output was produced)"
    return "\n".join(sections)
