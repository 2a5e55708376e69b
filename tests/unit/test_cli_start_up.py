"""The `governance` command reads its command line without the SQL parser: sqlglot
costs about 0.2 s of CPU to import, which every call would pay (the integration
tests make hundreds), while only the service and the lineage export need it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service import cli
from service.domain.lineage_export_formats import NAMES


def test_the_command_line_is_read_without_importing_sqlglot() -> None:
    code = (
        "import sys\n"
        "from service.cli import _parser\n"
        "_parser().parse_args(['neo4j', 'status'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'sqlglot'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


def test_lineage_export_takes_exactly_the_export_formats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = cli._parser()
    for name in NAMES:
        assert parser.parse_args(["lineage", "export", "a", "--format", name]).format == name
    with pytest.raises(SystemExit):
        parser.parse_args(["lineage", "export", "a", "--format", "svg"])
    assert f"(choose from {', '.join(map(repr, NAMES))})" in capsys.readouterr().err


def test_lineage_export_help_lists_the_export_formats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        cli._parser().parse_args(["lineage", "export", "--help"])
    assert f"the file's format: {', '.join(NAMES)}" in " ".join(capsys.readouterr().out.split())
