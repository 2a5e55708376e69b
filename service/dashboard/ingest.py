"""/ingest: upload a dbt manifest or a SQL file from the browser and see what it changed.

The SQL form does what `POST /api/v1/lineage/sql` does (`service.api.sql.ingest`), with
the file's text as the script and its name as the writer (`sql:<name>`). What the
service refuses in it is said beside the form, which keeps what was typed.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api import sql as sql_api
from service.api.uploads import inflation_budget
from service.dashboard.render import html, page_route
from service.domain.access.scopes import Scope
from service.errors import Unprocessable, validation_error
from service.models.sql import MAX_SQL_CHARS, SqlIngest
from service.models.validation import validate
from service.routing import Body, signed_in
from service.store.manifest_upload import ManifestUpload, ingest_upload
from service.store.sessions import Session
from service.store.spool import spooled_file

DIALECTS = (
    "snowflake",
    "bigquery",
    "postgres",
    "redshift",
    "mysql",
    "trino",
    "duckdb",
    "databricks",
    "spark",
    "hive",
    "tsql",
)
SQL_FIELDS = ("dialect", "namespace", "default_database", "default_schema")
# A problem's field as the form names it.
LABELS = {
    "sql": "SQL file",
    "statements": "SQL file",
    "source": "SQL file name",
    "dialect": "Dialect",
    "namespace": "Namespace",
    "default_database": "Default database",
    "default_schema": "Default schema",
}
SOURCE_CHARS = 200
_NOT_IN_SOURCE = re.compile(r"[^A-Za-z0-9_.:/@-]+")
_LEADING = re.compile(r"^[^A-Za-z0-9]+")


def _page(request: Request, session: Session, status: int = 200, **context: Any) -> Response:
    values = {
        "title": "Ingest",
        "section": "ingest",
        "dialects": DIALECTS,
        "summary": None,
        "filename": None,
        "sql_result": None,
        "sql_filename": None,
        "sql_form": {},
        "sql_problems": [],
        **context,
    }
    return html(request, "ingest.html", values, session, status=status)


async def form(request: Request, session: Session) -> Response:
    return _page(request, session)


async def upload(request: Request, session: Session) -> Response:
    """The form's file part, as Starlette spooled it, goes through the API's manifest
    pipeline: never read into memory whole."""
    form_data = await request.form()
    sent = form_data.get("file")
    given = form_data.get("namespace")
    if not isinstance(sent, UploadFile) or not sent.filename:
        raise validation_error(("body", "file"), "choose a manifest.json file to upload", "missing")
    upload = ManifestUpload(
        actor=f"user:{session.user.id}",
        namespace=given.strip() or None if isinstance(given, str) else None,
        principal=session.principal,
    )
    summary = await ingest_upload(
        deps.graph(request),
        spooled_file(sent.file, False),
        upload,
        deps.settings(request),
        inflation_budget(request),
    )
    return _page(request, session, summary=summary, filename=sent.filename)


def source_name(filename: str) -> str:
    """The writer's name a file gives: its name without directory or extension, each run
    of characters a source may not hold made one `-` (`q3 revenue.sql` is `q3-revenue`)."""
    stem = PurePosixPath(filename.replace("\\", "/")).stem
    cleaned = _LEADING.sub("", _NOT_IN_SOURCE.sub("-", stem))[:SOURCE_CHARS].rstrip("-")
    return cleaned or "upload"


async def _sql_body(form_data: FormData, fields: dict[str, str]) -> tuple[SqlIngest, str]:
    """The request the form makes, and the file's name; 422 naming the field at fault."""
    sent = form_data.get("file")
    if not isinstance(sent, UploadFile) or not sent.filename:
        raise validation_error(("body", "sql"), "choose a .sql file to upload", "missing")
    raw = await sent.read()
    limit = f"{MAX_SQL_CHARS:,}"
    if len(raw) > MAX_SQL_CHARS * 4:  # UTF-8 is at most 4 bytes a character
        raise validation_error(("body", "sql"), f"is over {limit} characters", "too_long")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise validation_error(("body", "sql"), "is not UTF-8 text", "invalid_text") from exc
    if not text.strip():
        raise validation_error(("body", "sql"), "holds no SQL", "missing")
    if len(text) > MAX_SQL_CHARS:
        raise validation_error(("body", "sql"), f"is over {limit} characters", "too_long")
    body = {name: value for name, value in fields.items() if value}
    request = validate(SqlIngest, {**body, "sql": text, "source": source_name(sent.filename)})
    return request, sent.filename


def _said(exc: Unprocessable) -> list[str]:
    if not exc.errors:
        return [exc.detail]
    return [f"{LABELS.get(str(e.loc[-1]), str(e.loc[-1]))}: {e.msg}" for e in exc.errors[:10]]


async def upload_sql(request: Request, session: Session) -> Response:
    form_data = await request.form()
    fields = {name: _field(form_data, name) for name in SQL_FIELDS}
    try:
        body, filename = await _sql_body(form_data, fields)
        result = await sql_api.ingest(request, body, f"user:{session.user.id}")
    except Unprocessable as exc:
        return _page(request, session, 422, sql_form=fields, sql_problems=_said(exc))
    return _page(request, session, sql_form=fields, sql_result=result, sql_filename=filename)


def _field(form_data: FormData, name: str) -> str:
    value = form_data.get(name)
    return value.strip() if isinstance(value, str) else ""


routes = [
    # Per domain: a user who is editor in one domain ingests into it; writes elsewhere
    # are refused asset by asset (403 naming them, nothing written).
    page_route(
        "/ingest",
        form,
        methods=["GET"],
        name="ingest_page",
        policy=signed_in(Scope.WRITE, per_domain=True),
    ),
    page_route(
        "/ingest",
        upload,
        methods=["POST"],
        name="ingest",
        policy=signed_in(Scope.WRITE, body=Body.MANIFEST, per_domain=True),
    ),
    page_route(
        "/ingest/sql",
        upload_sql,
        methods=["POST"],
        name="ingest_sql",
        policy=signed_in(Scope.WRITE, per_domain=True),
    ),
]
