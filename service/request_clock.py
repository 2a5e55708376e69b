"""How long the request being served has waited on Neo4j, for its `Server-Timing`
header: the middleware starts a tally per request, the graph charges each call's
time to it. Outside a request (start-up, background tasks) nothing is tallied."""

from __future__ import annotations

from contextvars import ContextVar


class Tally:
    __slots__ = ("database_s",)

    def __init__(self) -> None:
        self.database_s = 0.0


_current: ContextVar[Tally | None] = ContextVar("request_tally", default=None)


def begin() -> Tally:
    """A fresh tally for the request running in this context (each request runs in a
    task, so a context, of its own)."""
    tally = Tally()
    _current.set(tally)
    return tally


def detach() -> None:
    """Call first in a task a request spawns for work it does not wait for: the task
    runs in a copy of the request's context, and its time is not the request's."""
    _current.set(None)


def charge_database(seconds: float) -> None:
    tally = _current.get()
    if tally is not None:
        tally.database_s += seconds
