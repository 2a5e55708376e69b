"""Locate and vet the external tools the local server needs: ``java`` and ``mvn``.

Neo4j 5 refuses to run on anything older than Java 17, and its failure on an
old JVM (``UnsupportedClassVersionError``) is cryptic, so the version is
checked up front.  ``JAVA_HOME`` wins over ``PATH`` because that is what
developers set to pick among several installed JDKs (Maven honours it too).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

from .errors import LocalNeo4jError

MIN_JAVA_MAJOR = 17

_VERSION_RE = re.compile(r'version "(\d+)(?:\.(\d+))?')


def java_executable() -> Path:
    """The ``java`` binary from ``JAVA_HOME`` if set, else from ``PATH``."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        candidate = Path(java_home) / "bin" / "java"
        if not os.access(candidate, os.X_OK):
            raise LocalNeo4jError(
                f"JAVA_HOME is set to {java_home!r} but {candidate} is not an executable; "
                "fix JAVA_HOME or unset it to use the java on PATH"
            )
        return candidate
    found = shutil.which("java")
    if found is None:
        raise LocalNeo4jError(
            f"java not found: install a JDK {MIN_JAVA_MAJOR} or 21 "
            "(e.g. `apt-get install openjdk-17-jre-headless`) or set JAVA_HOME"
        )
    return Path(found)


def parse_java_major(version_output: str) -> int | None:
    """Major version from ``java -version`` output; handles ``1.8.0_x`` and ``21-ea``."""
    match = _VERSION_RE.search(version_output)
    if match is None:
        return None
    major = int(match.group(1))
    if major == 1 and match.group(2) is not None:
        return int(match.group(2))
    return major


@functools.cache
def _java_major(java: Path) -> int | None:
    try:
        result = subprocess.run(
            [str(java), "-version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LocalNeo4jError(f"could not run `{java} -version`: {exc}") from exc
    # The JVM prints its version banner on stderr.
    return parse_java_major(result.stderr + result.stdout)


def require_java() -> Path:
    """The ``java`` to use, after checking it is at least Java 17."""
    java = java_executable()
    major = _java_major(java)
    if major is None:
        raise LocalNeo4jError(f"could not determine the version of {java} (`java -version`)")
    if major < MIN_JAVA_MAJOR:
        raise LocalNeo4jError(
            f"{java} is Java {major}; Neo4j 5 needs Java {MIN_JAVA_MAJOR} or newer "
            "(set JAVA_HOME to a JDK 17 or 21)"
        )
    return java


def mvn_executable() -> Path:
    """The ``mvn`` binary on ``PATH``; only needed the first time a runtime is provisioned."""
    found = shutil.which("mvn")
    if found is None:
        raise LocalNeo4jError(
            "mvn (Apache Maven) not found on PATH; it is needed once to download the "
            "Neo4j jars from Maven Central (e.g. `apt-get install maven`)"
        )
    return Path(found)
