"""`make test`'s runner (tests/support/suite.py): the database is started beside the
first suites, the later suites run only once it is ready, and it is stopped at the
end, failure or not, unless it was running before."""

from __future__ import annotations

import json
import stat
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support import suite
from tests.support.neo4j_server import worker_instance


class FakeServer:
    """Stands for the local Neo4j: whether it runs, and what was done to it."""

    def __init__(self, running: bool, name: str = "test", bolt_port: int = 17688) -> None:
        self.running = running
        self.stopped = threading.Event()
        self.name = name
        self.settings = SimpleNamespace(bolt_port=bolt_port)

    def status(self) -> FakeServer:
        return self

    def stop(self) -> None:
        self.stopped.set()


@pytest.fixture(autouse=True)
def default_instance(monkeypatch: pytest.MonkeyPatch) -> None:
    """The configured test instance is the default one (`test`), whatever this run's is."""
    monkeypatch.delenv("GOVERNANCE_TEST_NEO4J_NAME", raising=False)
    monkeypatch.delenv("GOVERNANCE_TEST_NEO4J_PORT", raising=False)


@pytest.fixture
def make(tmp_path: Path) -> tuple[str, Path]:
    """A stand-in for make that logs the suites it is asked for and fails `broken`."""
    log = tmp_path / "make.log"
    script = tmp_path / "make"
    script.write_text(
        "#!/bin/sh\n"
        "shift\n"  # --no-print-directory
        f'echo "$@${{GOVERNANCE_TEST_NEO4J_NAME:+ on $GOVERNANCE_TEST_NEO4J_NAME}}" >> {log}\n'
        'echo "made $1"\n'
        # `waits` ends once `signals` has run (bounded: it fails after 20 s without).
        f'case "$1" in signals) touch {log}.signal;; waits)\n'
        f"  for _ in $(seq 200); do [ -e {log}.signal ] && exit 0; sleep 0.1; done; exit 3;;\n"
        "esac\n"
        'case " $* " in *" broken "*) exit 2;; esac\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script), log


def _use(
    monkeypatch: pytest.MonkeyPatch,
    server: FakeServer,
    ready: threading.Event,
    *others: FakeServer,
) -> None:
    """`server` is the configured instance, `others` those of further workers."""

    def start_and_prepare(servers: list[FakeServer]) -> float:
        assert servers == [server, *others]
        assert not any(s.stopped.is_set() for s in servers)
        ready.set()
        return 0.0

    def servers_for(workers: int) -> list[FakeServer]:
        assert workers == 1 + len(others)
        return [server, *others]

    monkeypatch.setattr(suite, "uses_local_server", lambda: True)
    monkeypatch.setattr(suite, "_servers", servers_for)
    monkeypatch.setattr(suite, "_start_and_prepare", start_and_prepare)
    monkeypatch.delenv("GOVERNANCE_KEEP_TEST_NEO4J", raising=False)


def _none_running(monkeypatch: pytest.MonkeyPatch, databases: int) -> list[FakeServer]:
    """`databases` instances, none running before, in use (`_use`)."""
    servers = [FakeServer(False, *worker_instance("test", 17688, n)) for n in range(databases)]
    _use(monkeypatch, servers[0], threading.Event(), *servers[1:])
    return servers


def test_the_later_suites_run_on_the_started_database_which_is_stopped_after(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, ready = FakeServer(running=False), threading.Event()
    _use(monkeypatch, server, ready)
    command, log = make
    assert suite.main([command, "lint unit", "integration e2e"]) == 0
    assert log.read_text().splitlines() == [
        "lint",
        "unit",
        "integration TEST_WORKERS=0",
        "e2e TEST_WORKERS=0",
    ]
    assert ready.is_set() and server.stopped.is_set()


def test_two_workers_get_a_database_each_started_beside_and_stopped_after(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, second, ready = FakeServer(running=True), FakeServer(running=False), threading.Event()
    _use(monkeypatch, server, ready, second)
    command, log = make
    assert suite.main([command, "lint", "integration", "--workers", "2"]) == 0
    assert log.read_text().splitlines() == ["lint", "integration TEST_WORKERS=2"]
    assert ready.is_set() and second.stopped.is_set()
    assert not server.stopped.is_set()  # it was running before


def test_a_failing_first_suite_skips_the_rest_and_still_stops_the_database(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, ready = FakeServer(running=False), threading.Event()
    _use(monkeypatch, server, ready)
    command, log = make
    assert suite.main([command, "broken", "integration"]) == 2
    assert log.read_text().splitlines() == ["broken"]
    assert ready.is_set() and server.stopped.is_set()


def test_a_database_that_was_running_before_is_left_running(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, ready = FakeServer(running=True), threading.Event()
    _use(monkeypatch, server, ready)
    command, _ = make
    assert suite.main([command, "lint", "integration"]) == 0
    assert not server.stopped.is_set()


def test_what_runs_beside_the_first_suites_must_pass_before_the_rest_run(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, ready = FakeServer(running=False), threading.Event()
    _use(monkeypatch, server, ready)
    command, log = make
    assert suite.main([command, "lint", "integration", "--beside", "broken"]) == 2
    assert sorted(log.read_text().splitlines()) == ["broken", "lint"]
    assert server.stopped.is_set()


def test_without_the_local_database_the_suites_simply_run_in_order(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suite, "uses_local_server", lambda: False)
    command, log = make
    assert suite.main([command, "lint", "broken integration"]) == 2
    assert log.read_text().splitlines() == ["lint", "broken TEST_WORKERS=0"]


def test_each_stage_is_timed_and_written_for_the_summary_even_on_a_failure(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    server, ready = FakeServer(running=False), threading.Event()
    _use(monkeypatch, server, ready)
    command, _ = make
    began, written = tmp_path / "began", tmp_path / "stages.json"
    began.write_text(str(int(time.time()) - 30))
    arguments = ["lint unit", "integration broken e2e", "--beside", "deps"]
    assert suite.main([command, *arguments, "--began", str(began), "--stages", str(written)]) == 2
    stages = json.loads(written.read_text())
    assert list(stages) == [
        "install",
        "lint",
        "unit",
        "deps (beside)",
        "neo4j start and warm-up (beside)",
        "waiting for the warm-up",
        "integration",
        "broken",
    ]
    assert stages["install"] >= 30 and all(seconds >= 0 for seconds in stages.values())


def test_the_first_worker_takes_the_configured_instance_and_the_others_their_own() -> None:
    from tests.support.neo4j_server import worker_instance

    assert worker_instance("run", 17900, 0) == ("run", 17900)
    assert worker_instance("run", 17900, 1) == ("run-gw1", 17902)
    assert worker_instance("run", 17900, 2) == ("run-gw2", 17903)


def test_lanes_joined_by_a_plus_run_at_once_each_on_a_database_of_its_own(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    server, second = _none_running(monkeypatch, 2)
    command, log = make
    then = "integration waits+signals,e2e unit"
    assert suite.main([command, "lint", then, "--workers", "2"]) == 0
    lines = log.read_text().splitlines()
    assert lines[:2] == ["lint", "integration TEST_WORKERS=2"]
    # `waits` ends only once `signals` has run: the lanes ran at once.
    assert sorted(lines[2:5]) == [
        "e2e TEST_WORKERS=2 on test-gw1",
        "signals TEST_WORKERS=2 on test-gw1",
        "waits TEST_WORKERS=2 on test",
    ]
    assert lines.index("signals TEST_WORKERS=2 on test-gw1") < lines.index(
        "e2e TEST_WORKERS=2 on test-gw1"
    )
    assert lines[5:] == ["unit TEST_WORKERS=2"]
    out = capfd.readouterr().out
    assert "== signals, e2e, beside waits:\nmade signals\nmade e2e\n" in out
    assert server.stopped.is_set() and second.stopped.is_set()


def test_a_failure_in_a_lane_ends_the_lane_fails_the_step_and_skips_the_rest(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _none_running(monkeypatch, 2)
    command, log = make
    written = tmp_path / "stages.json"
    arguments = ["lint", "fuzz+broken,e2e unit", "--workers", "2", "--stages", str(written)]
    assert suite.main([command, *arguments]) == 2
    made = log.read_text()
    assert "e2e" not in made and "unit" not in made
    stages = json.loads(written.read_text())
    assert {"fuzz+broken,e2e", "fuzz (beside)", "broken (beside)"} <= set(stages)
    assert "e2e (beside)" not in stages


def test_with_one_database_the_lanes_run_one_after_the_other(
    make: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _none_running(monkeypatch, 1)
    command, log = make
    assert suite.main([command, "lint", "signals+waits,e2e"]) == 0
    assert log.read_text().splitlines() == [
        "lint",
        "signals TEST_WORKERS=0",
        "waits TEST_WORKERS=0",
        "e2e TEST_WORKERS=0",
    ]
