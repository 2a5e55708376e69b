"""Wait until a freshly launched server serves authenticated Bolt queries.

A listening port is not enough: the databases may still be starting, and
only an authenticated ``RETURN 1`` proves the saved password is right too.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from .config import LOOPBACK
from .errors import LocalNeo4jError
from .info import ConnectionInfo

_POLL_SECONDS = 0.25
_CONNECT_TIMEOUT_SECONDS = 5.0

log = logging.getLogger(__name__)


class ServerExited(LocalNeo4jError):
    """The server process died before it became ready."""


class AuthenticationRejected(LocalNeo4jError):
    """The server is up but refuses the saved credentials."""


def port_accepts(port: int, timeout: float = 0.5) -> bool:
    """Whether something accepts TCP connections on loopback ``port``."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=timeout):
            return True
    except OSError:
        return False


def query_once(info: ConnectionInfo, timeout: float) -> None:
    """Run ``RETURN 1`` as the instance's user; raises the driver's error on failure."""
    with (
        GraphDatabase.driver(
            info.uri,
            auth=(info.username, info.password),
            connection_timeout=timeout,
            connection_acquisition_timeout=timeout,
            max_connection_pool_size=1,
        ) as driver,
        driver.session() as session,
    ):
        session.run("RETURN 1").consume()


def wait_until_ready(
    info: ConnectionInfo, port: int, deadline: float, is_alive: Callable[[], bool]
) -> None:
    """Poll until ``RETURN 1`` succeeds, the process dies, or ``deadline`` (monotonic) passes."""
    last_error = "Bolt port not open yet"
    while True:
        if not is_alive():
            raise ServerExited("the Neo4j process exited during startup")
        if port_accepts(port):
            remaining = max(0.5, min(_CONNECT_TIMEOUT_SECONDS, deadline - time.monotonic()))
            try:
                query_once(info, remaining)
                return
            except AuthError as exc:
                raise AuthenticationRejected(f"{info.uri} rejected the password: {exc}") from exc
            except (DriverError, Neo4jError, OSError) as exc:
                last_error = f"{type(exc).__name__}: {exc}"
                log.debug("Neo4j at %s not ready yet: %s", info.uri, last_error)
        if time.monotonic() >= deadline:
            raise LocalNeo4jError(f"timed out; last attempt: {last_error}")
        time.sleep(_POLL_SECONDS)
