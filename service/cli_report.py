"""What `governance check manifest` prints: the service's change-impact answer as text,
JSON, SARIF 2.1.0 (for code scanning) or Markdown (a pull-request comment), and
whether it fails the check. Pure: the answer (a dict, as the service sent it) in, text
out.

Each impacted asset belongs to the change its path starts from (`via[0]` is the
changed asset, or `asset.column`), so a SARIF result and a Markdown row can say whom a
change reaches. An asset the caller may not read comes as a stand-in (`redacted:<n>`,
`redacted` true, its owning `team`): it is printed as its stand-in id with
"hidden · team <team>" where owners would be.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from service import __version__

FORMATS = ("text", "json", "sarif", "markdown")
FAIL_ON = ("breaking", "any", "none")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
OWNERS_SHOWN = 5

Report = Mapping[str, Any]


def fails(report: Report, fail_on: str) -> bool:
    """`breaking`: any breaking change; `any`: any change at all; `none`: never."""
    if fail_on == "breaking":
        return bool(report["breaking"])
    if fail_on == "any":
        return bool(report["changes"])
    return False


def render(report: Report, form: str, paths: Mapping[str, str], manifest_uri: str) -> str:
    """The report in `form`; `paths`: each asset's file as the repository has it (for
    SARIF locations), `manifest_uri` the location of what has no file of its own."""
    if form == "json":
        return orjson.dumps(report, option=orjson.OPT_INDENT_2).decode()
    if form == "sarif":
        document = sarif(report, paths, manifest_uri)
        return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()
    if form == "markdown":
        return markdown(report)
    return text(report)


def where(change: Mapping[str, Any]) -> str:
    """The changed thing as an impacted path starts from it: `asset` or `asset.column`."""
    column = change.get("column")
    return f"{change['asset']}.{column}" if column else str(change["asset"])


def reached_by(report: Report, change: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    start = where(change)
    return [item for item in report["impacted"] if item["via"] and item["via"][0] == start]


def summary(report: Report) -> str:
    changes = report["changes"]
    breaking = sum(1 for c in changes if c["breaking"])
    impacted = len(report["impacted"])
    return (
        f"dbt project {report.get('project', '?')}: {_count(len(changes), 'change')}, "
        f"{breaking} breaking; {_count(impacted, 'asset')} impacted downstream"
    )


def describe(change: Mapping[str, Any]) -> str:
    """One line: what changed, from what to what."""
    kind = str(change["kind"]).replace("_", " ")
    before, after = change.get("from"), change.get("to")
    if change.get("redacted"):
        return f"{kind}: {where(change)} ({hidden(change)})"
    if before and after:
        return f"{kind}: {where(change)} ({before} -> {after})"
    if before or after:
        return f"{kind}: {where(change)} ({before or after})"
    return f"{kind}: {where(change)}"


def hidden(item: Mapping[str, Any]) -> str:
    """What a stand-in tells: only the team owning the hidden asset's domain."""
    return f"hidden · team {item.get('team') or 'unknown'}"


# -- text ---------------------------------------------------------------------------


def text(report: Report) -> str:
    lines = [summary(report)]
    breaking = [c for c in report["changes"] if c["breaking"]]
    other = [c for c in report["changes"] if not c["breaking"]]
    if breaking:
        lines += ["", "breaking changes"] + [f"  {describe(c)}" for c in breaking]
    if other:
        lines += ["", "other changes"] + [f"  {describe(c)}" for c in other]
    if report["impacted"]:
        lines += ["", "impacted downstream (hops, asset, owners, path)"]
        for item in report["impacted"]:
            lines.append(
                f"  {item['distance']}  {_target(item)}  "
                f"[{_owned_by(item) or 'no owner'}]  via {' -> '.join(item['via'])}"
            )
    return "\n".join(lines)


# -- Markdown -----------------------------------------------------------------------


def markdown(report: Report) -> str:
    breaking = [c for c in report["changes"] if c["breaking"]]
    other = [c for c in report["changes"] if not c["breaking"]]
    project = _cell(report.get("project", ""))
    if breaking:
        head = (
            f"**{_count(len(breaking), 'breaking change')}** reaching "
            f"**{_count(len(report['impacted']), 'downstream asset')}**"
        )
    else:
        head = "No breaking changes"
    lines = [
        f"### Change impact of dbt project `{project}`",
        "",
        f"{head} ({_count(len(report['changes']), 'change')} in all).",
    ]
    if breaking:
        lines += [
            "",
            "#### Breaking changes",
            "",
            "| Change | Asset | Column | From | To | Reaches |",
        ]
        lines.append("|---|---|---|---|---|---|")
        for c in breaking:
            lines.append(
                f"| {_cell(c['kind'])} | {_asset(c)} | {_code(c.get('column'))} "
                f"| {_cell(c.get('from') or '')} | {_cell(c.get('to') or '')} "
                f"| {len(reached_by(report, c))} |"
            )
    if report["impacted"]:
        lines += ["", "#### Impacted downstream", "", "| Asset | Column | Hops | Owners | Via |"]
        lines.append("|---|---|---|---|---|")
        for item in report["impacted"]:
            via = " → ".join(f"`{_cell(step)}`" for step in item["via"])
            lines.append(
                f"| {_asset(item)} | {_code(item.get('column'))} | {item['distance']} "
                f"| {_cell(_owned_by(item))} | {via} |"
            )
    if other:
        lines += ["", f"<details><summary>Other changes ({len(other)})</summary>", ""]
        lines += ["| Change | Asset | Column | From | To |", "|---|---|---|---|---|"]
        for c in other:
            lines.append(
                f"| {_cell(c['kind'])} | {_asset(c)} | {_code(c.get('column'))} "
                f"| {_cell(c.get('from') or '')} | {_cell(c.get('to') or '')} |"
            )
        lines += ["", "</details>"]
    return "\n".join(lines)


def _cell(value: object) -> str:
    """Text safe inside a table cell: no line break, no column separator."""
    return " ".join(str(value).split()).replace("|", "\\|").replace("`", "'")


def _asset(item: Mapping[str, Any]) -> str:
    """An asset cell: its id, and for a stand-in what it tells."""
    cell = f"`{_cell(item['asset'])}`"
    return f"{cell} ({_cell(hidden(item))})" if item.get("redacted") else cell


def _code(value: object) -> str:
    return f"`{_cell(value)}`" if value else ""


# -- SARIF 2.1.0 --------------------------------------------------------------------

_RULE_TEXT = {
    "column_removed": "A column that others read is removed",
    "column_type_changed": "A column's data type changes",
    "test_removed": "A data test is removed",
    "relation_changed": "The relation (database, schema or alias) is renamed",
    "materialization_changed": "The materialization changes",
}


def sarif(report: Report, paths: Mapping[str, str], manifest_uri: str) -> dict[str, Any]:
    """One run of one tool; a rule per kind of change found, a result per change:
    `error` when breaking, else `note`, located at the changed asset's file where the
    manifest names one, else at the manifest."""
    kinds = sorted({c["kind"] for c in report["changes"]})
    index = {kind: i for i, kind in enumerate(kinds)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "governance",
                        "version": __version__,
                        "rules": [_rule(kind) for kind in kinds],
                    }
                },
                "results": [
                    _result(report, c, index[c["kind"]], paths, manifest_uri)
                    for c in report["changes"]
                ],
            }
        ],
    }


def _rule(kind: str) -> dict[str, Any]:
    verb = kind.rsplit("_", 1)[-1]
    text_ = _RULE_TEXT.get(kind) or f"A {kind.rsplit('_', 1)[0]} is {verb}"
    return {
        "id": kind,
        "name": "".join(part.capitalize() for part in kind.split("_")),
        "shortDescription": {"text": text_},
        "help": {"text": "What the change reaches downstream: docs/impact.md"},
    }


def _result(
    report: Report,
    change: Mapping[str, Any],
    rule_index: int,
    paths: Mapping[str, str],
    manifest_uri: str,
) -> dict[str, Any]:
    reached = reached_by(report, change)
    message = describe(change)
    if change["breaking"]:
        message += f"; reaches {_count(len(reached), 'downstream asset')}"
        if reached:
            owners = sorted({o for item in reached for o in item["owners"]})
            shown = ", ".join(_target(item) for item in reached[:OWNERS_SHOWN])
            more = f" and {len(reached) - OWNERS_SHOWN} more" if len(reached) > OWNERS_SHOWN else ""
            message += f": {shown}{more}"
            if owners:
                message += f" (owners: {_owners(owners)})"
    uri = paths.get(str(change["asset"]), manifest_uri)
    return {
        "ruleId": change["kind"],
        "ruleIndex": rule_index,
        "level": "error" if change["breaking"] else "note",
        "message": {"text": message},
        "locations": [
            {
                "physicalLocation": {"artifactLocation": {"uri": uri}},
                "logicalLocations": [{"fullyQualifiedName": where(change), "kind": "member"}],
            }
        ],
        "partialFingerprints": {"change/v1": f"{change['kind']}:{where(change)}"},
    }


def _target(item: Mapping[str, Any]) -> str:
    return f"{item['asset']}.{item['column']}" if item.get("column") else str(item["asset"])


def _owned_by(item: Mapping[str, Any]) -> str:
    """An impacted asset's owners, or for a stand-in its owning team."""
    return hidden(item) if item.get("redacted") else _owners(item["owners"])


def _owners(owners: Sequence[str]) -> str:
    shown = ", ".join(owners[:OWNERS_SHOWN])
    return shown + (f" +{len(owners) - OWNERS_SHOWN}" if len(owners) > OWNERS_SHOWN else "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
