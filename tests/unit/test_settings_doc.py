"""docs/configuration.md is what service/settings_doc.py generates from the settings'
one declaration of each variable (`settings.env(...)`), and `Settings.from_env` reads
that same declaration: unset, the documented default; set, a changed field."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from service import settings_doc
from service.settings import Settings
from service.settings_doc import Variable

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "configuration.md"
# Where a variable may be read: the service, and what runs it in tests and benchmarks.
READERS = ("service", "bench", "tests/support", "tests/conftest.py", "clients/harness.py")
# Strings that look like variables and are not ours to read: Neo4j's own (kept away from
# the local server's process) and a constant's name in an `__all__`.
NOT_OURS = frozenset({"NEO4J_HOME", "NEO4J_CONF", "NEO4J_VERSION"})
VARIABLE = re.compile(r"""["']((?:GOVERNANCE|NEO4J)_[A-Z0-9_]+)["']""")
VARIABLES = list(settings_doc.variables())
# Values with a format of their own (a key: 32 bytes in URL-safe base64).
SAMPLES = {
    "GOVERNANCE_SECRET_KEY": "A" * 43 + "=",
    "GOVERNANCE_DATASET_NAMESPACES": "snowflake=snowflake://acme-prod",
    "GOVERNANCE_OIDC_ISSUER": "https://idp.example",
    "GOVERNANCE_OIDC_ROLE_MAP": "gov-admins=admin",
}
# Variables that are checked against others at start, and what they need beside them.
_PROVIDER = {
    "GOVERNANCE_OIDC_ISSUER": "https://idp.example",
    "GOVERNANCE_OIDC_CLIENT_ID": "governance",
    "GOVERNANCE_OIDC_CLIENT_SECRET": "client-secret",
}
COMPANIONS = {
    "GOVERNANCE_OIDC_ISSUER": _PROVIDER,
    "GOVERNANCE_LOCAL_PASSWORDS": _PROVIDER,
    "GOVERNANCE_OIDC_CLIENT_SECRET": {**_PROVIDER, "GOVERNANCE_OIDC_CLIENT_SECRET": ""},
}


def test_the_committed_page_is_what_the_generator_prints() -> None:
    assert PAGE.read_text(encoding="utf-8") == settings_doc.render(), (
        "docs/configuration.md is stale: run `make config-doc` "
        "(python -m service.settings_doc > docs/configuration.md)"
    )


def test_every_variable_has_a_meaning_and_appears_once() -> None:
    names = [v.name for v in VARIABLES] + [e.name for e in settings_doc.ELSEWHERE]
    assert len(names) == len(set(names))
    assert all(v.meaning.strip() for v in VARIABLES)


@pytest.mark.parametrize("variable", VARIABLES, ids=lambda v: v.name)
def test_unset_the_variable_gives_the_documented_default(variable: Variable) -> None:
    assert _at(Settings.from_env({}), variable.path) == variable.default


@pytest.mark.parametrize("variable", VARIABLES, ids=lambda v: v.name)
def test_setting_the_variable_changes_the_documented_field(variable: Variable) -> None:
    companions = COMPANIONS.get(variable.name, {})
    changed = Settings.from_env({**companions, variable.name: _another_value(variable)})
    assert _at(changed, variable.path) != variable.default


def test_every_variable_read_anywhere_is_documented() -> None:
    documented = {v.name for v in VARIABLES} | {e.name for e in settings_doc.ELSEWHERE}
    read: dict[str, set[str]] = {}
    for path in _sources():
        for name in VARIABLE.findall(path.read_text(encoding="utf-8")):
            read.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    missing = {n: sorted(where) for n, where in read.items() if n not in documented | NOT_OURS}
    assert not missing, (
        f"read but not documented: {missing}; declare the field with settings.env(...) "
        "or add the variable to settings_doc.ELSEWHERE, then run `make config-doc`"
    )


def test_documented_variables_outside_settings_are_still_read() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in _sources())
    gone = [e.name for e in settings_doc.ELSEWHERE if e.name not in text]
    assert not gone


def test_defaults_are_shown_as_they_are_written_in_the_environment() -> None:
    assert settings_doc.show_default(None) == "—"
    assert settings_doc.show_default(SecretStr("")) == "—"
    assert settings_doc.show_default(()) == "—"
    assert settings_doc.show_default(True) == "`true`"
    assert settings_doc.show_default(3.0) == "`3`"
    assert settings_doc.show_default(0.25) == "`0.25`"
    assert settings_doc.show_default((5.0, 300.0)) == "`5,300`"


def _at(settings: Settings, path: tuple[str, ...]) -> Any:
    value: Any = settings
    for name in path:
        value = getattr(value, name)
    return value


def _another_value(variable: Variable) -> str:
    """A value for the variable that differs from its default once read."""
    if variable.name in SAMPLES:
        return SAMPLES[variable.name]
    default = variable.default
    if variable.choices:
        return next(choice for choice in variable.choices if choice != default)
    if isinstance(default, bool):
        return "false" if default else "true"
    if isinstance(default, int | float):
        return str(default + 7)
    if isinstance(default, tuple):
        return "1,2"
    return "sample-value"


def _sources() -> list[Path]:
    found: list[Path] = []
    for reader in READERS:
        path = ROOT / reader
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return found
