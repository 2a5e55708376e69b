"""dbt manifest ingestion: the public face of `service.domain.dbt`."""

from service.domain.dbt.contents import (
    DbtAsset,
    DbtColumn,
    DbtEdge,
    DbtRule,
    ManifestContents,
    ManifestError,
)
from service.domain.dbt.reader import read_manifest

__all__ = [
    "DbtAsset",
    "DbtColumn",
    "DbtEdge",
    "DbtRule",
    "ManifestContents",
    "ManifestError",
    "read_manifest",
]
