import pytest

from service.settings import Settings


def test_defaults_are_the_documented_ones() -> None:
    settings = Settings.from_env({})
    assert settings.neo4j_uri is None
    assert settings.port == 8080 and settings.host == "127.0.0.1"
    assert settings.limits.max_body_bytes == 10 * 1024 * 1024
    assert settings.limits.max_bulk_edges == 10_000
    assert settings.rate_limit.per_second == 100 and settings.rate_limit.burst == 200
    assert settings.webhooks.allow_private is False


def test_environment_overrides_and_secrets_do_not_print() -> None:
    settings = Settings.from_env(
        {
            "NEO4J_URI": "neo4j://db:7687",
            "NEO4J_PASSWORD": "s3cret",
            "GOVERNANCE_PORT": "9000",
            "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
            "GOVERNANCE_CORS_ORIGINS": "https://a, https://b",
        }
    )
    assert settings.neo4j_uri == "neo4j://db:7687"
    assert settings.port == 9000 and settings.webhooks.allow_private
    assert settings.cors_origins == ("https://a", "https://b")
    assert "s3cret" not in repr(settings)


def test_a_bad_value_names_the_variable() -> None:
    with pytest.raises(ValueError, match="GOVERNANCE_PORT"):
        Settings.from_env({"GOVERNANCE_PORT": "eighty"})
    with pytest.raises(ValueError, match="GOVERNANCE_WEBHOOK_ALLOW_PRIVATE"):
        Settings.from_env({"GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "maybe"})
