"""Cells a spreadsheet shows as written.

A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
prefixed with `'`, so a spreadsheet shows it as text instead of running it as a
formula (OWASP, "CSV Injection"). Every CSV file the service writes goes through it.
"""

from __future__ import annotations

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: str | int | None) -> str | int:
    """Text that would start a formula gets a leading `'`; numbers stay numbers, None
    is empty."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value
