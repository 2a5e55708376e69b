"""An asset's audit trail as a file: every version kept, who wrote it and what it
changed, for a person who must hand "who changed what" to someone else.

CSV has one row per change (a version that changed no field has one row with the
change columns empty), so a spreadsheet filter on `field` or `who` answers most
questions; values that are not text (lists, a column as declared) are compact JSON.
JSON is the API's own versions with a `who` beside each actor.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from service.domain.spreadsheet import cell
from service.models.asset_history import AssetVersion

CSV_HEADER = (
    "version",
    "at",
    "actor",
    "who",
    "deleted",
    "field",
    "column",
    "change",
    "from",
    "to",
)


def value_text(value: Any) -> str | None:
    """A value as one cell: text as it is, anything else as compact JSON."""
    if value is None or isinstance(value, str):
        return value
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def csv_header() -> str:
    return _csv([CSV_HEADER])


def csv_rows(versions: Iterable[AssetVersion], who: Mapping[str, str]) -> str:
    """The rows of `versions` (no header), RFC 4180 with CRLF line ends."""
    rows: list[tuple[Any, ...]] = []
    for v in versions:
        head = (v.version, v.at, v.actor, who.get(v.actor), "true" if v.deleted else "false")
        if not v.changes:
            rows.append((*head, None, None, None, None, None))
        for c in v.changes:
            rows.append((*head, c.field, c.column, c.change, value_text(c.from_), value_text(c.to)))
    return _csv(rows)


def json_versions(versions: Iterable[AssetVersion], who: Mapping[str, str]) -> list[bytes]:
    """Each version as the API answers it, with `who` (null when the actor names
    nothing any more), one JSON text per version."""
    return [
        orjson.dumps({**v.model_dump(mode="json", by_alias=True), "who": who.get(v.actor)})
        for v in versions
    ]


def _csv(rows: Iterable[Iterable[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return out.getvalue()
