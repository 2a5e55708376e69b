"""`make test`: the suites in order, on one local Neo4j started (and its plans made)
while the suites that need no database run.

Each suite that needs a database (integration, API fuzz, browser, clients) used to
start the test instance and stop it again: four JVM starts, each followed by a minute
or more of CPU in the JIT compilers and the query planner while the session's warm-up
(`warm_plans`) ran on a cold server. Here the instance is started once, and walked
through the everyday paths once, beside the first suites (the linters and the unit
tests, which never touch it); every later suite finds it running, warm and with its
plans made, and leaves it running (`neo4j_for_tests`); this stops it at the end,
unless it was running before or GOVERNANCE_KEEP_TEST_NEO4J is set. A suite still
makes its own session's warm-up and clears the graph as before, so what a test sees
is what it saw when the suite ran alone. With NEO4J_URI or a Docker engine (one
database, or a container per session) the suites simply run in order.

Targets given as `--beside` run in the background beside the first suites too: what
mostly waits on a package index (the Python client's virtualenv), so that the
clients' suite finds it made.

A later step may hold lanes joined by `+`, each a list of targets joined by `,`
("clients-compiled,fuzz-api+clients-scripted,e2e"): with a database for each lane (two or
more integration workers) the lanes run at once, the first on the configured instance, the next on
worker gw1's, and so on (GOVERNANCE_TEST_NEO4J_NAME and _PORT set for it). The API
fuzzer alone keeps about one core busy; beside it two clients' suites and then the
browser tests use the other, and the Java and Go clients' come before the fuzzer. The
first lane's output streams as it runs; the others' is printed after the step. With one database the targets run one after another.

Each target is its own make run, timed: with `--stages FILE` the wall seconds of each
(and of the database's start, and of the install since the time in `--began FILE`)
are written there as JSON, for the summary `make test` prints last
(tests/support/slowest.py).

    python -m tests.support.suite MAKE "lint unit" "integration clients-compiled,fuzz-api+clients-scripted,e2e" \
        --beside clients-deps --began .cache/reports/began --stages .cache/reports/stages.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from tests.support.neo4j_server import (
    Neo4jTarget,
    local_instance,
    local_server_named,
    uses_local_server,
    worker_instance,
)

if TYPE_CHECKING:
    from service.localdb import LocalNeo4j

KEEP = "GOVERNANCE_KEEP_TEST_NEO4J"


Lane = list[str]  # targets run one after another
Step = list[Lane]  # lanes run at once, each on a database of its own


@dataclass(frozen=True)
class Suites:
    first: list[str]  # need no database: run while it starts
    beside: list[str]  # need no database either, and mostly wait on a network: run beside `first`
    then: list[Step]  # run after, on the started databases, step after step


def _make(
    make: str,
    targets: list[str],
    seconds: dict[str, float],
    *variables: str,
    env: dict[str, str] | None = None,
    output: IO[bytes] | None = None,
) -> int:
    """Each target in order (with make `variables`, `env` added to the environment and
    its output to `output` if given), its wall time into `seconds`; stops at the first
    failure."""
    for target in targets:
        started = time.monotonic()
        command = [make, "--no-print-directory", target, *variables]
        environment = {**os.environ, **env} if env else None
        run = subprocess.run(command, env=environment, stdout=output, stderr=output, check=False)
        seconds[target] = round(time.monotonic() - started, 1)
        if run.returncode:
            return run.returncode
    return 0


def _make_steps(
    make: str,
    steps: list[Step],
    databases: list[dict[str, str]],
    seconds: dict[str, float],
    *variables: str,
) -> int:
    """Each step in order, its lanes at once if there is a database for each (the
    environment that points a make run at it), else all its targets one after another;
    stops after the first step that fails."""
    for step in steps:
        if len(step) > 1 and len(step) <= len(databases):
            status = _make_at_once(make, step, databases, seconds, *variables)
        else:
            status = _make(make, [target for lane in step for target in lane], seconds, *variables)
        if status:
            return status
    return 0


def _make_at_once(
    make: str,
    step: Step,
    databases: list[dict[str, str]],
    seconds: dict[str, float],
    *variables: str,
) -> int:
    """The lanes of `step` at once, the k-th on `databases[k]`; the first lane's output
    streams, the others' follows when all have ended. The step's wall time goes into
    `seconds` under its name, each target's as run beside."""
    started = time.monotonic()
    took: dict[str, float] = {}
    first, *others = step
    with ExitStack() as stack:
        outputs = [stack.enter_context(tempfile.TemporaryFile()) for _ in others]
        with ThreadPoolExecutor(max_workers=len(step), thread_name_prefix="lane") as pool:
            runs = [pool.submit(_make, make, first, took, *variables, env=databases[0])]
            runs += [
                pool.submit(_make, make, lane, took, *variables, env=database, output=output)
                for lane, database, output in zip(others, databases[1:], outputs, strict=False)
            ]
            statuses = [run.result() for run in runs]
        for lane, output in zip(others, outputs, strict=True):
            output.seek(0)
            print(f"== {', '.join(lane)}, beside {', '.join(first)}:", flush=True)
            sys.stdout.buffer.write(output.read())
            sys.stdout.flush()
    seconds[_name(step)] = round(time.monotonic() - started, 1)
    seconds.update({f"{target} (beside)": s for target, s in took.items()})
    return next((status for status in statuses if status), 0)


def _name(step: Step) -> str:
    """A step as written: lanes joined by `+`, a lane's targets by `,`."""
    return "+".join(",".join(lane) for lane in step)


def _start_and_prepare(servers: list[LocalNeo4j]) -> float:
    """Start the local instances and make the everyday plans; the seconds it took."""
    from tests.conftest import prepare_database

    started = time.monotonic()
    for server in servers:
        info = server.start()
        prepare_database(Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local"))
    return time.monotonic() - started


def _servers(workers: int) -> list[LocalNeo4j]:
    """The instance of each integration worker: the configured one (worker gw0's, and
    every later suite's), then one more per further worker."""
    name, port = local_instance()
    return [local_server_named(*worker_instance(name, port, n)) for n in range(workers)]


def _environment(server: LocalNeo4j) -> dict[str, str]:
    """What points a make run at `server` (as `local_instance` reads it)."""
    return {
        "GOVERNANCE_TEST_NEO4J_NAME": server.name,
        "GOVERNANCE_TEST_NEO4J_PORT": str(server.settings.bolt_port),
    }


def _run(
    make: str, suites: Suites, servers: list[LocalNeo4j], workers: int, stages: dict[str, float]
) -> int:
    """`first` and `beside` at once, with the databases starting (`servers`, if any)
    beside them too; then the steps of `then`, the integration tests in `workers`
    processes, and a step's targets at once on the databases. The databases this
    started are stopped at the end. Each target's wall seconds go into `stages` (those
    beside under their own names)."""
    running_before = [server.status().running for server in servers]
    beside: dict[str, float] = {}
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="beside") as pool:
        starting = pool.submit(_start_and_prepare, servers) if servers else None
        installing = pool.submit(_make, make, suites.beside, beside)
        try:
            status = _make(make, suites.first, stages) or installing.result()
            stages.update({f"{target} (beside)": s for target, s in beside.items()})
            if starting is not None:
                waited = time.monotonic()
                seconds = starting.result()
                stages["neo4j start and warm-up (beside)"] = round(seconds, 1)
                stages["waiting for the warm-up"] = round(time.monotonic() - waited, 1)
                print(
                    f"suite: {len(servers)} test Neo4j started and warmed in {seconds:.0f} s",
                    flush=True,
                )
            databases = [_environment(server) for server in servers] if len(servers) > 1 else []
            variables = f"TEST_WORKERS={workers}"
            return status or _make_steps(make, suites.then, databases, stages, variables)
        finally:
            # Waited for on any way out: a start holds the instance's lock until it ends.
            installing.exception()
            if starting is not None:
                starting.exception()
            for server, was_running in zip(servers, running_before, strict=True):
                if not was_running and not os.environ.get(KEEP):
                    server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("make", help="the make command to run the suites with")
    parser.add_argument("first", help="suites that need no database, run while it starts")
    parser.add_argument(
        "then", help="suites run after, on the started database; a+b,c: a beside b then c"
    )
    parser.add_argument("--beside", default="", help="targets run in the background beside `first`")
    parser.add_argument(
        "--began", type=Path, help="a file holding when `make test` began (epoch s)"
    )
    parser.add_argument("--stages", type=Path, help="where to write each stage's wall seconds")
    parser.add_argument(
        "--workers", type=int, default=1, help="integration test processes, a Neo4j each"
    )
    args = parser.parse_args(argv)
    steps = [[lane.split(",") for lane in step.split("+")] for step in args.then.split()]
    suites = Suites(args.first.split(), args.beside.split(), steps)
    stages: dict[str, float] = {}
    if args.began is not None and args.began.exists():
        stages["install"] = round(time.time() - float(args.began.read_text()), 1)
    try:
        local = uses_local_server()
        workers = args.workers if local else 1  # one database (NEO4J_URI) serves one process
        servers = _servers(workers) if local else []
        return _run(args.make, suites, servers, 0 if workers == 1 else workers, stages)
    finally:
        if args.stages is not None:
            args.stages.write_text(json.dumps(stages))


if __name__ == "__main__":
    sys.exit(main())
