"""Coverage-phase cases that repeat another case of the same operation, left out.

The coverage phase tries every boundary value of every field at every place the
document declares it. Where one operation takes one schema at several places and
the service reads each place with the same code, the second place onwards adds
requests (each a real query on Neo4j) but no coverage:

- `POST /query`: the asset `Filter` is `start.where`, `traverse.where`,
  `traverse.through` and `path.through`, all compiled by one function
  (`service/domain/query/filters.py`) after one model's validation. Its fields'
  values are tried at `start.where`; at the three other places only the cases about
  the filter as a whole (absent, empty, the required and optional fields together)
  stay, so each place's own Cypher still runs.
- `POST /lineage/openlineage`: the body is one RunEvent or an array of them, and an
  array's events are read one by one like a single one. Each event field's values
  are tried in the single form; the array form keeps its own cases (its length, a
  valid event in it, an item of the wrong type or missing a required field).

Only these two operations, only the coverage phase: the fuzzing and stateful phases,
and the negative cases about the repeated places themselves, are untouched.
"""

from __future__ import annotations

import re
from typing import Any

# Per operation, the coverage case descriptions (as Schemathesis writes them) that
# reach into a field of the shared schema at a place other than the first.
_REPEATS = {
    "POST /api/v1/query": re.compile(
        r"Object with valid '(?:traverse|path)' value: "
        r"Object with valid '(?:where|through)' value: Object with valid '"
    ),
    "POST /api/v1/lineage/openlineage": re.compile(
        r"Single-item array: Object with valid '|Array with invalid items: [a-z]\w*(?: ->|:)"
    ),
}


def repeats_another_case(case: Any) -> bool:
    """Whether `case` tries, at a repeated place, what a kept case tries at the first."""
    meta = case.meta
    if meta is None or meta.phase.name != "coverage":
        return False
    repeat = _REPEATS.get(case.operation.label)
    return repeat is not None and repeat.match(meta.phase.data.description) is not None
