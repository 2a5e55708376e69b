"""`governance check manifest PATH --project P`: a pull request's dbt manifest checked
against the project as the service holds it, before it is merged; a CI step.

The manifest is sent as `governance ingest manifest` sends it (streamed, gzip when
large) to `POST /impact/manifest`, which writes nothing. The report goes to standard
output in the chosen format; the exit status is the verdict: 1 when the check fails
(`--fail-on`), 0 when it passes, and 2 when there is no verdict (a usage error, a file
that cannot be read, a service that cannot be reached or refuses the request), so a CI
job can tell "this change breaks readers" from "the check could not run".
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
from pathlib import Path
from typing import Any

import httpx
import orjson

from service.cli_ingest import TIMEOUT, Sender, service_answer
from service.cli_output import CliError, explain, progress
from service.cli_report import fails, render
from service.domain.decompress import GZIP_MAGIC

NO_VERDICT = 2
# Where a node's file is named in a manifest, per top-level map.
NODE_MAPS = ("nodes", "sources", "exposures", "seeds", "snapshots", "analyses")


def run(args: argparse.Namespace) -> int:
    try:
        report, paths = _check(args)
    except Exception as exc:
        if args.debug:
            raise
        print(f"governance: {explain(exc)}", file=sys.stderr)
        return NO_VERDICT
    sys.stdout.write(render(report, args.format, paths, _uri(Path(args.path))) + "\n")
    return 1 if fails(report, args.fail_on) else 0


def _check(args: argparse.Namespace) -> tuple[Any, dict[str, str]]:
    if not args.token:
        raise CliError("an API token is needed: --token or GOVERNANCE_TOKEN")
    path = Path(args.path)
    paths = file_paths(path)
    params = {"project": args.project}
    if args.namespace:
        params["namespace"] = args.namespace
    if args.depth:
        params["depth"] = str(args.depth)
    base = args.url.rstrip("/").removesuffix("/api/v1")
    headers = {"Authorization": f"Bearer {args.token}", "User-Agent": "governance-cli"}
    with (
        httpx.Client(base_url=base + "/api/v1", headers=headers, timeout=TIMEOUT) as client,
        progress() as bar,
        path.open("rb") as file,
    ):
        task = bar.add_task(f"{path.name}: reading", total=None, detail="")
        response = Sender(client, bar, task, path.name).post_file("/impact/manifest", file, params)
        bar.update(task, visible=False)
    return service_answer(str(path), response), paths


def file_paths(path: Path) -> dict[str, str]:
    """Each node's file (`original_file_path`) as the repository has it: below the dbt
    project's directory, which is the parent of `target/` holding the manifest (else the
    manifest's own directory)."""
    raw = path.read_bytes()
    if raw[: len(GZIP_MAGIC)] == GZIP_MAGIC:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise CliError(f"{path}: not a readable gzip file ({exc})") from exc
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise CliError(f"{path}: not JSON ({str(exc).split(':', 1)[0]})") from exc
    if not isinstance(document, dict):
        raise CliError(f"{path}: not a JSON object, so not a dbt manifest")
    root = path.parent.parent if path.parent.name == "target" else path.parent
    found = {}
    for key in NODE_MAPS:
        nodes = document.get(key)
        for unique_id, node in nodes.items() if isinstance(nodes, dict) else ():
            original = node.get("original_file_path") if isinstance(node, dict) else None
            if isinstance(original, str) and original:
                found[unique_id] = _uri(root / original)
    return found


def _uri(path: Path) -> str:
    """A path as a SARIF location: relative to the working directory (the repository's
    root in CI) when it lies below it, with forward slashes."""
    if path.is_absolute():
        try:
            path = path.relative_to(Path.cwd())
        except ValueError:
            return path.as_uri()
    return os.path.normpath(path).replace(os.sep, "/")
