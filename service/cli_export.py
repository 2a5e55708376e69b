"""`governance lineage export ID --format F [-o FILE]`: an asset's lineage neighbourhood
as a file, from a running service (`GET /lineage/{id}/export`), so the CLI writes
exactly what the API and the dashboard do.

The file goes to standard output, or to `-o FILE` (written whole or not at all: the
answer is read first). A neighbourhood cut at `--limit` is written and a warning
printed. Exit status 0 when written, 1 when the service refused (the problem's
line on standard error), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import quote

import httpx

from service.cli_output import CliError, explain, problem_line

TIMEOUT = httpx.Timeout(120.0, connect=10.0)


def run(args: argparse.Namespace) -> int:
    try:
        content, truncated = _fetch(args)
        _write(content, args.output)
    except Exception as exc:
        if args.debug:
            raise
        print(f"governance: {explain(exc)}", file=sys.stderr)
        return 1
    if truncated:
        print(
            "governance: the neighbourhood has more assets than --limit; the export is cut",
            file=sys.stderr,
        )
    return 0


def _fetch(args: argparse.Namespace) -> tuple[bytes, bool]:
    if not args.token:
        raise CliError("an API token is needed: --token or GOVERNANCE_TOKEN")
    params = {"format": args.format, "direction": args.direction}
    for name in ("depth", "limit", "as_of"):
        value = getattr(args, name)
        if value is not None:
            params[name] = str(value)
    base = args.url.rstrip("/").removesuffix("/api/v1")
    headers = {"Authorization": f"Bearer {args.token}", "User-Agent": "governance-cli"}
    with httpx.Client(base_url=base + "/api/v1", headers=headers, timeout=TIMEOUT) as client:
        response = client.get(f"/lineage/{quote(args.asset_id, safe='')}/export", params=params)
    if response.status_code != 200:
        raise CliError(f"{args.asset_id}: {problem_line(response)}")
    return response.content, response.headers.get("lineage-truncated") == "true"


def _write(content: bytes, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return
    Path(output).write_bytes(content)
