"""A dbt manifest read from a byte stream, keeping only what `read_manifest` reads.

A manifest is mostly text the service never looks at: macros, docs, `child_map`,
every node's raw SQL beside its compiled SQL, its checksum, patch path and so on.
Parsed whole, a 215 MB manifest takes about 550 MB as Python objects on top of its
215 MB of bytes. Here the document is parsed incrementally (ijson over yajl, in C)
and each value that `read_manifest` would never read is dropped as it streams by,
so memory follows what is kept (chiefly the compiled SQL, which becomes the
lineage edges' transformation) rather than the size of the upload.

The result is the document itself with unread parts missing, so `read_manifest`
gives the same answer, warnings and errors (with their `loc`) as for the whole
document. A document the streaming parser refuses (not JSON, an integer beyond
64 bits, nesting deeper than the whole-document parser allows) raises
`Unstreamable`: the caller then parses it whole, so the answer for odd input is
exactly the whole-document parser's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import ijson  # type: ignore[import-untyped]  # no stubs

from service.domain.dbt.assets import (
    _CODE_KEYS,
    _EXPOSURE_PROPERTIES,
    _SOURCE_PROPERTIES,
    _STRING_PROPERTIES,
)

CHUNK = 1 << 16
# orjson, the whole-document parser, refuses deeper documents; so does this one.
MAX_DEPTH = 1024
ROOT_KEYS = frozenset({"metadata", "nodes", "sources", "exposures", "groups", "disabled"})
SECTIONS = frozenset({"nodes", "sources", "exposures"})
# Every key `read_manifest` reads from an entry of nodes, sources or exposures (the
# values under them are kept whole). Reading a new key there means adding it here;
# tests/unit/test_manifest_stream.py compares both ways of reading real manifests.
NODE_KEYS = frozenset(
    {
        "resource_type",
        "name",
        "description",
        "tags",
        "config",
        "columns",
        "meta",
        "source_meta",
        "owner",
        "group",
        "depends_on",
        "language",
        "version",
        "test_metadata",
        "column_name",
        "attached_node",
        *_CODE_KEYS,
        *(key for _, key in (*_STRING_PROPERTIES, *_SOURCE_PROPERTIES, *_EXPOSURE_PROPERTIES)),
        "alias",
    }
)

# What a container is decides which of its keys are kept and what its children are.
(
    _PLAIN,
    _HOLDER,
    _ROOT,
    _SECTION,
    _NODE,
    _CONFIG,
    _META,
    _DEPENDS,
    _COLUMNS,
    _COLUMN,
    _COLUMN_CONFIG,
    _DISABLED,
    _VERSIONS,
    _DISABLED_NODE,
) = range(14)
# The keys kept in a map of each role (a role not named keeps every key): what the
# reader reads, nothing more. A node's `config` alone has some thirty keys.
_KEEP = {
    _ROOT: ROOT_KEYS,
    _NODE: NODE_KEYS,
    _CONFIG: frozenset({"enabled", "tags", "materialized", "meta", "group", "severity"}),
    _META: frozenset({"owner"}),
    _DEPENDS: frozenset({"nodes"}),
    _COLUMN: frozenset({"name", "data_type", "description", "tags", "config"}),
    _COLUMN_CONFIG: frozenset({"tags"}),
    _DISABLED_NODE: frozenset({"unique_id"}),  # the reader counts disabled versions
}
_MAP_CHILD: dict[tuple[int, str | None], int] = {
    **{(_ROOT, section): _SECTION for section in SECTIONS},
    (_ROOT, "disabled"): _DISABLED,
    (_NODE, "config"): _CONFIG,
    (_NODE, "meta"): _META,
    (_NODE, "source_meta"): _META,
    (_NODE, "depends_on"): _DEPENDS,
    (_NODE, "columns"): _COLUMNS,
    (_CONFIG, "meta"): _META,
    (_COLUMN, "config"): _COLUMN_CONFIG,
}
# {id: [node, ...]} is `disabled` since v4; a plain list of nodes before.
_ANY_KEY_CHILD = {_SECTION: _NODE, _COLUMNS: _COLUMN, _DISABLED: _VERSIONS}
_LIST_CHILD = {_HOLDER: _ROOT, _DISABLED: _DISABLED_NODE, _VERSIONS: _DISABLED_NODE}
_STARTS = frozenset({"start_map", "start_array"})
_ENDS = frozenset({"end_map", "end_array"})
_SKIP = object()
# Keys and short values (types, tags, names) repeat across thousands of nodes.
_SHARED_LEN = 64


class Unstreamable(ValueError):
    """The streaming parser refused the document; the whole-document parser decides."""


class Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


def slim_manifest(stream: Readable) -> Any:
    """The JSON document in `stream` without the parts `read_manifest` never reads.

    Exceptions that `stream.read` raises (a size ceiling, damaged gzip) propagate.
    """
    try:
        return _build(ijson.basic_parse(stream, use_float=True, buf_size=CHUNK))
    except ijson.JSONError as exc:
        raise Unstreamable(str(exc).split("\n", 1)[0]) from exc


def _build(events: Iterable[tuple[str, Any]]) -> Any:
    """An iterative builder (depth cannot overflow the stack) that skips unread values.

    One loop with everything inlined: it runs once per JSON token, millions of times.
    """
    holder: list[Any] = []
    container: Any = holder  # the innermost open container
    in_map = False
    keep: frozenset[str] | None = None  # the keys kept in `container`, None for all
    role = _HOLDER
    stack: list[tuple[Any, bool, frozenset[str] | None, int]] = []
    key: Any = None  # the pending key of `container` when it is a map
    skip = 0  # depth inside a value being skipped
    strings: dict[str, str] = {}  # one object per distinct key or short string
    for event, value in events:
        if skip:
            if event in _STARTS:
                skip += 1
            elif event in _ENDS:
                skip -= 1
            continue
        if event == "map_key":
            key = strings.setdefault(value, value) if keep is None or value in keep else _SKIP
            continue
        if event in _ENDS:
            if role == _NODE and in_map:
                _drop_unread_code(container)
            container, in_map, keep, role = stack.pop()
            continue
        if in_map and key is _SKIP:
            if event in _STARTS:
                skip = 1
            continue
        if event in _STARTS:
            new: Any = {} if event == "start_map" else []
            if in_map:
                container[key] = new
            else:
                container.append(new)
            stack.append((container, in_map, keep, role))
            if len(stack) > MAX_DEPTH:
                raise Unstreamable(f"nested deeper than {MAX_DEPTH} levels")
            role = _child_role(role, in_map, key)
            container, in_map = new, event == "start_map"
            keep = _KEEP.get(role) if in_map else None
            continue
        if type(value) is str and len(value) <= _SHARED_LEN:
            value = strings.setdefault(value, value)
        if in_map:
            container[key] = value
        else:
            container.append(value)
    return holder[0] if holder else None


def _child_role(role: int, in_map: bool, key: str | None) -> int:
    if in_map:
        return _MAP_CHILD.get((role, key)) or _ANY_KEY_CHILD.get(role, _PLAIN)
    return _LIST_CHILD.get(role, _PLAIN)


def _drop_unread_code(node: dict[str, Any]) -> None:
    """The lineage transformation is the first non-blank of compiled_code, compiled_sql,
    raw_code, raw_sql; what follows it is never read (raw SQL is about half a manifest)."""
    for i, key in enumerate(_CODE_KEYS):
        value = node.get(key)
        if isinstance(value, str) and value and not value.isspace():
            for later in _CODE_KEYS[i + 1 :]:
                node.pop(later, None)
            return
        if value is not None and not isinstance(value, str):
            return  # the reader refuses this value: keep everything as it is
