"""The pure rules behind the security review's findings: passwords, the names people
read, and which events a reader may see."""

from __future__ import annotations

import pytest

from service.domain.access.password_rules import password_problem
from service.domain.event_types import TypeFilter, parse_patterns
from service.ids import text_problem


@pytest.mark.parametrize(
    ("password", "username", "rule"),
    [
        ("a" * 11, "ada", "12 to 256"),
        ("a" * 257, "ada", "12 to 256"),
        ("\t \u3000" * 5, "ada", "whitespace"),
        ("hello-ADA-world", "ada", "username"),
        ("hello-Straße-12", "STRASSE", "username"),
        ("PASSWORD1234", "ada", "common"),
        ("1q2w3e4r5t6y", "ada", "common"),
    ],
)
def test_a_weak_password_names_the_rule_it_breaks(password: str, username: str, rule: str) -> None:
    problem = password_problem(password, username)
    assert problem is not None and rule in problem


@pytest.mark.parametrize("password", ["a" * 12, "x" * 256, "correct horse battery staple"])
def test_a_good_password_passes(password: str) -> None:
    assert password_problem(password, "ada") is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("nul\x00", "control"),
        ("tab\there", "control"),
        ("\x85next line", "control"),
        ("evil\u202eexe.txt", "U+202E"),
        ("iso\u2066late\u2069", "U+2066"),
        ("\u200emark", "U+200E"),
        ("zero\u200bwidth", "U+200B"),
        ("\ufeffbom", "U+FEFF"),
        ("line\u2028break", "U+2028"),
    ],
)
def test_names_refuse_control_and_invisible_characters(name: str, problem: str) -> None:
    found = text_problem(name)
    assert found is not None and problem in found


@pytest.mark.parametrize("name", ["CI token", "Zoë Ünal", "数据平台", "deploy 🚀", "a\u00a0b"])
def test_names_keep_spaces_accents_and_other_scripts(name: str) -> None:
    assert text_problem(name) is None


def _sees(view: TypeFilter, event_type: str, owner: str | None = None) -> bool:
    return view.matches(event_type, owner)


def test_a_reader_below_admin_sees_only_their_own_token_events_and_no_audit() -> None:
    everything, _ = parse_patterns([])
    alice = everything.for_reader(False, "usr_alice")
    assert _sees(alice, "token.created", "usr_alice")
    assert not _sees(alice, "token.created", "usr_bob")
    assert not _sees(alice, "token.revoked", None)
    assert not _sees(alice, "audit.user.created")
    assert _sees(alice, "asset.created")
    tokenless = everything.for_reader(False, None)
    assert not _sees(tokenless, "token.created", None)


def test_an_admin_sees_every_token_event_and_the_audit_trail() -> None:
    asked, _ = parse_patterns(["token.*,audit.*"])
    admin = asked.for_reader(True, "usr_root")
    assert _sees(admin, "token.created", "usr_bob") and _sees(admin, "token.created", None)
    assert _sees(admin, "audit.token.created") and not _sees(admin, "asset.created")
