"""Run a real Neo4j Community server locally, provisioned from Maven Central.

Used by ``governance neo4j start|stop|status`` for development and by the
test suite, on machines without Docker: the server jars are fetched once with
Maven, and each named instance keeps its data, logs and generated password
under the cache directory (see :func:`default_cache_dir`).
"""

from .errors import LocalNeo4jError
from .info import ConnectionInfo, Status
from .layout import default_cache_dir
from .runtime import NEO4J_VERSION
from .server import LocalNeo4j

__all__ = [
    "NEO4J_VERSION",
    "ConnectionInfo",
    "LocalNeo4j",
    "LocalNeo4jError",
    "Status",
    "default_cache_dir",
]
