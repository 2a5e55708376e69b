"""Who a single sign-on is and which role it brings (service.domain.access.sso), and
the single sign-on settings that are refused at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.auth import oidc
from service.domain.access import sso
from service.environment import SettingsError
from service.settings import Settings

ISSUER = "https://idp.example/realms/acme"
ROLE_MAP = (("gov-admins", "admin"), ("gov-editors", "editor"), ("everyone", "viewer"))
PROVIDER = {
    "GOVERNANCE_OIDC_ISSUER": ISSUER,
    "GOVERNANCE_OIDC_CLIENT_ID": "governance",
    "GOVERNANCE_OIDC_CLIENT_SECRET": "s3cret",
}


def test_a_user_in_several_mapped_groups_gets_the_highest_role() -> None:
    groups = ("everyone", "gov-editors", "gov-admins")
    assert sso.role_for(groups, ROLE_MAP, "none") == "admin"
    assert sso.role_for(("everyone", "gov-editors"), ROLE_MAP, "none") == "editor"


def test_no_mapped_group_gets_the_default_role_or_is_refused() -> None:
    assert sso.role_for(("marketing",), ROLE_MAP, "none") is None
    assert sso.role_for((), ROLE_MAP, "viewer") == "viewer"


def test_group_names_are_matched_exactly() -> None:
    assert sso.role_for(("Gov-Admins", "gov-admins-old"), ROLE_MAP, "none") is None


@pytest.mark.parametrize(
    ("claim", "groups"),
    [
        (["a", "b"], ("a", "b")),
        ("a", ("a",)),
        (["a", 7, None], ("a",)),
        (None, ()),
        ({"a": 1}, ()),
    ],
)
def test_the_groups_claim_may_be_a_list_or_one_string(claim: object, groups: tuple[str]) -> None:
    assert sso.groups_in(claim) == groups


def test_the_identity_is_the_issuer_and_subject_whatever_the_email_says() -> None:
    one = sso.identity({"sub": "42", "email": "ann@example.com"}, ISSUER, "groups")
    other = sso.identity({"sub": "43", "email": "ann@example.com"}, ISSUER, "groups")
    elsewhere = sso.identity({"sub": "42"}, "https://other.example", "groups")
    assert len({one.link_key, other.link_key, elsewhere.link_key}) == 3


def test_the_username_is_the_preferred_one_when_it_is_a_valid_username() -> None:
    claims = {"sub": "42", "preferred_username": "ann.lee", "email": "ann@example.com"}
    assert sso.identity(claims, ISSUER, "groups").username == "ann.lee"
    with_spaces = {**claims, "preferred_username": "Ann Lee"}
    assert sso.identity(with_spaces, ISSUER, "groups").username == "ann@example.com"


def test_a_subject_without_a_usable_name_gets_a_stable_made_up_one() -> None:
    first = sso.identity({"sub": "42", "preferred_username": "Ann Lee"}, ISSUER, "groups")
    again = sso.identity({"sub": "42"}, ISSUER, "groups")
    assert first.username == again.username
    assert first.username.startswith("sso-") and sso.USERNAME.match(first.username)


def test_the_display_name_is_trimmed_and_a_blank_one_is_none() -> None:
    named = sso.identity({"sub": "1", "name": " Ann Lee "}, ISSUER, "groups")
    blank = sso.identity({"sub": "1", "name": "  "}, ISSUER, "groups")
    assert (named.display_name, blank.display_name) == ("Ann Lee", None)


def test_claims_without_a_subject_are_unusable() -> None:
    with pytest.raises(sso.UnusableClaims):
        sso.identity({"preferred_username": "ann"}, ISSUER, "groups")


def test_the_role_claim_is_configurable() -> None:
    claims = {"sub": "1", "roles": ["gov-editors"], "groups": ["gov-admins"]}
    assert sso.identity(claims, ISSUER, "roles").groups == ("gov-editors",)


def test_a_complete_provider_configuration_is_read() -> None:
    chosen = Settings.from_env(
        {**PROVIDER, "GOVERNANCE_OIDC_ROLE_MAP": "gov-admins=Admin, gov-editors=editor"}
    ).sso
    assert chosen.role_map == (("gov-admins", "admin"), ("gov-editors", "editor"))
    assert (chosen.local_passwords, chosen.default_role) == (True, "none")


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"GOVERNANCE_OIDC_ISSUER": ISSUER}, "GOVERNANCE_OIDC_CLIENT_ID"),
        (
            {**PROVIDER, "GOVERNANCE_OIDC_CLIENT_SECRET_FILE": "/run/secrets/oidc"},
            "one of GOVERNANCE_OIDC_CLIENT_SECRET and GOVERNANCE_OIDC_CLIENT_SECRET_FILE",
        ),
        ({**PROVIDER, "GOVERNANCE_OIDC_ISSUER": "http://idp.example"}, "must be https"),
        ({"GOVERNANCE_LOCAL_PASSWORDS": "false"}, "needs GOVERNANCE_OIDC_ISSUER"),
        ({**PROVIDER, "GOVERNANCE_OIDC_ROLE_MAP": "gov-admins=root"}, "got root"),
        ({**PROVIDER, "GOVERNANCE_OIDC_ROLE_MAP": "gov-admins"}, "is not key=value"),
    ],
)
def test_a_configuration_that_would_fail_at_sign_in_stops_the_start(
    environ: dict[str, str], named: str
) -> None:
    with pytest.raises(SettingsError, match=named):
        Settings.from_env(environ)


def test_plain_http_is_allowed_for_a_provider_on_loopback_only() -> None:
    local = {**PROVIDER, "GOVERNANCE_OIDC_ISSUER": "http://127.0.0.1:5556/"}
    assert Settings.from_env(local).sso.issuer == "http://127.0.0.1:5556/"


def test_the_client_secret_may_come_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "client-secret"
    secret.write_text("from-a-file\n", encoding="utf-8")
    chosen = {**PROVIDER, "GOVERNANCE_OIDC_CLIENT_SECRET": ""}
    chosen["GOVERNANCE_OIDC_CLIENT_SECRET_FILE"] = str(secret)
    provider = oidc.configure(Settings.from_env(chosen).sso)
    assert provider is not None and provider.issuer == ISSUER


@pytest.mark.parametrize("content", [None, " \n"], ids=["missing", "empty"])
def test_a_client_secret_file_that_holds_no_secret_stops_the_start(
    tmp_path: Path, content: str | None
) -> None:
    secret = tmp_path / "client-secret"
    if content is not None:
        secret.write_text(content, encoding="utf-8")
    chosen = {**PROVIDER, "GOVERNANCE_OIDC_CLIENT_SECRET": ""}
    chosen["GOVERNANCE_OIDC_CLIENT_SECRET_FILE"] = str(secret)
    with pytest.raises(SettingsError, match="GOVERNANCE_OIDC_CLIENT_SECRET_FILE"):
        oidc.configure(Settings.from_env(chosen).sso)


def test_without_an_issuer_there_is_no_provider() -> None:
    assert oidc.configure(Settings.from_env({}).sso) is None
