"""The query guide's examples are the ones the integration tests run, verbatim."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.query_examples import (
    EXAMPLE_DASHBOARDS,
    EXAMPLE_HOW_MANY_FED,
    EXAMPLE_ORPHANS,
    EXAMPLE_PII_FEEDING_LOOKER,
    EXAMPLE_SHORTEST_PATH,
)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api" / "query.md"


def test_the_five_query_examples_match_the_tested_ones() -> None:
    bodies = re.findall(r"^\s*q '(\{.*?\})'\s*$", GUIDE.read_text(), re.MULTILINE | re.DOTALL)
    assert [json.loads(b) for b in bodies] == [
        EXAMPLE_DASHBOARDS,
        EXAMPLE_PII_FEEDING_LOOKER,
        EXAMPLE_SHORTEST_PATH,
        EXAMPLE_HOW_MANY_FED,
        EXAMPLE_ORPHANS,
    ]
