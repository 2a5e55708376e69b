"""A neighbourhood as GraphViz DOT, Mermaid and CSV: text other tools draw or open.

Asset ids may hold quotes, brackets, `#`, `;` and any Unicode letter (never
whitespace or control characters); names and transformations are free text. Each
format escapes them its own way, so no id can end a string, start a statement or
run a spreadsheet formula:

- DOT: every id and label is a quoted string; `\\` and `"` are escaped and a line
  break is `\\n` (an escString, which `label` and `tooltip` read).
- Mermaid: nodes are `n0`, `n1`, ... with the id as a quoted label in which `"`, `#`,
  `<`, `>`, `&` and the backtick are entity codes (`#quot;`, `#35;`, ...), so no id
  reaches Mermaid's syntax or its HTML.
- CSV: a text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
  prefixed with `'`, so a spreadsheet shows it as text instead of running it (OWASP,
  "CSV Injection").
"""

from __future__ import annotations

import csv
import io

from service.domain.lineage_export import Neighbourhood
from service.domain.spreadsheet import cell

_MERMAID = {'"': "#quot;", "#": "#35;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "`": "#96;"}
CSV_HEADER = (
    "kind",
    "source",
    "target",
    "transformation",
    "source_column",
    "target_column",
    "name",
    "type",
    "platform",
    "distance",
    "direction",
)


def dot_string(text: str) -> str:
    """`text` as a DOT quoted string (an escString: `\\n` is a line break)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n") + '"'


def dot(graph: Neighbourhood, at: str) -> str:
    """A left-to-right digraph: each asset a box named by its id (the root drawn bold),
    labelled with its name and id; each edge's transformation as its tooltip."""
    lines = [
        f"// Lineage of {graph.root} ({graph.direction}, depth {graph.depth}), exported {at}",
        f"digraph {dot_string('lineage')} {{",
        "  rankdir=LR;",
        '  node [shape=box, fontname="Helvetica"];',
    ]
    if graph.truncated:
        lines.insert(1, "// truncated: the neighbourhood has more assets than the export's limit")
    for node in graph.nodes:
        label = node.id if node.name == node.id else f"{node.name}\n{node.id}"
        bold = ", penwidth=2" if node.direction == "root" else ""
        lines.append(f"  {dot_string(node.id)} [label={dot_string(label)}{bold}];")
    for edge in graph.edges:
        tip = f" [tooltip={dot_string(edge.transformation)}]" if edge.transformation else ""
        lines.append(f"  {dot_string(edge.source)} -> {dot_string(edge.target)}{tip};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def mermaid_text(text: str) -> str:
    """`text` inside a Mermaid quoted label: the characters Mermaid reads as syntax or
    HTML as entity codes, line breaks as `<br>`."""
    escaped = "".join(_MERMAID.get(ch, ch) for ch in text)
    return escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "<br>")


def mermaid(graph: Neighbourhood, at: str) -> str:
    """A left-to-right flowchart; the root has the class `root` (a thicker border)."""
    names = {node.id: f"n{i}" for i, node in enumerate(graph.nodes)}
    lines = [
        f"%% Lineage of {mermaid_text(graph.root)} ({graph.direction}, depth {graph.depth}), "
        f"exported {at}",
        "flowchart LR",
    ]
    if graph.truncated:
        lines.insert(1, "%% truncated: the neighbourhood has more assets than the export's limit")
    for node in graph.nodes:
        lines.append(f'  {names[node.id]}["{mermaid_text(node.id)}"]')
    for edge in graph.edges:
        lines.append(f"  {names[edge.source]} --> {names[edge.target]}")
    lines.append("  classDef root stroke-width:3px")
    root = names.get(graph.root)
    if root is not None:
        lines.append(f"  class {root} root")
    return "\n".join(lines) + "\n"


def csv_table(graph: Neighbourhood, at: str) -> str:
    """One table a spreadsheet opens as is (RFC 4180, CRLF): a header, then a `node`
    row per asset, an `edge` row per edge and a `column` row per column mapping, told
    apart by `kind`, so one filter on that column shows each."""
    del at  # a CSV file has no place for it that a spreadsheet would not read as data
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for node in graph.nodes:
        row = ("node", node.id, None, None, None, None, node.name, node.type, node.platform)
        writer.writerow([cell(v) for v in (*row, node.distance, node.direction)])
    for edge in graph.edges:
        writer.writerow([cell(v) for v in ("edge", edge.source, edge.target, edge.transformation)])
    for edge in graph.edges:
        for mapping in edge.columns:
            ends = ("column", edge.source, edge.target, mapping.transformation)
            writer.writerow([cell(v) for v in (*ends, mapping.source, mapping.target)])
    return out.getvalue()
