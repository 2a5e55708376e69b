"""The formats a lineage neighbourhood is exported in, by the name `format=` takes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.domain import lineage_export_openlineage, lineage_export_text
from service.domain.lineage_export import Neighbourhood


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    media_type: str  # the answer's Content-Type
    extension: str  # of the file it is saved as
    render: Callable[[Neighbourhood, str], str]  # (neighbourhood, the export's instant)


FORMATS = {
    f.name: f
    for f in (
        Format("openlineage", "application/json", "json", lineage_export_openlineage.render),
        Format("dot", "text/vnd.graphviz; charset=utf-8", "dot", lineage_export_text.dot),
        Format("mermaid", "text/vnd.mermaid; charset=utf-8", "mmd", lineage_export_text.mermaid),
        Format(
            "csv", "text/csv; charset=utf-8; header=present", "csv", lineage_export_text.csv_table
        ),
    )
}
NAMES = tuple(FORMATS)
