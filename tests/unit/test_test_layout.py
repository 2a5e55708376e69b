"""What two test files share lives in tests/support: a test module imports no other test
module, so each reads on its own and a helper has one home."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _imported_test_modules(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else []
        )
        found += [name for name in names if name.rsplit(".", 1)[-1].startswith("test_")]
    return found


def test_no_test_module_imports_another() -> None:
    borrowed = {
        str(path.relative_to(TESTS)): modules
        for path in sorted(TESTS.rglob("*.py"))
        if (modules := _imported_test_modules(path))
    }
    assert borrowed == {}


def test_the_check_sees_an_import_of_a_test_module(tmp_path: Path) -> None:
    borrower = tmp_path / "test_borrower.py"
    borrower.write_text(
        "from tests.integration.test_cli import governance\nimport tests.unit.test_waiting\n"
        "from tests.support.cli import run_cli\n",
        encoding="utf-8",
    )
    assert _imported_test_modules(borrower) == [
        "tests.integration.test_cli",
        "tests.unit.test_waiting",
    ]
