from service.domain.preconditions import etag, parse_if_match


def test_no_header_means_no_precondition() -> None:
    assert parse_if_match(None) is None


def test_strong_weak_and_lists_of_versions() -> None:
    assert parse_if_match('"3"').holds(3)  # type: ignore[union-attr]
    assert parse_if_match('W/"3"').holds(3)  # type: ignore[union-attr]
    assert parse_if_match('"1", "3"').holds(3)  # type: ignore[union-attr]
    assert not parse_if_match('"2"').holds(3)  # type: ignore[union-attr]


def test_star_matches_any_existing_version_but_not_absence() -> None:
    star = parse_if_match("*")
    assert star is not None and star.holds(7) and not star.holds(None)


def test_foreign_entity_tags_match_nothing() -> None:
    assert not parse_if_match('"abc"').holds(1)  # type: ignore[union-attr]
    assert not parse_if_match("garbage").holds(1)  # type: ignore[union-attr]


def test_etag_round_trips() -> None:
    assert parse_if_match(etag(12)).holds(12)  # type: ignore[union-attr]
