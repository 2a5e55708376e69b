"""What keeps an admin's Cypher from building a list that fills Neo4j's heap.

A list built inside one expression (`range()`, a list comprehension or `reduce()` over
it) is not counted by Neo4j's transaction memory limit, and the query timeout is only
checked between rows: `RETURN size([x IN range(1, 50000000) | toString(x)])` runs
Neo4j out of heap before either stops it. Every list such a query builds from nothing
starts at a `range()`, so each `range()` must have integer literal bounds (and step)
spanning at most `MAX_RANGE` values, and all of them together (they may be nested, so
their sizes multiply) at most `MAX_RANGES_PRODUCT`. The one exception is a `range()`
that is the whole of an UNWIND (`UNWIND range(1, $n) AS i`): Neo4j streams it one row
at a time, so the row cap and the query timeout stop it.

The plan says whether the query calls `range()` at all: Neo4j has already set string
literals and comments aside there, so `"range(1, 10^9)"` in a string is no call. The
plan replaces the literal bounds by parameters, so the bounds are read from the text,
once its strings and comments are blanked out. A plan that calls `range()` where the
text shows no readable call is refused.

Limits: a list can also grow from a literal by doubling in `reduce()` (`acc + acc`);
that is not caught here, and stops at Neo4j's own limits or the heap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

MAX_RANGE = 100_000
MAX_RANGES_PRODUCT = 1_000_000

_CALL = re.compile(r"(?<![\w.$`])range\s*\(", re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?\s*\d+")
_UNWIND = re.compile(r"\bUNWIND\s+$", re.IGNORECASE)
_AS = re.compile(r"\s+AS\b", re.IGNORECASE)
# A string, a comment or a quoted name; the text is blanked, a quoted name kept bare.
_TOKEN = re.compile(
    r"""'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?|//[^\n]*|/\*.*?(?:\*/|$)|`(?:[^`]|``)*`?""",
    re.DOTALL,
)


def size_refusal(text: str, plan: Mapping[str, Any] | None) -> str | None:
    """Why the query could build a list too large for Neo4j's heap, or None."""
    if plan is None or not any(_CALL.search(detail) for detail in _details(plan)):
        return None
    calls = list(_range_calls(_blank(text)))
    if not calls:
        return "it calls range() in a way whose bounds cannot be read"
    product = 1
    for arguments, streamed in calls:
        if streamed:
            continue
        span = _span(arguments)
        if span is None:
            return (
                "range() must have integer literal bounds (and step), "
                f"not range({', '.join(arguments)})"
            )
        if span > MAX_RANGE:
            return f"range({', '.join(arguments)}) has {span:,} values, more than {MAX_RANGE:,}"
        product *= max(span, 1)
    if product > MAX_RANGES_PRODUCT:
        return (
            f"its range() calls together may build {product:,} values, "
            f"more than {MAX_RANGES_PRODUCT:,}"
        )
    return None


def _details(plan: Mapping[str, Any]) -> Iterator[str]:
    stack = [plan]
    while stack:
        operator = stack.pop()
        yield str((operator.get("args") or {}).get("Details", ""))
        stack.extend(operator.get("children") or [])


def _blank(text: str) -> str:
    """The text with strings and comments turned into spaces, quoted names unquoted."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token.startswith("`"):
            return token.strip("`").replace("``", "`")
        return " " * len(token)

    return _TOKEN.sub(replace, text)


def _range_calls(text: str) -> Iterator[tuple[list[str], bool]]:
    """Each range() call's arguments, and whether it is the whole of an UNWIND."""
    for match in _CALL.finditer(text):
        depth, start, arguments = 0, match.end(), []
        for index in range(match.end(), len(text)):
            char = text[index]
            if char in "([{":
                depth += 1
            elif char in ")]}" and depth:
                depth -= 1
            elif char == "," and not depth:
                arguments.append(text[start:index].strip())
                start = index + 1
            elif char == ")":
                arguments.append(text[start:index].strip())
                break
        else:
            index = len(text)
        streamed = bool(_UNWIND.search(text, 0, match.start()) and _AS.match(text, index + 1))
        yield arguments, streamed


def _span(arguments: list[str]) -> int | None:
    """How many values range(*arguments) has, or None unless they are integer literals."""
    if len(arguments) not in (2, 3) or not all(_INTEGER.fullmatch(a) for a in arguments):
        return None
    start, end, *rest = (int(a.replace(" ", "")) for a in arguments)
    step = rest[0] if rest else 1
    if step == 0:
        return 0
    return max((end - start) // step + 1, 0)
