"""Settings that must agree are checked together when the service starts: a default
within its maximum, a walk's depth within what a Cypher statement can be written
with. A configuration that would fail on some later request stops the start, with a
message naming the variables to change."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from service.cypher import MAX_BOUND
from service.environment import SettingsError
from service.settings import Limits, PolicySettings, Settings


def _refused(**variables: str) -> str:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(variables)
    return str(caught.value)


def test_the_deepest_walk_may_be_the_cypher_bound_and_no_deeper() -> None:
    deepest = Settings.from_env({"GOVERNANCE_MAX_LINEAGE_DEPTH": str(MAX_BOUND)})
    assert deepest.limits.max_lineage_depth == MAX_BOUND
    assert _refused(GOVERNANCE_MAX_LINEAGE_DEPTH=str(MAX_BOUND + 1)) == (
        f"GOVERNANCE_MAX_LINEAGE_DEPTH must be at most {MAX_BOUND}, got {MAX_BOUND + 1}"
    )


def test_a_maximum_below_its_default_names_both_variables() -> None:
    assert _refused(GOVERNANCE_MAX_LINEAGE_DEPTH="3") == (
        "GOVERNANCE_DEFAULT_LINEAGE_DEPTH (5) must not exceed GOVERNANCE_MAX_LINEAGE_DEPTH (3)"
    )
    assert _refused(GOVERNANCE_DEFAULT_LINEAGE_NODES="10001") == (
        "GOVERNANCE_DEFAULT_LINEAGE_NODES (10001) must not exceed "
        "GOVERNANCE_MAX_LINEAGE_NODES (10000)"
    )


def test_a_smaller_maximum_starts_with_a_default_lowered_to_match() -> None:
    small = Settings.from_env(
        {"GOVERNANCE_MAX_LINEAGE_DEPTH": "3", "GOVERNANCE_DEFAULT_LINEAGE_DEPTH": "3"}
    )
    assert (small.limits.default_lineage_depth, small.limits.max_lineage_depth) == (3, 3)


def test_every_disagreement_is_reported_at_once() -> None:
    message = _refused(GOVERNANCE_MAX_LINEAGE_DEPTH="2", GOVERNANCE_MAX_LINEAGE_NODES="100")
    assert "GOVERNANCE_MAX_LINEAGE_DEPTH (2)" in message
    assert "GOVERNANCE_MAX_LINEAGE_NODES (100)" in message


@pytest.mark.parametrize(
    "variable",
    [
        "GOVERNANCE_MAX_LINEAGE_DEPTH",
        "GOVERNANCE_DEFAULT_LINEAGE_DEPTH",
        "GOVERNANCE_MAX_LINEAGE_NODES",
        "GOVERNANCE_DEFAULT_LINEAGE_NODES",
        "GOVERNANCE_MAX_BULK_EDGES",
        "GOVERNANCE_MAX_BODY_BYTES",
    ],
)
def test_a_bound_or_default_below_one_is_refused(variable: str) -> None:
    assert _refused(**{variable: "0"}) == f"{variable} must be at least 1, got 0"


def test_a_debounce_longer_than_the_longest_delay_is_refused() -> None:
    assert _refused(GOVERNANCE_POLICY_DEBOUNCE="20") == (
        "GOVERNANCE_POLICY_DEBOUNCE (20) must not exceed GOVERNANCE_POLICY_MAX_DELAY (10)"
    )


def test_a_webhook_lease_shorter_than_the_dispatchers_rest_is_refused() -> None:
    """The dispatcher renews its lease each time it looks for work: a lease that ends
    before the next look would pass dispatch around between processes."""
    assert _refused(GOVERNANCE_WEBHOOK_LEASE_TTL="2", GOVERNANCE_WEBHOOK_POLL_INTERVAL="3") == (
        "GOVERNANCE_WEBHOOK_POLL_INTERVAL (3) must not exceed GOVERNANCE_WEBHOOK_LEASE_TTL (2)"
    )
    assert _refused(GOVERNANCE_WEBHOOK_LEASE_TTL="0.5") == (
        "GOVERNANCE_WEBHOOK_LEASE_TTL must be at least 1.0, got 0.5"
    )
    short = Settings.from_env({"GOVERNANCE_WEBHOOK_LEASE_TTL": "3"})
    assert short.webhooks.lease_ttl_s == 3


def test_settings_built_in_code_are_held_to_the_same_checks() -> None:
    """Page sizes have no variable; the check still guards settings a test or a tool builds."""
    with pytest.raises(ValidationError, match="default_page_size \\(50\\) must not exceed"):
        Limits(max_page_size=10)
    with pytest.raises(ValidationError, match="GOVERNANCE_POLICY_DEBOUNCE"):
        PolicySettings(debounce_s=2.0, max_delay_s=1.0)
