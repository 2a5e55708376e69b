"""Coverage-phase cases that repeat another case, left out.

The coverage phase tries every boundary value of every field at every place the
document declares it. Where one schema sits at several places and the service reads
each place with the same code, the second place onwards adds requests (each a real
query on Neo4j) but no coverage:

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
  An event's inputs and outputs are datasets of one model (`Dataset`: `namespace`,
  `name`, `facets`), so the invalid values of those fields are tried in `inputs`;
  `outputs` keeps its valid values (an output is written as an edge's target, an
  input as its source), its own `outputFacets`, and the cases about the list itself.
- `POST /lineage`: a body that is a RunEvent is handed to the very function behind
  `POST /lineage/openlineage` (`service/api/openlineage.py`, `ingest`), so the values
  of the event's fields are tried there. Here the RunEvent keeps the cases about it as
  a whole (valid with only its required fields, with each optional one, a missing
  required field, its `eventType` of the wrong type or value: how the body is told
  from an edge), and every edge case stays.

Only the coverage phase: the fuzzing and stateful phases, and the negative cases
about the repeated places themselves, are untouched.
"""

from __future__ import annotations

import re
from typing import Any

# Per operation, the coverage case descriptions (as Schemathesis writes them) that
# try again what a kept case tries elsewhere.
_REPEATS = {
    "POST /api/v1/query": re.compile(
        r"Object with valid '(?:traverse|path)' value: "
        r"Object with valid '(?:where|through)' value: Object with valid '"
    ),
    "POST /api/v1/lineage/openlineage": re.compile(
        r"Single-item array: Object with valid '|Array with invalid items: [a-z]\w*(?: ->|:)"
        r"|outputs -> Array with invalid items: (?:facets|name|namespace)(?: ->|:)"
    ),
    # A RunEvent's own fields (an edge has none of them); `eventType`'s invalid values
    # stay, since they decide whether the body is read as an event.
    "POST /api/v1/lineage": re.compile(
        r"(?:inputs|outputs|job|run|eventTime|producer|schemaURL)(?: ->|:) "
        r"|Object with valid '(?:inputs|outputs|job|run|eventTime|eventType|producer|schemaURL)'"
        r" value: "
    ),
}


def repeats_another_case(case: Any) -> bool:
    """Whether `case` tries, at a repeated place, what a kept case tries at the first."""
    meta = case.meta
    if meta is None or meta.phase.name != "coverage":
        return False
    repeat = _REPEATS.get(case.operation.label)
    return repeat is not None and repeat.match(meta.phase.data.description) is not None
