"""The Lucene candidate query: only letters and digits reach the parser."""

from __future__ import annotations

import re

import pytest

from service.domain.text_search import lucene_query, runs


def test_runs_split_on_anything_but_letters_and_digits() -> None:
    assert runs("Orders_V2 (draft)") == ["orders", "v2", "draft"]
    assert runs("lake/Café.parquet") == ["lake", "café", "parquet"]


@pytest.mark.parametrize("q", ["", "-", "&&", "*:*", '"', "注文", "  ", "\\"])
def test_no_run_means_no_index_query(q: str) -> None:
    assert lucene_query(q) is None


def test_the_query_holds_only_the_runs_and_its_own_syntax() -> None:
    query = lucene_query('a+b || c:"d" \\e')
    assert query is not None
    terms = set(re.findall(r"[a-z]+", query)) - {"name", "id", "description"}
    assert terms == {"a", "b", "c", "d", "e"}  # the phrase holds every run
    assert query.count("+(") == 2  # at most two required runs
