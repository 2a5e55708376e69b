"""One dbt node -> one DbtAsset, and the node's lineage inputs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.domain.dbt.access import (
    Warnings,
    dedupe,
    fail,
    kind,
    obj,
    opt_obj,
    str_keys,
    str_list,
    text,
)
from service.domain.dbt.contents import DbtAsset, DbtColumn, Loc, PropertyValue

NODE_ASSET_TYPES = frozenset({"model", "seed", "snapshot", "analysis"})
# Where each field is read from, per asset type; sources name their table `identifier`.
_STRING_PROPERTIES = (
    ("database", "database"),
    ("schema", "schema"),
    ("relation_name", "relation_name"),
    ("package_name", "package_name"),
    ("original_file_path", "original_file_path"),
    ("access", "access"),
    ("group", "group"),
)
_SOURCE_PROPERTIES = (("alias", "identifier"), ("source_name", "source_name"), ("loader", "loader"))
_EXPOSURE_PROPERTIES = (
    ("exposure_type", "type"),
    ("maturity", "maturity"),
    ("url", "url"),
    ("label", "label"),
)
_CODE_KEYS = ("compiled_code", "compiled_sql", "raw_code", "raw_sql")
_STR = {str}


@dataclass(frozen=True)
class Context:
    project: str
    platform: str | None
    group_owners: dict[str, tuple[str, ...]]
    warnings: Warnings


def build_asset(kind_: str, uid: str, node: dict[str, Any], loc: Loc, ctx: Context) -> DbtAsset:
    config = opt_obj(node, "config", loc)
    return DbtAsset(
        id=uid,
        name=asset_name(kind_, uid, node, loc),
        type=kind_,
        platform=ctx.platform,
        description=text(node, "description", loc),
        owners=_owners(kind_, node, config, loc, ctx),
        tags=dedupe(str_list(node, "tags", loc), str_list(config, "tags", (*loc, "config"))),
        columns=_columns(node, loc),
        properties=_properties(kind_, node, config, loc, ctx.project),
    )


def asset_name(kind_: str, uid: str, node: dict[str, Any], loc: Loc) -> str:
    """dbt's `name`; a source is `source_name.name`, as `source('ecom', 'orders')` names it."""
    name = text(node, "name", loc) or uid.split(".", 2)[-1]
    source_name = text(node, "source_name", loc) if kind_ == "source" else None
    return f"{source_name}.{name}" if source_name else name


def transformation(node: dict[str, Any], loc: Loc) -> str | None:
    """The node's SQL (or Python): compiled where present, else raw; none for blank code."""
    for key in _CODE_KEYS:
        code = text(node, key, loc)
        if code:
            return code
    return None


def compiled_sql(node: dict[str, Any], loc: Loc) -> str | None:
    """The node's compiled SQL, for column lineage; None for Python models and for
    manifests written without compiling (`dbt parse`)."""
    if text(node, "language", loc) not in (None, "sql"):
        return None
    return text(node, "compiled_code", loc) or text(node, "compiled_sql", loc)


def parents(node: dict[str, Any], loc: Loc) -> list[str]:
    return str_list(opt_obj(node, "depends_on", loc), "nodes", (*loc, "depends_on"))


def _properties(
    kind_: str, node: dict[str, Any], config: dict[str, Any], loc: Loc, project: str
) -> dict[str, PropertyValue]:
    pairs = list(_STRING_PROPERTIES)
    if kind_ == "source":
        pairs += _SOURCE_PROPERTIES
    elif kind_ == "exposure":
        pairs += _EXPOSURE_PROPERTIES
    else:
        pairs.append(("alias", "alias"))
    props: dict[str, PropertyValue] = {}
    for prop, key in pairs:
        value = text(node, key, loc)
        if value is not None:
            props[prop] = value
    materialized = text(config, "materialized", (*loc, "config"))
    if materialized and kind_ in ("model", "seed", "snapshot"):
        props["materialized"] = materialized
    version = node.get("version")
    if isinstance(version, str | int | float) and not isinstance(version, bool):
        props["version"] = version
    elif version is not None:
        fail((*loc, "version"), f"must be a string, a number or null, not {kind(version)}")
    props["dbt_project"] = project
    return props


def _columns(node: dict[str, Any], loc: Loc) -> tuple[DbtColumn, ...]:
    """Each column as `_column` reads it. A project's columns outnumber its nodes ten
    to one, so a column of the usual shape is read by `_plain_column` without building
    a `loc` for each field; any other goes the checked way, which answers the same or
    names what is wrong."""
    columns = opt_obj(node, "columns", loc)
    str_keys(columns, (*loc, "columns"))
    out: list[DbtColumn] = []
    for key, value in columns.items():
        column = _plain_column(key, value)
        out.append(column if column is not None else _column(key, value, loc))
    return tuple(out)


def _column(key: str, value: Any, loc: Loc) -> DbtColumn:
    cloc = (*loc, "columns", key)
    column = obj(value, cloc)
    config = opt_obj(column, "config", cloc)
    return DbtColumn(
        name=text(column, "name", cloc) or key,
        type=text(column, "data_type", cloc),
        description=text(column, "description", cloc),
        tags=dedupe(str_list(column, "tags", cloc), str_list(config, "tags", cloc)),
    )


def _plain_column(key: str, value: Any) -> DbtColumn | None:
    """`_column`'s answer for a column whose fields all have their expected types (None
    otherwise, for `_column` to read it or name what is wrong)."""
    if type(value) is not dict:
        return None
    name, data_type = value.get("name"), value.get("data_type")
    description, tags, config = value.get("description"), value.get("tags"), value.get("config")
    config_tags = config.get("tags") if type(config) is dict else None
    if not (
        (name is None or type(name) is str)
        and (data_type is None or type(data_type) is str)
        and (description is None or type(description) is str)
        and (tags is None or (type(tags) is list and {*map(type, tags)} <= _STR))
        and (config is None or type(config) is dict)
        and (
            config_tags is None or (type(config_tags) is list and {*map(type, config_tags)} <= _STR)
        )
    ):
        return None
    # as `text` reads them: "" and blanks are not set
    return DbtColumn(
        name=name if name and not name.isspace() else key,
        type=data_type if data_type and not data_type.isspace() else None,
        description=description if description and not description.isspace() else None,
        tags=dedupe(tags or [], config_tags or []) if tags or config_tags else (),
    )


def _owners(
    kind_: str, node: dict[str, Any], config: dict[str, Any], loc: Loc, ctx: Context
) -> tuple[str, ...]:
    """meta.owner, config.meta.owner, (sources) source_meta.owner, (exposures) owner,
    then the owner of the node's group; all kept, duplicates dropped."""
    found: list[str] = []
    places: list[tuple[dict[str, Any], Loc]] = [
        (opt_obj(node, "meta", loc), (*loc, "meta")),
        (opt_obj(config, "meta", (*loc, "config")), (*loc, "config", "meta")),
    ]
    if kind_ == "source":
        places.append((opt_obj(node, "source_meta", loc), (*loc, "source_meta")))
    for meta, mloc in places:
        found += owner_values(meta.get("owner"), (*mloc, "owner"), ctx.warnings)
    if kind_ == "exposure":
        found += owner_values(node.get("owner"), (*loc, "owner"), ctx.warnings)
    group = text(node, "group", loc) or text(config, "group", (*loc, "config"))
    if group:
        found += ctx.group_owners.get(group, ())
    return dedupe(found)


def owner_values(value: Any, loc: Loc, warnings: Warnings) -> list[str]:
    """An owner as people write it: "a@x", ["a@x", "b@x"] or {"email", "name"} (email wins).

    `meta` is free-form, so an owner of another shape is a warning, not an error.
    """
    if value is None:
        return []
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, dict):
        for key in ("email", "name"):
            person = value.get(key)
            if isinstance(person, str) and person.strip():
                return [person.strip()]
        return []
    if isinstance(value, list):
        return [
            owner
            for i, item in enumerate(value)
            if not isinstance(item, list)  # one level only: no recursion on hostile input
            for owner in owner_values(item, (*loc, i), warnings)
        ]
    where = " > ".join(map(str, loc))
    warnings.add(f"{where}: an owner must be a string, a list or an object; ignored")
    return []
