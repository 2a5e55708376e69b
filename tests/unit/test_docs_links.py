"""Every link in the documentation leads somewhere: a relative link to a file or folder
of this repository (never outside it), and a `#fragment` to a heading of that page."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOP = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")
PAGES = sorted([*(ROOT / name for name in TOP), *(ROOT / "docs").rglob("*.md")])
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`+[^`]*`+")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def links(page: Path) -> list[str]:
    found: list[str] = []
    for line in prose(page):
        text = CODE_SPAN.sub("", line)
        found += INLINE.findall(text)
        found += REFERENCE.findall(text)
    return found


def prose(page: Path) -> list[str]:
    """The page's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


@cache
def anchors(page: Path) -> frozenset[str]:
    """The fragments GitHub gives the page's headings."""
    seen: dict[str, int] = {}
    for line in prose(page):
        heading = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            slug = slugify(heading.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            if count:
                seen[f"{slug}-{count}"] = 1
    return frozenset(seen)


def slugify(heading: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if EXTERNAL.match(target):
            continue
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(f"{target} (no such file in the repository)")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target} (no heading #{fragment} there)")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_link_reader_sees_what_markdown_sees() -> None:
    assert slugify("Retries and idempotency") == "retries-and-idempotency"
    assert slugify("Walking `columns`, again!") == "walking-columns-again"
    assert slugify("Libraries, and why") == "libraries-and-why"
    assert INLINE.findall("see [a](b.md#c) and ![img](d.png) and [x [y]](e/)") == [
        "b.md#c",
        "d.png",
        "e/",
    ]
