"""The Lucene query that finds candidates for an asset search, and why it finds them all.

`q` means "a case-insensitive substring of id, name or description". The
full-text index (`cypher/schema/050_asset_text.cypher`) holds those fields as
tokens of the standard analyser, lower-cased. Letters and digits of the scripts
kept here never separate two tokens (Unicode word boundaries never fall between
two of them), so a run of them in `q` lies inside one token of any field that
contains `q`, and the wildcard `*run*` finds that token. Requiring every run
(`+`) therefore yields a superset of the true matches; the Cypher re-checks the
substring, so the result is exactly the scan's set, only cheaper to reach.

Nothing but those letters and digits ever enters the query text, so no Lucene
operator or special character (`+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /`) can
reach the parser from a client. A `q` with no such run (only punctuation, or a
script whose letters the tokenizer splits, such as CJK) has no safe candidate
query: the caller falls back to the scan.

Scoring: an exact token outranks a prefix, which outranks an inner substring;
name outranks id, which outranks description; the whole `q` as a phrase in the
name adds more.
"""

from __future__ import annotations

import unicodedata

# (field, boost): where a match counts most.
FIELDS = (("name", 3), ("id", 2), ("description", 1))
# At most this many runs become required clauses: each inner wildcard reads the
# whole term dictionary of every field, so more would cost more than they filter.
# The longest are the most selective; the re-check keeps the result exact.
MAX_RUNS = 2
# Lucene refuses a wildcard whose automaton passes 1,000 states ("input automaton
# is too large"), about one per character: a longer run is left to the scan.
MAX_RUN_CHARS = 256
# Latin-1 letters, Latin Extended-A/B and Cyrillic: letters the standard
# tokenizer keeps together and whose lower case is the same per character (as
# Lucene lowers them) and per string (as Cypher's toLower and Python's do).
# Greek is left out for its final sigma; CJK ideographs are tokens on their own.
_LETTER_RANGES = ((0xC0, 0x24F), (0x400, 0x4FF))


def _indexable(ch: str) -> bool:
    if ch.isascii():
        return ch.isalnum()
    code = ord(ch)
    return any(low <= code <= high for low, high in _LETTER_RANGES) and unicodedata.category(
        ch
    ) in ("Lu", "Ll", "Lt")


def runs(q: str) -> list[str]:
    """The maximal runs of indexable characters of the lower-cased `q`, in order."""
    found: list[str] = []
    current: list[str] = []
    for ch in q.lower():
        if _indexable(ch):
            current.append(ch)
        elif current:
            found.append("".join(current))
            current = []
    if current:
        found.append("".join(current))
    return found


def _clause(run: str) -> str:
    per_field = (f"{field}:({run}^4 OR {run}*^2 OR *{run}*)^{boost}" for field, boost in FIELDS)
    return "+(" + " OR ".join(per_field) + ")"


def lucene_query(q: str) -> str | None:
    """The candidate query for `q`, or None when the index cannot answer it safely."""
    found = runs(q)
    if not found:
        return None
    chosen = sorted(dict.fromkeys(found), key=len, reverse=True)[:MAX_RUNS]
    if len(chosen[0]) > MAX_RUN_CHARS:
        return None
    phrase = " ".join(found)
    return " ".join(_clause(r) for r in chosen) + f' name:"{phrase}"^4'
