"""OpenLineage RunEvents -> what to write; pure, no I/O.

Every event records its run's state. A COMPLETE event also asserts lineage: each
input -> output pair is an edge with origin `openlineage:<job namespace>/<job name>`
between the assets holding the datasets (the store resolves each dataset, normalised
by its platform's naming rules, to its holder, or makes `<namespace>/<name>` hold
it), the `sql` job facet its transformation, the
`columnLineage` facet of an output its column mappings, and the `schema` facet of
any dataset that dataset's columns.

A job owns its edge set: its newest COMPLETE event that names a dataset states the
job's whole lineage, so the plan keeps, per job, that event's order key
(`complete_keys`) and only the edges and mappings it asserts (events with the same
key add up); the store withdraws the job's assertion from what it asserted before.

Events may arrive twice or out of order and must converge to one graph, so nothing
depends on arrival: a job's edge set is the one of its newest COMPLETE (a late older
one changes no set), placeholders are unions; a run keeps the state of its latest
event (by eventTime, then state rank); a transformation or a schema is taken only
from an event at least as new as the one that set it last. Times are compared as
normalised UTC strings, which order like the instants.

A dataset in the namespace `governance:asset` is the asset whose id is its name (a
former id: the asset it names now; none: a placeholder with that id, holding no
dataset), as the service's own exports name assets that hold no dataset. A dataset
whose `symlinks` facet lists an identifier in that namespace, and that nobody holds,
is made under that id (not `<namespace>/<name>`): how an export names an asset that
holds a dataset under another id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError

from service.domain import column_kinds
from service.domain.datasets import DatasetNameError, DatasetRef, normalise
from service.domain.lineage import DATASET_MARK, column_row
from service.domain.origins import OPENLINEAGE_PREFIX
from service.errors import FieldError, Unprocessable
from service.ids import id_problem
from service.ids import normalise as normalise_id
from service.models.assets import Column
from service.models.openlineage import (
    ColumnLineageField,
    Dataset,
    FieldTransformation,
    InputField,
    RunEvent,
)
from service.models.openlineage import (
    DatasetRef as DatasetRefModel,
)

Loc = tuple[str | int, ...]
ORIGIN_PREFIX = OPENLINEAGE_PREFIX
# Among events with the same eventTime, a finished state outranks a running one.
STATE_RANK = {"OTHER": 0, "START": 1, "RUNNING": 2, "COMPLETE": 3, "FAIL": 3, "ABORT": 3}
_EVENT = TypeAdapter(RunEvent)
# A dataset of this namespace names an asset by its id (`lineage_export_openlineage`).
ASSET_NAMESPACE = "governance:asset"


def names_asset(namespace: str) -> bool:
    return namespace.strip() == ASSET_NAMESPACE


@dataclass
class Plan:
    """What one request writes. `edges` and `columns` are rows for the lineage merge,
    grouped by origin, and `schemas` rows of columns, their ends standing as
    DATASET_MARK + a dataset's key until the store resolves `datasets` to assets.
    `complete_keys`: per origin, the order key of the newest COMPLETE naming a dataset,
    whose edges and mappings (the only ones in `edges` and `columns`) are the job's set."""

    received: int = 0
    complete: int = 0
    runs: list[dict[str, Any]] = field(default_factory=list)
    datasets: list[DatasetRef] = field(default_factory=list)
    edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    columns: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    schemas: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    complete_keys: dict[str, str] = field(default_factory=dict)
    asset_ids: list[str] = field(default_factory=list)  # ends in ASSET_NAMESPACE, sorted
    dataset_ids: dict[str, str] = field(default_factory=dict)  # key -> id from `symlinks`


def parse_events(body: Any, max_events: int) -> list[RunEvent]:
    """One RunEvent or an array of them; 422 lists every problem by location."""
    if isinstance(body, list):
        if not body:
            raise Unprocessable(
                "At least one run event is required.",
                errors=[FieldError(("body",), "must hold 1 or more items", "too_short")],
            )
        if len(body) > max_events:
            raise Unprocessable(
                f"At most {max_events} run events per request; got {len(body)}. Split it.",
                code="too_many_items",
                errors=[FieldError(("body",), f"more than {max_events} items", "too_long")],
            )
        items: list[tuple[Loc, Any]] = [(("body", i), item) for i, item in enumerate(body)]
    else:
        items = [(("body",), body)]
    located, errors = [], []
    for loc, item in items:
        try:
            event = _EVENT.validate_python(item, strict=True)
        except ValidationError as exc:
            errors += [
                FieldError((*loc, *err["loc"]), err["msg"], err["type"])
                for err in exc.errors(include_url=False)
            ]
            continue
        errors += _unnamable(event, loc)
        located.append(event)
    if errors:
        fields = ", ".join(".".join(map(str, e.loc)) for e in errors[:5])
        raise Unprocessable(f"Invalid OpenLineage run event: {fields}.", errors=errors)
    return located


def _unnamable(event: RunEvent, loc: Loc) -> list[FieldError]:
    """Datasets the naming rules refuse (a bad namespace), at the part that is wrong."""
    found: list[tuple[Loc, DatasetRefModel]] = []
    for side in ("inputs", "outputs"):
        for i, dataset in enumerate(getattr(event, side) or ()):
            found.append(((*loc, side, i), dataset))
            facet = dataset.facets.columnLineage if dataset.facets else None
            for column, spec in (facet.fields if facet else {}).items():
                for j, source in enumerate(spec.inputFields):
                    where = (*loc, side, i, "facets", "columnLineage", "fields", column)
                    found.append(((*where, "inputFields", j), source))
    errors = []
    for where, ref in found:
        if names_asset(ref.namespace):  # the name is an asset id, checked as one already
            continue
        try:
            normalise(ref.namespace, ref.name)
        except DatasetNameError as exc:
            errors.append(FieldError((*where, exc.field), str(exc), "invalid_dataset"))
    return errors


def normalise_time(value: str) -> str:
    """UTC with microseconds and `Z`; a time without offset is read as UTC. The year has
    4 digits (unlike strftime's `%Y` on Linux), so these strings sort like the instants."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def order_key(event: RunEvent) -> str:
    state = event.eventType or "OTHER"
    return f"{normalise_time(event.eventTime)}|{STATE_RANK[state]}|{state}"


def plan_events(events: Sequence[RunEvent], max_edges: int) -> Plan:
    """Fold valid events into one Plan; more edges than `max_edges` is 422."""
    folder = _Folder()
    for event in sorted(events, key=order_key):
        folder.run(event)
        if event.eventType == "COMPLETE":
            folder.complete(event)
    edge_count = sum(len(rows) for rows in folder.edges.values())
    if edge_count > max_edges:
        raise Unprocessable(
            f"The events assert {edge_count} edges; at most {max_edges} per request. Split it.",
            code="too_many_items",
            errors=[FieldError(("body",), f"more than {max_edges} edges", "too_long")],
        )
    return folder.plan(len(events))


class _Folder:
    """Accumulates events in time order; a later write to the same key wins only when
    it carries the value (so an event without SQL never erases an older one's)."""

    def __init__(self) -> None:
        self.runs: dict[str, dict[str, Any]] = {}
        self.datasets: dict[str, DatasetRef] = {}
        self.asset_ids: set[str] = set()
        self.dataset_ids: dict[str, str] = {}
        self.edges: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
        self.columns: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
        self.schemas: dict[str, dict[str, Any]] = {}
        self.warnings: list[str] = []
        self.complete_count = 0
        # Per origin: its newest COMPLETE's order key, and the edge and column pairs
        # the COMPLETE events with that key assert (older ones' rows only lend their
        # transformation to a pair the newest keeps).
        self.latest: dict[str, str] = {}
        self.asserted: dict[str, tuple[set[Any], set[Any]]] = {}

    def run(self, event: RunEvent) -> None:
        self.runs[event.run.runId.lower()] = {
            "run_id": event.run.runId.lower(),
            "state": event.eventType or "OTHER",
            "event_time": normalise_time(event.eventTime),
            "order_key": order_key(event),
            "job_namespace": event.job.namespace,
            "job_name": event.job.name,
        }

    def complete(self, event: RunEvent) -> None:
        self.complete_count += 1
        at = normalise_time(event.eventTime)
        origin = f"{ORIGIN_PREFIX}{event.job.namespace}/{event.job.name}"
        sql = event.job.facets.sql.query if event.job.facets and event.job.facets.sql else None
        inputs = [(self._end(dataset), dataset) for dataset in event.inputs or ()]
        outputs = [(self._end(dataset), dataset) for dataset in event.outputs or ()]
        if inputs or outputs:  # one naming no dataset says nothing of the job's lineage
            self._newest(origin, order_key(event))
        for dataset_id, dataset in (*inputs, *outputs):
            self._schema(dataset_id, dataset, at)
        for output_id, _ in outputs:
            for input_id, _ in inputs:
                self._edge(origin, input_id, output_id, sql, at)
        for output_id, output in outputs:
            facet = output.facets.columnLineage if output.facets else None
            if facet is None:
                continue
            for column, spec in facet.fields.items():
                self._column_lineage(origin, output_id, column, spec, sql, at)

    def _newest(self, origin: str, key: str) -> None:
        """Events come in time order: a newer key starts the origin's set afresh."""
        if self.latest.get(origin) != key:
            self.latest[origin] = key
            self.asserted[origin] = (set(), set())

    def _edge(self, origin: str, source: str, target: str, sql: str | None, at: str) -> bool:
        if source == target:
            self.warnings.append(
                f"{origin} reads and writes {_shown(source)!r}: no edge from a dataset to itself"
            )
            return False
        rows = self.edges.setdefault(origin, {})
        _keep_newest(rows, (source, target), {"source": source, "target": target}, sql, at)
        self.asserted[origin][0].add((source, target))
        return True

    def _column_lineage(
        self,
        origin: str,
        output_id: str,
        column: str,
        spec: ColumnLineageField,
        sql: str | None,
        at: str,
    ) -> None:
        for source in spec.inputFields:
            source_id = self._end(source)
            if not self._edge(origin, source_id, output_id, sql, at):
                continue
            row = column_row(source_id, source.field, output_id, column, None, at)
            rows = self.columns.setdefault(origin, {})
            key = (row["source_key"], row["target_key"])
            described = _column_transformation(spec, source)
            row["kind"] = _column_kind(spec, source) if described is not None else "unknown"
            _keep_newest(rows, key, row, described, at)
            self.asserted[origin][1].add(key)

    def _end(self, dataset: DatasetRefModel) -> str:
        """The dataset as the plan's rows name it until the store resolves it; an asset
        named by id, by its id."""
        if names_asset(dataset.namespace):
            asset_id = normalise_id(dataset.name)
            self.asset_ids.add(asset_id)
            return asset_id
        ref = normalise(dataset.namespace, dataset.name)
        self.datasets.setdefault(ref.key, ref)
        linked = _linked_asset(dataset)
        if linked is not None:
            self.dataset_ids[ref.key] = linked
        return DATASET_MARK + ref.key

    def _schema(self, dataset_id: str, dataset: Dataset, at: str) -> None:
        facet = dataset.facets.schema_ if dataset.facets else None
        if facet is None or not facet.fields:
            return
        columns: dict[str, Column] = {}
        for spec in facet.fields:
            columns.setdefault(
                spec.name, Column(name=spec.name, type=spec.type, description=spec.description)
            )
        columns_json = orjson.dumps(
            [c.model_dump(exclude_none=True) for c in columns.values()]
        ).decode()
        self.schemas[dataset_id] = {
            "id": dataset_id,
            "event_time": at,
            "columns_json": columns_json,
        }

    def plan(self, received: int) -> Plan:
        return Plan(
            received=received,
            complete=self.complete_count,
            runs=[self.runs[k] for k in sorted(self.runs)],
            datasets=[self.datasets[k] for k in sorted(self.datasets)],
            edges=self._kept(self.edges, 0),
            columns=self._kept(self.columns, 1),
            schemas=[self.schemas[k] for k in sorted(self.schemas)],
            warnings=list(dict.fromkeys(self.warnings)),
            complete_keys=dict(sorted(self.latest.items())),
            asset_ids=sorted(self.asset_ids),
            dataset_ids=dict(sorted(self.dataset_ids.items())),
        )

    def _kept(
        self, by_origin: dict[str, dict[Any, dict[str, Any]]], side: int
    ) -> dict[str, list[dict[str, Any]]]:
        """Each origin's rows that its newest COMPLETE asserts, sorted."""
        kept = {}
        for origin, rows in sorted(by_origin.items()):
            keys = sorted(k for k in rows if k in self.asserted[origin][side])
            if keys:
                kept[origin] = [rows[k] for k in keys]
        return kept


def _linked_asset(dataset: DatasetRefModel) -> str | None:
    """The asset id a `symlinks` facet gives the dataset (an identifier in
    ASSET_NAMESPACE that is a valid id), or None. Any other shape is ignored, as
    facets this service does not read are."""
    facets = dataset.facets if isinstance(dataset, Dataset) else None
    symlinks = (facets.model_extra or {}).get("symlinks") if facets else None
    identifiers = symlinks.get("identifiers") if isinstance(symlinks, dict) else None
    for identifier in identifiers if isinstance(identifiers, list) else ():
        if not isinstance(identifier, dict) or not names_asset(str(identifier.get("namespace"))):
            continue
        name = identifier.get("name")
        if isinstance(name, str) and id_problem(normalise_id(name)) is None:
            return normalise_id(name)
    return None


def _shown(end: str) -> str:
    """A dataset end as `<namespace>/<name>`, as people write it."""
    return end.removeprefix(DATASET_MARK).replace("\n", "/", 1)


def _keep_newest(
    rows: dict[Any, dict[str, Any]],
    key: Any,
    row: dict[str, Any],
    transformation: str | None,
    at: str,
) -> None:
    """Events come in time order: a transformation replaces the kept one; an event
    without one adds the row if new but keeps the older transformation."""
    current = rows.get(key)
    if transformation is not None:
        rows[key] = {**row, "transformation": transformation, "at": at}
    elif current is None:
        rows[key] = {**row, "transformation": None, "at": None}


def _column_transformation(spec: ColumnLineageField, source: InputField) -> str | None:
    """`DIRECT/IDENTITY`, `INDIRECT/JOIN: description`, ...; else the field's own text."""
    described = [_describe(t) for t in source.transformations or ()]
    if described:
        return "; ".join(described)
    return spec.transformationDescription or spec.transformationType


def _column_kind(spec: ColumnLineageField, source: InputField) -> str:
    """The mapping's kind (`column_kinds`): the most revealing of the input field's
    transformations, the `masking` flag included; else the field's legacy type."""
    if source.transformations:
        return column_kinds.most_revealing(
            column_kinds.of_openlineage(t.type, t.subtype, t.masking)
            for t in source.transformations
        )
    return column_kinds.of_legacy_type(spec.transformationType)


def _describe(transformation: FieldTransformation) -> str:
    label = "/".join(p for p in (transformation.type, transformation.subtype) if p)
    return f"{label}: {transformation.description}" if transformation.description else label
