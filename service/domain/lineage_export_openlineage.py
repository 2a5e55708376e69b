"""A neighbourhood as OpenLineage COMPLETE RunEvents that `POST /lineage/openlineage`
takes back into the same graph: the same asset ids, edges, transformations, column
mappings and columns.

Each exported asset is one job, namespace `governance.export`, named by the asset's
id, so re-ingesting an export (or a later one) replaces what the earlier one stated
instead of piling up. Its events' output is the asset; their inputs are the sources
of its edges in the export; an asset with none has one event with no inputs (so its
columns and its existence travel too). All events of an export carry the export's
instant as `eventTime`, so a job's events add up to its set (`openlineage` ingestion:
same order key). The `sql` job facet holds one transformation, so the sources of an
asset are grouped by their edge's transformation, one event per group.

A dataset is the one the asset holds, else (`governance:asset`, asset id), which
ingestion reads as that asset itself; a held dataset whose asset has another id than
`<namespace>/<name>` lists that id in its `symlinks` facet, so ingestion into a graph
where nobody holds the dataset makes the asset under its own id. A column mapping goes into the event whose
inputs hold its source asset; its transformation becomes the input field's
`transformations` when it reads as one (`DIRECT/IDENTITY`, `INDIRECT/JOIN: on id`),
else the output field's `transformationDescription`. Two free-text transformations
into one output column cannot share one field, so they go into separate events of
the same group (layers), the second with the same inputs and SQL.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

import orjson

from service.domain.lineage_export import ColumnMapping, ExportEdge, ExportNode, Neighbourhood
from service.domain.openlineage import ASSET_NAMESPACE

JOB_NAMESPACE = "governance.export"
PRODUCER = "urn:governance:lineage-export"
SCHEMA_URL = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"
_DESCRIBED = re.compile(r"(DIRECT|INDIRECT)(?:/([A-Z_]+))?(?:: (.+))?", re.DOTALL)

Json = dict[str, Any]


def render(graph: Neighbourhood, at: str) -> str:
    """A JSON array of RunEvents, one job per asset, in the export's node order."""
    return orjson.dumps(events(graph, at)).decode() + "\n"


def events(graph: Neighbourhood, at: str) -> list[Json]:
    nodes = {node.id: node for node in graph.nodes}
    incoming: dict[str, list[ExportEdge]] = {}
    for edge in graph.edges:
        incoming.setdefault(edge.target, []).append(edge)
    out: list[Json] = []
    for node in graph.nodes:
        groups = _by_transformation(incoming.get(node.id, []))
        layered = [
            (transformation, edges, layer)
            for transformation, edges in groups
            for layer in _layers(nodes, edges)
        ] or [(None, [], {})]
        for index, (transformation, edges, fields) in enumerate(layered):
            inputs = [_dataset(nodes[e.source]) for e in edges]
            output = _dataset(node, fields)
            out.append(_event(node.id, index, at, transformation, inputs, output))
    return out


def dataset_of(node: ExportNode) -> tuple[str, str]:
    """(namespace, name) naming the asset in an event."""
    return node.dataset or (ASSET_NAMESPACE, node.id)


def _by_transformation(
    edges: Sequence[ExportEdge],
) -> list[tuple[str | None, list[ExportEdge]]]:
    groups: dict[str | None, list[ExportEdge]] = {}
    for edge in edges:
        groups.setdefault(edge.transformation, []).append(edge)
    return list(groups.items())


def _layers(nodes: dict[str, ExportNode], edges: Sequence[ExportEdge]) -> list[Json]:
    """The `columnLineage` fields of each event of one group. Per output column: the
    input fields with a structured transformation (each carries its own) join the
    first layer; those with none share a layer without a description; each free
    text takes a layer of its own, as `transformationDescription`."""
    per_column: dict[str, tuple[list[Json], list[Json], dict[str, list[Json]]]] = {}
    for edge in edges:
        for mapping in edge.columns:
            structured, plain, free = per_column.setdefault(mapping.target, ([], [], {}))
            field = _input_field(nodes[edge.source], mapping)
            if "transformations" in field:
                structured.append(field)
            elif mapping.transformation is None:
                plain.append(field)
            else:
                free.setdefault(mapping.transformation, []).append(field)
    layers: list[Json] = []
    for column, (structured, plain, free) in per_column.items():
        specs: list[Json] = [{"inputFields": plain}] if plain or not free else []
        specs += [
            {"inputFields": fields, "transformationDescription": text}
            for text, fields in free.items()
        ]
        specs[0]["inputFields"] = structured + specs[0]["inputFields"]
        layers += [{} for _ in range(len(specs) - len(layers))]
        for layer, spec in zip(layers, specs, strict=False):
            layer[column] = spec
    return layers or [{}]


def _input_field(source: ExportNode, mapping: ColumnMapping) -> Json:
    namespace, name = dataset_of(source)
    field: Json = {"namespace": namespace, "name": name, "field": mapping.source}
    structured = _structured(mapping.transformation)
    if structured is not None:
        field["transformations"] = [structured]
    return field


def _structured(text: str | None) -> Json | None:
    """`DIRECT/IDENTITY`, `INDIRECT/JOIN: on id` as one OpenLineage field transformation
    that ingestion describes back as the same text; None for any other text."""
    match = _DESCRIBED.fullmatch(text) if text else None
    if match is None:
        return None
    kind, subtype, description = match.groups()
    structured: Json = {"type": kind}
    if subtype:
        structured["subtype"] = subtype
    if description:
        structured["description"] = description
    return structured


def _dataset(node: ExportNode, column_lineage: Json | None = None) -> Json:
    namespace, name = dataset_of(node)
    dataset: Json = {"namespace": namespace, "name": name}
    facets: Json = {}
    if node.dataset and node.id != f"{namespace}/{name}":
        facets["symlinks"] = {
            "_producer": PRODUCER,
            "_schemaURL": _facet_url("SymlinksDatasetFacet", "1-0-1"),
            "identifiers": [{"namespace": ASSET_NAMESPACE, "name": node.id, "type": "ASSET"}],
        }
    if node.columns:
        facets["schema"] = {
            "_producer": PRODUCER,
            "_schemaURL": _facet_url("SchemaDatasetFacet", "1-1-1"),
            "fields": [_schema_field(c.name, c.type, c.description) for c in node.columns],
        }
    if column_lineage:
        facets["columnLineage"] = {
            "_producer": PRODUCER,
            "_schemaURL": _facet_url("ColumnLineageDatasetFacet", "1-2-0"),
            "fields": column_lineage,
        }
    if facets:
        dataset["facets"] = facets
    return dataset


def _schema_field(name: str, kind: str | None, description: str | None) -> Json:
    field: Json = {"name": name}
    if kind is not None:
        field["type"] = kind
    if description is not None:
        field["description"] = description
    return field


def _facet_url(facet: str, version: str) -> str:
    return f"https://openlineage.io/spec/facets/{version}/{facet}.json#/$defs/{facet}"


def _event(
    asset_id: str,
    index: int,
    at: str,
    transformation: str | None,
    inputs: list[Json],
    output: Json,
) -> Json:
    job: Json = {"namespace": JOB_NAMESPACE, "name": asset_id}
    if transformation is not None:
        job["facets"] = {
            "sql": {
                "_producer": PRODUCER,
                "_schemaURL": _facet_url("SQLJobFacet", "1-1-0"),
                "query": transformation,
            }
        }
    run_id = uuid.uuid5(uuid.NAMESPACE_URL, f"{JOB_NAMESPACE}/{asset_id}#{at}#{index}")
    return {
        "eventType": "COMPLETE",
        "eventTime": at,
        "producer": PRODUCER,
        "schemaURL": SCHEMA_URL,
        "run": {"runId": str(run_id)},
        "job": job,
        "inputs": inputs,
        "outputs": [output],
    }
