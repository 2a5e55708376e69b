"""`governance ingest manifest|run-results|openlineage|sql PATH...`: files sent to a
running service over its API, with a progress display and a summary.

Every file is opened (and an OpenLineage file read and parsed) before anything is
sent, so a missing or broken file fails the command before it changes the graph.
A dbt artifact goes in one request, streamed from its file (a large one first
gzip-compressed piece by piece into a temporary file), so the command's memory does
not follow the file's size; the service spools it once and reads it as it streams. OpenLineage events
go in batches of at most 10,000 events (the service's limit per request) and
8 MiB (under its default body limit); a batch the service still finds too large
is halved and sent again, which is safe because the service validates a whole
request before it writes, and an event sent twice converges.
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import httpx
import orjson

from service.cli_output import (
    CliError,
    Where,
    manifest_summary,
    openlineage_summary,
    problem_line,
    progress,
    run_results_summary,
    sql_summary,
)
from service.domain.decompress import GZIP_MAGIC

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

GZIP_FROM = 64 * 1024
PIECE = 256 * 1024
MAX_EVENTS = 10_000
BATCH_BYTES = 8 * 1024 * 1024
TIMEOUT = httpx.Timeout(900.0, connect=10.0)


@dataclass(frozen=True)
class Event:
    where: str  # "line 12", "item 11" or "" (the file's one event): how to find it
    body: bytes


@dataclass
class Sender:
    client: httpx.Client
    bar: Progress
    task: TaskID
    name: str

    def post(
        self, path: str, body: bytes, params: Mapping[str, str] | None = None
    ) -> httpx.Response:
        """POST `body` (gzip-compressed when large), showing the bytes as they go."""
        gzipped = body[:2] == GZIP_MAGIC
        if not gzipped and len(body) >= GZIP_FROM:
            self.bar.update(self.task, description=f"{self.name}: compressing")
            body, gzipped = gzip.compress(body, compresslevel=5), True
        return self._send(path, io.BytesIO(body), gzipped, params)

    def post_file(
        self, path: str, file: IO[bytes], params: Mapping[str, str] | None = None
    ) -> httpx.Response:
        """POST the file as it is read, never whole in memory: as it is when gzip or
        small, else first gzip-compressed piece by piece into a temporary file, so the
        request still states its length (which some proxies require)."""
        gzipped = file.read(len(GZIP_MAGIC)) == GZIP_MAGIC
        size = file.seek(0, os.SEEK_END)
        if gzipped or size < GZIP_FROM:
            return self._send(path, file, gzipped, params)
        self.bar.update(self.task, description=f"{self.name}: compressing")
        file.seek(0)
        with tempfile.TemporaryFile() as packed:
            for piece in _compressed(iter(lambda: file.read(PIECE), b"")):
                packed.write(piece)
            return self._send(path, packed, True, params)

    def _send(
        self, path: str, file: IO[bytes], gzipped: bool, params: Mapping[str, str] | None
    ) -> httpx.Response:
        size = file.seek(0, os.SEEK_END)
        file.seek(0)
        headers = {"Content-Type": "application/json", "Content-Length": str(size)}
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        pieces = self._read(file, size)
        return self.client.post(path, content=pieces, params=params, headers=headers)

    def _read(self, file: IO[bytes], size: int) -> Iterator[bytes]:
        self.bar.update(self.task, description=f"{self.name}: sending")
        done = 0
        while piece := file.read(PIECE):
            yield piece
            done += len(piece)
            self.bar.update(self.task, detail=f"{_mb(done, size)} MB sent")
        self.bar.update(self.task, description=f"{self.name}: the service is working on it")


def _compressed(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """The pieces as one gzip stream, compressed as they come."""
    compressor = zlib.compressobj(5, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    for piece in pieces:
        if out := compressor.compress(piece):
            yield out
    yield compressor.flush()


def _mb(done: int, total: int) -> str:
    return f"{min(done, total) / 1e6:.1f} of {total / 1e6:.1f}"


def run(args: argparse.Namespace) -> int:
    if not args.token:
        raise CliError("an API token is needed: --token or GOVERNANCE_TOKEN")
    base = args.url.rstrip("/").removesuffix("/api/v1")
    headers = {"Authorization": f"Bearer {args.token}", "User-Agent": "governance-cli"}
    with httpx.Client(base_url=base + "/api/v1", headers=headers, timeout=TIMEOUT) as client:
        if args.kind == "openlineage":
            files = [(path, read_events(path)) for path in args.paths]
            return _each(files, lambda bar, item: _openlineage(client, bar, item, args), args.json)
        if args.kind == "sql":
            scripts = [(path, Path(path).read_text(encoding="utf-8")) for path in args.paths]
            return _each(scripts, lambda bar, item: _sql(client, bar, item, args), args.json)
        for path in args.paths:
            Path(path).open("rb").close()
        return _each(args.paths, lambda bar, path: _artifact(client, bar, path, args), args.json)


def _each(
    items: Sequence[Any], send: Callable[[Progress, Any], tuple[Any, str]], as_json: bool
) -> int:
    """Send every item in turn; print what the service answered (its JSON, one line
    per file, or a summary) once the progress display is gone, also for the items
    done before a failure."""
    done: list[tuple[Any, str]] = []
    try:
        with progress() as bar:
            for item in items:
                done.append(send(bar, item))
    finally:
        for answer, summary in done:
            print(orjson.dumps(answer).decode() if as_json else summary, flush=True)
    return 0


def _artifact(
    client: httpx.Client, bar: Progress, path: str, args: argparse.Namespace
) -> tuple[Any, str]:
    name = Path(path).name
    task = bar.add_task(f"{name}: reading", total=None, detail="")
    sender = Sender(client, bar, task, name)
    with Path(path).open("rb") as file:
        head = file.read(PIECE)
        file.seek(0)
        if head[:2] != GZIP_MAGIC and not re.match(rb"\s*\{", head):
            raise CliError(f"{path}: not a JSON object, so not a dbt {args.kind} file")
        if args.kind == "manifest":
            params = {"prune": "false" if args.no_prune else "true"}
            if args.project:
                params["project"] = args.project
            if args.namespace:
                params["namespace"] = args.namespace
            answer = service_answer(path, sender.post_file("/lineage/manifest", file, params))
            summary = manifest_summary(path, answer)
        else:
            answer = service_answer(path, sender.post_file("/quality/results/dbt", file))
            summary = run_results_summary(path, answer)
    bar.update(task, visible=False)
    return answer, summary


def _sql(
    client: httpx.Client, bar: Progress, item: tuple[str, str], args: argparse.Namespace
) -> tuple[Any, str]:
    """One file's SQL in one request; the writer is named after the file by default."""
    path, text = item
    name = Path(path).name
    task = bar.add_task(f"{name}: the service is reading it", total=None, detail="")
    body = {
        "dialect": args.dialect,
        "namespace": args.namespace,
        "default_database": args.default_database,
        "default_schema": args.default_schema,
        "source": args.source or _source_name(Path(path).stem),
        "sql": text,
    }
    response = client.post("/lineage/sql", json={k: v for k, v in body.items() if v is not None})
    answer = service_answer(path, response)
    bar.update(task, visible=False)
    return answer, sql_summary(path, answer)


def _source_name(stem: str) -> str:
    """A file name as a writer's name: the characters an origin allows, others as `-`."""
    cleaned = re.sub(r"[^A-Za-z0-9_.:/@-]", "-", stem).lstrip("_.:/@-")
    return cleaned[:200] or "sql"


def service_answer(path: str, response: httpx.Response, where: Where | None = None) -> Any:
    if response.status_code != 200:
        raise CliError(f"{path}: {problem_line(response, where)}")
    try:
        return response.json()
    except ValueError as exc:
        raise CliError(f"{path}: the answer is not JSON; is --url this service?") from exc


def _openlineage(
    client: httpx.Client,
    bar: Progress,
    item: tuple[str, list[Event]],
    args: argparse.Namespace,
) -> tuple[Any, str]:
    path, events = item
    name = Path(path).name
    task = bar.add_task(name, total=len(events), detail=f"0 of {len(events):,} events")
    sender = Sender(client, bar, task, name)
    answers: list[Any] = []
    for batch in batches(events, args.batch_size):
        answers += _send_events(sender, path, batch)
        done = int(bar.tasks[task].completed) + len(batch)
        bar.update(task, completed=done, detail=f"{done:,} of {len(events):,} events")
    bar.update(task, visible=False)
    total = add_up(answers)
    return total, openlineage_summary(path, total, len(answers))


def _send_events(sender: Sender, path: str, events: Sequence[Event]) -> list[Any]:
    response = sender.post("/lineage/openlineage", b"[" + b",".join(e.body for e in events) + b"]")
    if response.status_code == 413 and len(events) > 1:
        half = len(events) // 2
        return _send_events(sender, path, events[:half]) + _send_events(sender, path, events[half:])
    return [service_answer(path, response, lambda loc: _event_at(events, loc))]


def _event_at(events: Sequence[Event], loc: Sequence[Any]) -> str:
    """`body.3.run.runId` of a batch as the user's file has it: `line 12, run.runId`."""
    if len(loc) < 2 or not isinstance(loc[1], int) or not 0 <= loc[1] < len(events):
        return ".".join(map(str, loc))
    rest = ".".join(map(str, loc[2:]))
    return ", ".join(part for part in (events[loc[1]].where, rest) if part)


def batches(events: Sequence[Event], size: int = MAX_EVENTS) -> Iterator[Sequence[Event]]:
    """Consecutive runs of at most `size` events and BATCH_BYTES (one event alone
    may be larger; the service judges it)."""
    start, used = 0, 0
    for end, event in enumerate(events):
        if end > start and (end - start >= size or used + len(event.body) > BATCH_BYTES):
            yield events[start:end]
            start, used = end, 0
        used += len(event.body) + 1
    if start < len(events):
        yield events[start:]


def add_up(answers: Sequence[Any]) -> Any:
    """The service's answers to the batches of one file, as one answer: numbers
    added, lists joined."""
    total = answers[0]
    for answer in answers[1:]:
        total = _add(total, answer)
    return total


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, dict) and isinstance(b, dict):
        return {key: _add(a[key], b[key]) if key in b else a[key] for key in a}
    if isinstance(a, list) and isinstance(b, list):
        return a + b
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return a


def read_events(path: str) -> list[Event]:
    """Run events from a JSON array, one JSON object, or one per line (NDJSON); the
    file may be gzip-compressed."""
    raw = Path(path).read_bytes()
    if raw[:2] == GZIP_MAGIC:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise CliError(f"{path}: not a readable gzip file ({exc})") from exc
    document = _whole(raw)
    if isinstance(document, list):
        events = [_event(path, f"item {i}", item) for i, item in enumerate(document)]
    elif isinstance(document, dict):
        events = [Event("", orjson.dumps(document))]
    elif raw.lstrip().startswith(b"["):
        raise CliError(f"{path}: not JSON ({_json_error(raw)})")
    else:
        events = _lines(path, raw)
    if not events:
        raise CliError(f"{path}: holds no run events")
    return events


def _whole(raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None


def _json_error(raw: bytes) -> str:
    try:
        orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return str(exc)
    return "not a JSON document"


def _lines(path: str, raw: bytes) -> list[Event]:
    events = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            reason = str(exc).split(":", 1)[0]
            raise CliError(f"{path} line {number}: not JSON ({reason})") from exc
        events.append(_event(path, f"line {number}", item, line.strip()))
    return events


def _event(path: str, where: str, item: Any, body: bytes | None = None) -> Event:
    if not isinstance(item, dict):
        raise CliError(f"{path} {where}: a run event is a JSON object, not {type(item).__name__}")
    return Event(where, body if body is not None else orjson.dumps(item))
