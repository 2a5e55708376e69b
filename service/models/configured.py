"""Numbers a request's schema takes from the deployment's `Limits` rather than the code.

A request body's bound that is configured (a query's `max_depth`, a policy's walk) is
declared on the model as `ConfiguredMaximum("max_lineage_depth")`: its JSON schema
then says `maximum: Configured("max_lineage_depth")`, and the OpenAPI builder
(`service.openapi`) writes this app's value there. The model knows no number, so it
cannot refuse one: whoever holds the app's `Limits` does, at the field the schema
names (the query compiler's `check`, the handlers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from service.settings import Limits


@dataclass(frozen=True)
class Configured:
    """A number in a schema that is the app's `Limits.<field>`, filled in by `build`."""

    field: str

    def __post_init__(self) -> None:
        if self.field not in Limits.model_fields:
            raise ValueError(f"Limits has no field {self.field!r}")


@dataclass(frozen=True)
class ConfiguredMaximum:
    """Annotates an integer whose upper bound is `Limits.<field>` (see the module)."""

    field: str

    def __post_init__(self) -> None:
        Configured(self.field)

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema: dict[str, Any] = handler(core_schema)
        schema["maximum"] = Configured(self.field)
        return schema
