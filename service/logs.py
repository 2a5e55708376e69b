"""Log lines: one JSON object per line when nobody is watching, text on a terminal.

`configure` runs once, before anything logs (`governance serve` calls it first, so
the Neo4j download and start-up are visible). One handler on the root logger
formats every record, the service's own (`service.*`), uvicorn's and libraries'
warnings alike, so the output is all JSON or all text. uvicorn's access log is
switched off: `service.access` writes one line per request instead
(`service.middleware.access_log`).

A JSON line holds `ts` (UTC, RFC 3339), `level`, `logger` and `msg`, then the
record's fields: what the caller passed as `extra={"fields": {...}}`, and the
`request_id` of the request being handled, if any. Callers pass identifiers and
measurements only, never a credential: nothing here can tell a secret apart.
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal, TextIO

import orjson

from service.settings import LogFormat, LogLevel

# The request being handled in this task; set by `RequestIdMiddleware`.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

# Loggers that follow the configured level; every other library logs warnings only
# (the Neo4j driver's debug lines would show query parameters).
OURS = ("service", "uvicorn")
UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.asgi")
# The logger whose lines a non-serving command shows on standard error by itself.
CLI_PROGRESS = "service.localdb"


def configure(
    fmt: LogFormat = "auto", level: LogLevel = "info", stream: TextIO | None = None
) -> None:
    """Route every log record to `stream` (standard output by default) in one format."""
    out = stream or sys.stdout
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter() if resolve(fmt, out) == "json" else TextFormatter())
    handler.addFilter(_with_request_id)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    # Undo whatever an earlier set-up in this process did: uvicorn's own, and the
    # command line's progress lines for the local Neo4j (`service.cli`).
    for name in (*UVICORN, CLI_PROGRESS):
        logger = logging.getLogger(name)
        logger.handlers, logger.propagate = [], True
        logger.setLevel(logging.NOTSET)
    for name in OURS:
        logging.getLogger(name).setLevel(level.upper())
    access = logging.getLogger("uvicorn.access")
    access.handlers, access.propagate, access.disabled = [], False, True
    logging.captureWarnings(True)


def resolve(fmt: LogFormat, stream: TextIO) -> Literal["json", "text"]:
    """`auto` is text on a terminal and JSON anywhere else (a pipe, a file, a container)."""
    if fmt != "auto":
        return fmt
    isatty = getattr(stream, "isatty", None)
    return "text" if callable(isatty) and isatty() else "json"


def _with_request_id(record: logging.LogRecord) -> bool:
    current = request_id.get()
    if current is not None and not hasattr(record, "request_id"):
        record.request_id = current
    return True


def fields(record: logging.LogRecord) -> dict[str, Any]:
    """The structured part of a record: its request id, then what the caller passed."""
    found: dict[str, Any] = {}
    current = getattr(record, "request_id", None)
    if current is not None:
        found["request_id"] = current
    extra = getattr(record, "fields", None)
    if isinstance(extra, dict):
        found.update(extra)
    return found


def timestamp(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **fields(record),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(line, default=str).decode()


class TextFormatter(logging.Formatter):
    """`2025-01-31T09:00:00.123Z INFO    service.access: GET /healthz 200 request_id=...`"""

    def format(self, record: logging.LogRecord) -> str:
        pairs = " ".join(f"{key}={_plain(value)}" for key, value in fields(record).items())
        line = f"{timestamp(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        line = f"{line} {pairs}" if pairs else line
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            line = f"{line}\n{self.formatStack(record.stack_info)}"
        return line


def _plain(value: Any) -> str:
    text = "-" if value is None else str(value)
    return orjson.dumps(text).decode() if " " in text or not text else text
