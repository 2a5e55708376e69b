"""Asset request and response bodies."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from service.models.common import (
    INTEGRAL,
    NO_CONTROLS_PATTERN,
    AssetId,
    ResponseModel,
    StrictModel,
    keys_by_pattern,
    no_controls,
)
from service.models.datasets import Dataset, DatasetIn

KNOWN_TYPES = (
    "table",
    "view",
    "model",
    "source",
    "seed",
    "snapshot",
    "file",
    "topic",
    "dashboard",
    "report",
    "ml_model",
    "job",
    "pipeline",
    "exposure",
    "unknown",
)
_TYPE = re.compile(r"^[a-z0-9][a-z0-9_.:-]{0,63}$")
MAX_TAGS = 100
MAX_OWNERS = 100
MAX_COLUMNS = 5_000
MAX_PROPERTIES = 200


def _asset_type(value: str) -> str:
    value = value.lower()
    if not _TYPE.match(value):
        raise ValueError(
            "type must be 1-64 characters: letters, digits, _ . : - (known: "
            + ", ".join(KNOWN_TYPES)
            + ")"
        )
    return value


def _tags(values: list[str]) -> list[str]:
    """Lower-cased, duplicates dropped, first occurrence order kept."""
    return list(dict.fromkeys(v.lower() for v in values))


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


MAX_TAG_LENGTH = 64
Tag = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_TAG_LENGTH, strip_whitespace=False)
]
MAX_OWNER_LENGTH = 256
Owner = Annotated[str, StringConstraints(min_length=1, max_length=MAX_OWNER_LENGTH)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
Description = Annotated[str, StringConstraints(max_length=65_536)]
PropertyKey = Annotated[
    str,
    StringConstraints(min_length=1, max_length=128),
    no_controls("a property key"),
    Field(json_schema_extra={"pattern": NO_CONTROLS_PATTERN}),
]
PropertyValue = str | int | float | bool
Tags = Annotated[list[Tag], Field(max_length=MAX_TAGS), AfterValidator(_tags)]


class Column(StrictModel):
    name: Annotated[str, StringConstraints(min_length=1, max_length=512)]
    type: Annotated[str, StringConstraints(max_length=256)] | None = None
    description: Description | None = None
    tags: Tags = Field(default_factory=list)


class AssetFields(StrictModel):
    """What a client may write. Read-only fields sent back from a GET are ignored,
    so that GET, edit, PUT round-trips work."""

    name: Name
    type: Annotated[
        str,
        StringConstraints(min_length=1, max_length=64),
        AfterValidator(_asset_type),
        Field(json_schema_extra={"pattern": "^[A-Za-z0-9][A-Za-z0-9_.:-]*$"}),  # _TYPE, any case
    ]
    platform: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
    description: Description | None = None
    owners: Annotated[list[Owner], Field(max_length=MAX_OWNERS), AfterValidator(_unique)] = Field(
        default_factory=list
    )
    tags: Tags = Field(default_factory=list)
    columns: Annotated[list[Column], Field(max_length=MAX_COLUMNS)] = Field(default_factory=list)
    properties: Annotated[
        dict[PropertyKey, PropertyValue],
        Field(max_length=MAX_PROPERTIES, json_schema_extra=keys_by_pattern),
    ] = Field(default_factory=dict)
    dataset: DatasetIn | None = Field(
        default=None,
        description="the physical dataset this asset is, named as OpenLineage names it; at "
        "most one asset holds a dataset (stored normalised by the platform's naming rules)",
    )
    placeholder: bool | None = Field(default=None, exclude=True)
    aliases: list[str] | None = Field(default=None, exclude=True)
    domain: str | None = Field(default=None, exclude=True)
    created_at: str | None = Field(default=None, exclude=True)
    updated_at: str | None = Field(default=None, exclude=True)
    version: Annotated[int, INTEGRAL] | None = Field(default=None, exclude=True)


class AssetCreate(AssetFields):
    id: AssetId


class AssetReplace(AssetFields):
    """PUT body: the id comes from the path; if the body names one it must agree."""

    id: AssetId | None = None


class Asset(ResponseModel):
    id: str
    name: str
    type: str
    platform: str | None = None
    description: str | None = None
    owners: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    columns: list[Column] = Field(default_factory=list)
    properties: dict[str, PropertyValue] = Field(default_factory=dict)
    dataset: Dataset | None = None
    aliases: list[str] = Field(
        default_factory=list, description="former ids of assets merged into this one"
    )
    placeholder: bool = False
    domain: str | None = Field(
        default=None,
        description="read-only: the domain whose rules hold this asset (docs/access.md), or null",
    )
    created_at: str
    updated_at: str
    version: int


class AssetPage(ResponseModel):
    items: list[Asset]
    next_cursor: str | None
