"""What `make test` prints last: how long each suite took and its slowest tests.

Each pytest run of `make test` leaves a JUnit XML report in `.cache/reports/`, each
client harness a `clients*.json` (one per run: `make test` runs two), and the suite runner (tests/support/suite.py) a
`stages.json` with the wall time of each stage, the install included; this reads them
all, so a stage or suite that grows slower is seen at every run rather than when CI's
time limit is reached.

    python -m tests.support.slowest [.cache/reports] [--top 15]
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parents[2] / ".cache" / "reports"


@dataclass(frozen=True)
class Timed:
    suite: str
    name: str
    seconds: float


def read_junit(path: Path) -> tuple[float, list[Timed]]:
    """(the suite's own total, each test case) from one JUnit XML report."""
    root = ElementTree.parse(path).getroot()  # noqa: S314 - our own pytest's report
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = sum(float(s.get("time", 0)) for s in suites)
    cases = [
        Timed(path.stem, f"{case.get('classname', '')}::{case.get('name', '')}", float(t))
        for case in root.iter("testcase")
        if (t := case.get("time")) is not None
    ]
    return total, cases


def read_clients(path: Path) -> tuple[float, list[Timed]]:
    """The client harness's `{"<language>": seconds, ...}`."""
    timings: dict[str, float] = json.loads(path.read_text())
    cases = [Timed("clients", language, seconds) for language, seconds in timings.items()]
    return sum(timings.values()), cases


def stages(path: Path) -> list[str]:
    """The lines for the wall time of each stage, from the runner's `stages.json`; stages
    run beside others are named so and left out of the sum, which is the whole run."""
    if not path.exists():
        return []
    seconds: dict[str, float] = json.loads(path.read_text())
    if not seconds:
        return []
    width = max(len(name) for name in seconds)
    lines = ["wall time per stage:"]
    lines += [f"  {name:<{width}}  {s:7.1f} s" for name, s in seconds.items()]
    whole = sum(s for name, s in seconds.items() if not name.endswith("(beside)"))
    lines.append(f"  {'all':<{width}}  {whole:7.1f} s")
    return lines


def report(directory: Path, top: int) -> str:
    totals: dict[str, float] = {}
    cases: list[Timed] = []
    for path in sorted(directory.glob("*.xml")):
        totals[path.stem], found = read_junit(path)
        cases += found
    for clients in sorted(directory.glob("clients*.json")):
        total, found = read_clients(clients)
        totals["clients"] = totals.get("clients", 0.0) + total
        cases += found
    if not totals:
        return f"no test reports in {directory}"
    width = max(len(name) for name in totals)
    lines = [*stages(directory / "stages.json"), "time per suite:"]
    lines += [f"  {name:<{width}}  {seconds:7.1f} s" for name, seconds in totals.items()]
    lines.append(f"  {'all':<{width}}  {sum(totals.values()):7.1f} s")
    lines.append(f"slowest {top}:")
    for case in sorted(cases, key=lambda c: c.seconds, reverse=True)[:top]:
        lines.append(f"  {case.seconds:7.1f} s  {case.suite}: {case.name}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    print(report(args.directory, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
