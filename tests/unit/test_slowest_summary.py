"""What `make test` prints last (tests/support/slowest.py): the wall time of each stage,
the whole run summed without what ran beside, each suite's time and the slowest tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import slowest

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" time="12.5">
<testcase classname="tests.integration.test_a" name="test_slow" time="9.0"/>
<testcase classname="tests.integration.test_a" name="test_quick" time="0.5"/>
</testsuite></testsuites>
"""


def test_the_summary_gives_each_stage_then_each_suite_then_the_slowest_tests(
    tmp_path: Path,
) -> None:
    (tmp_path / "integration.xml").write_text(JUNIT)
    (tmp_path / "clients.json").write_text(json.dumps({"js": 20.0}))
    stages = {"install": 40.0, "lint": 60.0, "clients-deps (beside)": 30.0, "integration": 14.0}
    (tmp_path / "stages.json").write_text(json.dumps(stages))
    lines = slowest.report(tmp_path, top=2).splitlines()
    assert lines[0] == "wall time per stage:"
    assert [line.split()[-2] for line in lines[1:6]] == ["40.0", "60.0", "30.0", "14.0", "114.0"]
    assert lines[5].split()[0] == "all"
    assert lines[6] == "time per suite:"
    assert lines[-3:] == [
        "slowest 2:",
        "     20.0 s  clients: js",
        "      9.0 s  integration: tests.integration.test_a::test_slow",
    ]


def test_without_the_runners_file_the_summary_starts_with_the_suites(tmp_path: Path) -> None:
    (tmp_path / "integration.xml").write_text(JUNIT)
    assert slowest.report(tmp_path, top=1).splitlines()[0] == "time per suite:"


def test_client_reports_from_two_harness_runs_add_up_to_one_suite(tmp_path: Path) -> None:
    (tmp_path / "clients-java.json").write_text(json.dumps({"java": 70.0}))
    (tmp_path / "clients-python-js-go.json").write_text(json.dumps({"python": 50.0, "go": 30.0}))
    lines = slowest.report(tmp_path, top=3).splitlines()
    assert [line.split() for line in lines[:3]] == [
        ["time", "per", "suite:"],
        ["clients", "150.0", "s"],
        ["all", "150.0", "s"],
    ]
    assert lines[-3:] == [
        "     70.0 s  clients: java",
        "     50.0 s  clients: python",
        "     30.0 s  clients: go",
    ]
