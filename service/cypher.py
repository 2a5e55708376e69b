"""Loads every named Cypher statement from `cypher/**/*.cypher` once, at start-up.

`cypher/assets/get.cypher` is the query `assets.get`; its leading `//` lines are
its documentation. Loading fails on a duplicate name, and running a query fails
before it reaches Neo4j when a `$param` it uses is not passed (one it does not use is
not sent: `Query.bind`). The only text ever formatted into a statement is a validated
integer bound (`{{max_depth}}`): Cypher cannot take a variable-length bound as a
parameter.

The query language's fragments (`cypher/query/`) also have slots (`<<where>>`),
which only the query compiler fills (`Query.fill`), with other fragments and with
predicates of its own fixed text and parameter names, never a client's value. A file
with slots is not a statement: `statement()` refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, LiteralString, cast

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_BOUND = re.compile(r"\{\{([a-z_]+)\}\}")
_SLOT = re.compile(r"<<([a-z_]+)>>")
_STRING_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|//[^\n]*")
# The largest integer bound written into a statement: a walk's depth in hops. A request
# never reaches it: `Limits` refuses a GOVERNANCE_MAX_LINEAGE_DEPTH above it at start-up.
MAX_BOUND = 10_000


class CypherError(RuntimeError):
    """A programming error in how a statement is stored or called: never the client's fault."""


@dataclass(frozen=True)
class Query:
    name: str
    text: str
    doc: str
    params: frozenset[str]
    bounds: frozenset[str]
    slots: frozenset[str] = frozenset()

    def statement(self, bounds: Mapping[str, int] | None = None) -> LiteralString:
        """The text to send, with integer bounds filled in.

        The cast to LiteralString is safe: the text comes from a file shipped with
        the service, and the only substitution is an `int` checked to lie in range.
        """
        if self.slots:
            raise CypherError(f"{self.name}: a fragment with slots {sorted(self.slots)}")
        return cast(LiteralString, self._bounded(self.text, bounds))  # type: ignore[redundant-cast]

    def fill(self, bounds: Mapping[str, int] | None = None, **slots: str) -> str:
        """A fragment for the query compiler: the text without its leading `//`
        documentation, with its bounds and every slot filled."""
        if set(slots) != self.slots:
            raise CypherError(
                f"{self.name}: slots {sorted(self.slots)} expected, got {sorted(slots)}"
            )
        lines = self.text.splitlines()
        start = next((i for i, line in enumerate(lines) if not line.startswith("//")), len(lines))
        text = self._bounded("\n".join(lines[start:]), bounds)
        for key, value in slots.items():
            text = text.replace("<<" + key + ">>", value)
        return text

    def _bounded(self, text: str, bounds: Mapping[str, int] | None) -> str:
        given = dict(bounds or {})
        if set(given) != self.bounds:
            raise CypherError(
                f"{self.name}: bounds {sorted(self.bounds)} expected, got {sorted(given)}"
            )
        for key, value in given.items():
            if type(value) is not int or not 0 <= value <= MAX_BOUND:
                raise CypherError(f"{self.name}: bound {key}={value!r} is not an integer in range")
            text = text.replace("{{" + key + "}}", str(value))
        return text

    def check_params(self, params: Mapping[str, Any]) -> None:
        missing = self.params - params.keys()
        if missing:
            raise CypherError(f"{self.name}: parameters not passed: {sorted(missing)}")

    def bind(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters to send: those the statement uses, every one of them passed.

        One the statement does not use is left out: Neo4j keeps a plan per statement
        and the types of all the parameters sent, used or not, so a caller passing a
        shared set (a null here, a list there) would otherwise have the same statement
        planned again for each combination."""
        self.check_params(params)
        return {name: value for name, value in params.items() if name in self.params}


class Queries(Mapping[str, Query]):
    def __init__(self, queries: dict[str, Query]) -> None:
        self._queries = queries

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise CypherError(f"no Cypher statement named {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._queries

    def __iter__(self) -> Iterator[str]:
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)


def default_dir() -> Path:
    """`cypher/` beside the package in a checkout, `service/_cypher` in a wheel."""
    package = Path(__file__).resolve().parent
    for candidate in (package.parent / "cypher", package / "_cypher"):
        if candidate.is_dir():
            return candidate
    raise CypherError(f"no cypher/ directory near {package}")


def parse(name: str, source: str) -> Query:
    lines = source.splitlines()
    doc_lines = []
    for line in lines:
        if not line.startswith("//"):
            break
        doc_lines.append(line[2:].strip())
    code = _STRING_OR_COMMENT.sub(lambda m: "" if m.group(0).startswith("//") else "''", source)
    text = source.strip()
    if not text or not code.strip():
        raise CypherError(f"{name}: empty statement")
    return Query(
        name=name,
        text=text,
        doc=" ".join(doc_lines).strip(),
        params=frozenset(_PARAM.findall(code)),
        bounds=frozenset(_BOUND.findall(code)),
        slots=frozenset(_SLOT.findall(code)),
    )


def load(directory: Path | None = None) -> Queries:
    root = directory or default_dir()
    queries: dict[str, Query] = {}
    for path in sorted(root.rglob("*.cypher")):
        rel = path.relative_to(root).with_suffix("")
        name = ".".join(rel.parts)
        if name in queries:
            raise CypherError(f"duplicate Cypher statement name {name!r}")
        queries[name] = parse(name, path.read_text(encoding="utf-8"))
    if not queries:
        raise CypherError(f"no .cypher files under {root}")
    return Queries(queries)
