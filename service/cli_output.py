"""What the `governance` command shows: one line per failure, human summaries of
the service's answers, and a progress display.

Failures become one line on standard error (`explain`), never a traceback;
summaries go to standard output; the progress display is drawn on standard error
only when that is a terminal, and is wiped when the work ends.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx
    from rich.progress import Progress

# httpx, the Neo4j driver and rich are imported where they are used: a command
# that needs none of them (`--version`, `openapi`, `--help`) starts faster.

FIELD_ERRORS_SHOWN = 3

Where = Callable[[Sequence[Any]], str]


class CliError(Exception):
    """A failure the user can act on; its text is the whole message."""


def explain(exc: BaseException) -> str:
    """One line saying what went wrong, for any exception a command may raise.

    An error of httpx or of the driver can only come from a process that imported
    it: a command that used neither (a file that is not JSON) does not load them
    just to ask (the driver alone is most of a second of CPU)."""
    httpx = sys.modules.get("httpx")
    neo4j_errors = sys.modules.get("neo4j.exceptions")
    if isinstance(exc, CliError | ValueError | RuntimeError):
        text = str(exc)
    elif isinstance(exc, OSError):
        text = f"cannot read {exc.filename}: {exc.strerror}" if exc.filename else str(exc)
    elif httpx is not None and isinstance(exc, httpx.TransportError):
        text = _transport(exc)
    elif neo4j_errors is not None and isinstance(exc, neo4j_errors.AuthError):
        text = "Neo4j refused the user name or password (NEO4J_USERNAME, NEO4J_PASSWORD)"
    elif neo4j_errors is not None and isinstance(
        exc, neo4j_errors.DriverError | neo4j_errors.Neo4jError
    ):
        text = f"Neo4j: {exc}"
    else:
        text = f"unexpected {type(exc).__name__}: {exc} (--debug shows the traceback)"
    return " ".join(text.split())


def neo4j_unreachable(uri: str, exc: BaseException) -> CliError:
    return CliError(f"cannot reach Neo4j at {uri} ({_reason(exc)}); is it running? (NEO4J_URI)")


def _transport(exc: httpx.TransportError) -> str:
    import httpx

    url = str(exc.request.url.copy_with(query=None)) if _has_request(exc) else "the service"
    if isinstance(exc, httpx.ConnectError):
        return f"cannot reach {url} ({_reason(exc)}); is the service running? (--url)"
    if isinstance(exc, httpx.TimeoutException):
        return f"no answer from {url} in time ({type(exc).__name__})"
    return f"the connection to {url} failed ({_reason(exc)})"


def _has_request(exc: httpx.TransportError) -> bool:
    try:
        exc.request  # noqa: B018 - raises RuntimeError when the error has no request
    except RuntimeError:
        return False
    return True


def _reason(exc: BaseException) -> str:
    """The operating system's words for the innermost OSError, else the first line."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and isinstance(seen.errno, int) and seen.errno > 0:
            return os.strerror(seen.errno).lower()
        seen = seen.__cause__ or seen.__context__
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def problem_line(response: httpx.Response, where: Where | None = None) -> str:
    """`<status> <detail>: <field>: <msg>; ...` from a problem+json answer; `where`
    renames a field location (an OpenLineage file says `line 12` instead of `body.3`)."""
    try:
        problem = response.json()
    except ValueError:
        problem = None
    if not isinstance(problem, dict):
        return f"the service answered {response.status_code} {response.reason_phrase}"
    detail = str(problem.get("detail") or problem.get("title") or response.reason_phrase)
    errors = [e for e in problem.get("errors") or [] if isinstance(e, dict)]
    if where is not None and errors:
        detail = detail.split(":", 1)[0]
    fields = [
        f"{(where or _dotted)(e.get('loc') or [])}: {e.get('msg')}"
        for e in errors
        if str(e.get("msg")) not in detail
    ]
    shown = "; ".join(fields[:FIELD_ERRORS_SHOWN])
    more = len(fields) - FIELD_ERRORS_SHOWN
    line = f"{response.status_code} {detail.rstrip('.')}"
    if shown:
        line += f" ({shown}{f'; and {more} more' if more > 0 else ''})"
    if response.status_code == 401:
        line += " (check --token or GOVERNANCE_TOKEN)"
    return line


def _dotted(loc: Sequence[Any]) -> str:
    return ".".join(str(part) for part in loc) or "body"


def progress() -> Progress:
    """A transient progress display on standard error, drawn only on a terminal."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[detail]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
        disable=not sys.stderr.isatty(),
    )


def _n(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _counts(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{_n(value)} {name}" for name, value in counts.items())


def _some(names: Sequence[str], shown: int = 3) -> str:
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def _warnings(warnings: Sequence[str]) -> list[str]:
    if not warnings:
        return []
    return [f"  warnings        {len(warnings)}; the first: {warnings[0]}"]


def manifest_summary(path: str, answer: Mapping[str, Any]) -> str:
    schema = str(answer.get("dbt_schema_version") or "").rsplit("/", 1)[-1].removesuffix(".json")
    lineage = answer["column_lineage"]
    lines = [
        f"{path}: dbt project {answer['project']} (dbt {answer.get('dbt_version') or '?'}, "
        f"manifest {schema or '?'})",
        f"  assets          {_counts(answer['assets'])}",
        f"  lineage edges   {_counts(answer['edges'])}",
        f"  quality rules   {_counts(answer['quality_rules'])}",
        f"  column lineage  {_counts(lineage['edges'])} (from {_n(lineage['nodes'])} nodes; "
        f"{_n(lineage['skipped'])} nodes gave none, {_n(lineage['unresolved_columns'])} "
        "columns not traced)",
        f"  nodes skipped   {_n(answer['skipped'])}",
        *_warnings(answer["warnings"]),
    ]
    return "\n".join(lines)


def sql_summary(path: str, answer: Mapping[str, Any]) -> str:
    statements = answer["statements"]
    lines = [
        f"{path}: {_n(statements['received'])} statements as {answer['origin']}",
        f"  statements      {_n(statements['with_lineage'])} with lineage, "
        f"{_n(statements['without_lineage'])} without (reads, DDL), {_n(statements['failed'])} failed",
        f"  lineage edges   {_counts(answer['edges'])}",
        f"  column lineage  {_counts(answer['column_mappings'])}",
        f"  placeholders    {_n(answer['assets_created'])} made for tables no asset holds",
        *[f"  statement {f['index']}: {f['message']}" for f in answer["failures"][:10]],
        *_warnings(answer["warnings"]),
    ]
    return "\n".join(lines)


def run_results_summary(path: str, answer: Mapping[str, Any]) -> str:
    lines = [
        f"{path}: {_n(answer['received'])} results, {_n(answer['recorded'])} test results recorded",
        f"  not recorded    {_n(answer['skipped'])} skipped by dbt, {_n(answer['ignored'])} not "
        f"tests, {_n(answer['stale'])} older than the rule's newest, "
        f"{_n(answer['duplicates'])} already recorded",
    ]
    if answer["unmatched"]:
        lines.append(
            f"  unmatched       {len(answer['unmatched'])} with no rule (ingest the manifest "
            f"first): {_some(answer['unmatched'])}"
        )
    lines.append(f"  turned failing  {_some(answer['failed']) or 'none'}")
    lines.append(f"  recovered       {_some(answer['recovered']) or 'none'}")
    return "\n".join(lines)


def openlineage_summary(path: str, answer: Mapping[str, Any], requests: int) -> str:
    lines = [
        f"{path}: {_n(answer['received'])} run events in {_n(requests)} "
        f"request{'s' if requests != 1 else ''} ({_n(answer['complete'])} COMPLETE, "
        f"{_n(answer['runs'])} runs)",
        f"  lineage edges   {_counts(answer['edges'])}",
        f"  column mappings {_counts(answer['column_mappings'])}",
        f"  assets          {_counts(answer['assets'])}",
        *_warnings(answer["warnings"]),
    ]
    return "\n".join(lines)
