"""A real OpenID provider for the single sign-on tests: zitadel/oidc's example provider
(tests/support/oidc_provider), built by `make oidc-provider`, run as a process on a
loopback port the kernel picks.

It has one confidential client, which takes redirect URIs on any loopback port, and
reads its users (with their groups) from a JSON file at every look-up: a test changes
a user's groups between two sign-ins by writing the file again. Its signing key is
made at start, so the provider lives as long as the test module that starts it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO

import httpx
from pydantic import SecretStr

from service.settings import SingleSignOn
from tests.support.server import answers
from tests.support.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".cache" / "tools" / "bin" / "oidc-provider"
CLIENT_ID = "governance"
ROLE_MAP = (("gov-admins", "admin"), ("gov-editors", "editor"), ("gov-viewers", "viewer"))


@dataclass(frozen=True)
class ProviderUser:
    id: str
    username: str
    password: str = "provider-password"
    email: str = ""
    name: str = ""
    groups: list[str] = field(default_factory=list)


def build() -> Path:
    """The provider binary, built when its sources changed (make keeps it otherwise)."""
    made = subprocess.run(
        ["make", "-s", "oidc-provider"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if made.returncode != 0:
        raise RuntimeError(f"`make oidc-provider` failed:\n{made.stdout}{made.stderr}")
    return BINARY


class IdentityProvider:
    def __init__(self, directory: Path) -> None:
        self.users_file = directory / "provider-users.json"
        self.client_secret = secrets.token_urlsafe(24)
        self.set_users([])
        self._process: subprocess.Popen[str] | None = None
        self.issuer = ""

    def set_users(self, users: list[ProviderUser]) -> None:
        """Replace the provider's users (written whole, then renamed into place)."""
        written = self.users_file.with_suffix(".tmp")
        written.write_text(json.dumps([asdict(user) for user in users]), encoding="utf-8")
        written.replace(self.users_file)

    def start(self) -> IdentityProvider:
        binary = build()
        command = [
            str(binary),
            "-users", str(self.users_file),
            "-client-id", CLIENT_ID,
            "-redirect-uri-glob", "http://127.0.0.1:*/auth/oidc/callback",
            "-post-logout-uri-glob", "http://127.0.0.1:*/login",
        ]  # fmt: skip
        env = {**os.environ, "OIDC_PROVIDER_CLIENT_SECRET": self.client_secret}
        self._process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        self.issuer = _first_line(self._process.stdout)
        eventually(
            self._discovery_answers,
            timeout=30,
            what=f"the OpenID provider's discovery document at {self.issuer}",
            retry_on=(httpx.TransportError,),
        )
        return self

    def _discovery_answers(self) -> bool:
        if self._process is None or self._process.poll() is not None:
            raise RuntimeError("the OpenID provider stopped while starting (see its log above)")
        return answers(self.issuer, ".well-known/openid-configuration")

    def settings(self, **overrides: object) -> SingleSignOn:
        """The service's single sign-on settings for this provider."""
        chosen = SingleSignOn(
            issuer=self.issuer,
            client_id=CLIENT_ID,
            client_secret=SecretStr(self.client_secret),
            scopes=("openid", "profile", "email", "groups"),
            role_map=ROLE_MAP,
            button_label="Test Provider",
        )
        return chosen.model_copy(update=overrides)

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()


def _first_line(stream: IO[str] | None) -> str:
    """The provider prints its issuer as its first line once it listens."""
    line = stream.readline().strip() if stream is not None else ""
    if not line.startswith("http://127.0.0.1:"):
        raise RuntimeError(f"the OpenID provider did not start (it said {line!r})")
    return line


_FORM_ID = re.compile(r'<input type="hidden" name="id" value="([^"]+)">')


def through_provider(
    service: httpx.Client, username: str, password: str, next_path: str = "/"
) -> httpx.Response:
    """A sign-in without a browser: the service's button, the provider's login form,
    and the service's answer to the callback (a 303 with a session, or an error page).
    `service` keeps cookies and does not follow redirects (tests.support.dashboard)."""
    start = service.get("/auth/oidc/login", params={"next": next_path})
    assert start.status_code == 303, start.text
    with httpx.Client(follow_redirects=True, timeout=30) as provider:
        form = provider.get(start.headers["location"])
        found = _FORM_ID.search(form.text)
        assert found, f"the provider showed no login form: {form.text[:300]}"
        login_url = str(form.url.join("/login/username"))
        fields = {"id": found.group(1), "username": username, "password": password}
        provider.follow_redirects = False
        answer = provider.post(login_url, data=fields)
        while answer.is_redirect and not _is_service(service, answer.headers["location"]):
            answer = provider.get(str(answer.url.join(answer.headers["location"])))
    assert answer.is_redirect, f"the provider did not send the browser back: {answer.text[:300]}"
    return service.get(answer.headers["location"])


def _is_service(service: httpx.Client, location: str) -> bool:
    return location.startswith(str(service.base_url))
