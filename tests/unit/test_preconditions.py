import re

import pytest

from service.domain.preconditions import (
    IF_MATCH_PATTERN,
    Expected,
    etag,
    not_modified,
    parse_if_match,
)
from service.errors import BadRequest


def _expected(header: str) -> Expected:
    expected = parse_if_match(header)
    assert expected is not None
    return expected


def test_no_header_means_no_precondition() -> None:
    assert parse_if_match(None) is None


def test_strong_weak_and_lists_of_versions() -> None:
    assert _expected('"3"').holds(3)
    assert _expected('W/"3"').holds(3)
    assert _expected('"1", "3"').holds(3)
    assert _expected('"1"\t,W/"3"').holds(3)
    assert not _expected('"2"').holds(3)


def test_star_matches_any_existing_version_but_not_absence() -> None:
    star = _expected("*")
    assert star.holds(7) and not star.holds(None)


@pytest.mark.parametrize(
    "foreign", ['"abc"', '""', '"3a"', '"-3"', '"99999999999999999999"', '"' + "9" * 5000 + '"']
)
def test_well_formed_tags_that_are_not_ours_match_no_version(foreign: str) -> None:
    """A 412 for these, not a 400: they are entity tags, just none this service made."""
    assert not _expected(foreign).holds(3)


@pytest.mark.parametrize(
    "malformed", ["", " ", "3", "0", "garbage", 'W/"', '"1",', ',"1"', '"1" "2"', '*, "1"', 'w/"1"']
)
def test_a_header_that_is_no_list_of_entity_tags_is_400_naming_it(malformed: str) -> None:
    with pytest.raises(BadRequest) as refused:
        parse_if_match(malformed)
    assert refused.value.status == 400 and refused.value.code == "invalid_header"
    assert [e.loc for e in refused.value.errors or []] == [("header", "If-Match")]


def test_the_documented_pattern_is_the_one_the_parser_reads() -> None:
    for header in ('"1"', 'W/"1", "2"', "*"):
        assert re.fullmatch(IF_MATCH_PATTERN, header)
        parse_if_match(header)
    assert not re.fullmatch(IF_MATCH_PATTERN, "0")


def test_if_none_match_compares_weakly_and_takes_star_and_lists() -> None:
    assert not_modified('"4"', 4) and not_modified('W/"4"', 4)
    assert not_modified('"1", W/"4"', 4) and not_modified("*", 4)
    assert not not_modified('"3"', 4) and not not_modified(None, 4)


def test_a_malformed_if_none_match_is_no_condition() -> None:
    for header in ("4", "", '"4",', "garbage"):
        assert not not_modified(header, 4)


def test_etag_round_trips() -> None:
    assert _expected(etag(12)).holds(12)
    assert not_modified(etag(12), 12)
