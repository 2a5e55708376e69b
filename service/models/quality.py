"""Quality rule bodies (CONTRACT §6)."""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import Field

from service.models.common import ResponseModel


class QualityRule(ResponseModel):
    id: str
    asset_id: str
    column: str | None = None
    name: str
    type: str
    params: dict[str, Any] = Field(default_factory=dict)
    severity: str
    enabled: bool = True
    status: str = Field(default="unknown", description="unknown, passing, failing or error")
    last_result: dict[str, Any] | None = None
    origin: str | None = Field(
        default=None, description="`dbt:<project>` for rules made from dbt tests"
    )
    version: int
    created_at: str
    updated_at: str

    @classmethod
    def from_node(cls, node: dict[str, Any]) -> QualityRule:
        values = dict(node)
        values["params"] = orjson.loads(values.get("params") or "{}")
        if values.get("last_result"):
            values["last_result"] = orjson.loads(values["last_result"])
        return cls(**{k: v for k, v in values.items() if k in cls.model_fields})


class QualityRulePage(ResponseModel):
    items: list[QualityRule]
    next_cursor: str | None
