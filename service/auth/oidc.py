"""The OpenID provider, through Authlib: the authorization code flow with PKCE (S256).

Authlib makes the authorization URL (state, nonce, code challenge), exchanges the code
at the token endpoint (the client authenticated by its secret, the code verifier
sent), and checks the ID token: its signature against the provider's JWKS (fetched
again once when a key id is new: the provider rotated), its issuer, audience, expiry
and nonce. The provider's discovery document is read at the first sign-in and kept.

What can go wrong is said in two words: `ProviderUnavailable` (the provider did not
answer, or answered 5xx: try again later) and `ProviderRefused` (it answered, but no
sign-in comes of it: a used code, a token that does not check out).
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx2
from authlib.common.errors import AuthlibBaseError
from authlib.integrations.starlette_client import OAuth
from joserfc.errors import JoseError

from service.environment import SettingsError
from service.settings import SingleSignOn

T = TypeVar("T")
TIMEOUT_S = 10.0
NAME = "provider"


class ProviderUnavailable(Exception):
    """The provider did not answer in time, or failed (5xx): a sign-in may work later."""


class ProviderRefused(Exception):
    """The provider answered, but the sign-in does not hold."""


@dataclass(frozen=True)
class Redirect:
    """Where to send the browser, and what the callback will need to finish."""

    url: str
    state: str
    nonce: str
    code_verifier: str


class Provider:
    """One configured provider (`GOVERNANCE_OIDC_*`), made once per app."""

    def __init__(self, settings: SingleSignOn, client_secret: str) -> None:
        issuer = settings.issuer or ""
        self.settings = settings
        self.issuer = issuer
        scopes = dict.fromkeys(("openid", *settings.scopes))
        self._client: Any = OAuth().register(
            NAME,
            client_id=settings.client_id,
            client_secret=client_secret,
            server_metadata_url=issuer.rstrip("/") + "/.well-known/openid-configuration",
            client_kwargs={
                "scope": " ".join(scopes),
                "code_challenge_method": "S256",
                "timeout": TIMEOUT_S,
            },
        )

    async def redirect(self, redirect_uri: str) -> Redirect:
        made = await _calling(self._authorization_url(redirect_uri))
        return Redirect(made["url"], made["state"], made["nonce"], made["code_verifier"])

    async def _authorization_url(self, redirect_uri: str) -> dict[str, str]:
        await self._metadata()
        made: dict[str, str] = await self._client.create_authorization_url(redirect_uri)
        return made

    async def claims(
        self, redirect_uri: str, code: str, code_verifier: str, nonce: str
    ) -> dict[str, Any]:
        """The checked claims of the ID token the code is exchanged for."""
        return await _calling(self._exchange(redirect_uri, code, code_verifier, nonce))

    async def _exchange(
        self, redirect_uri: str, code: str, code_verifier: str, nonce: str
    ) -> dict[str, Any]:
        metadata = await self._metadata()
        token = await self._client.fetch_access_token(
            redirect_uri=redirect_uri, code=code, code_verifier=code_verifier
        )
        if "id_token" not in token:
            raise ProviderRefused("The provider's answer holds no ID token.")
        options = {
            "iss": {"essential": True, "values": [metadata["issuer"]]},
            "aud": {"essential": True, "values": [self.settings.client_id]},
        }
        checked = await self._client.parse_id_token(token, nonce, claims_options=options)
        return dict(checked)

    async def end_session_url(self, post_logout_redirect_uri: str) -> str | None:
        """Where the browser ends its session at the provider, or None when the provider
        names no end-session endpoint (or cannot be reached: the local sign-out stands)."""
        try:
            metadata = await _calling(self._metadata())
        except (ProviderUnavailable, ProviderRefused):
            return None
        if not metadata.get("end_session_endpoint"):
            return None
        made = await self._client.create_logout_url(
            post_logout_redirect_uri=post_logout_redirect_uri, client_id=self.settings.client_id
        )
        url: str = made["url"]
        return url

    async def _metadata(self) -> dict[str, Any]:
        metadata: dict[str, Any] = await self._client.load_server_metadata()
        if str(metadata.get("issuer", "")).rstrip("/") != self.issuer.rstrip("/"):
            # Kept only once it checks out: a fixed provider is read again next time.
            self._client.server_metadata.pop("_loaded_at", None)
            raise ProviderRefused("The provider's discovery document names another issuer.")
        return metadata


async def _calling(work: Awaitable[T]) -> T:
    """Await `work`, saying what went wrong as `ProviderUnavailable` or `ProviderRefused`."""
    try:
        result: T = await work
    except httpx2.HTTPStatusError as exc:
        if exc.response.status_code >= 500:
            raise ProviderUnavailable(f"The provider answered {exc.response.status_code}.") from exc
        raise ProviderRefused(f"The provider answered {exc.response.status_code}.") from exc
    except (httpx2.HTTPError, ValueError) as exc:
        raise ProviderUnavailable("The provider could not be reached.") from exc
    except (AuthlibBaseError, JoseError, KeyError) as exc:
        raise ProviderRefused(str(exc) or type(exc).__name__) from exc
    return result


def configure(settings: SingleSignOn) -> Provider | None:
    """The provider the settings name, or None when single sign-on is off."""
    if settings.issuer is None:
        return None
    return Provider(settings, _client_secret(settings))


def _client_secret(settings: SingleSignOn) -> str:
    if settings.client_secret is not None:
        return settings.client_secret.get_secret_value()
    path = Path(settings.client_secret_file or "")
    try:
        secret = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise SettingsError(
            f"GOVERNANCE_OIDC_CLIENT_SECRET_FILE: cannot read {str(path)!r} ({exc.strerror})"
        ) from exc
    if not secret:
        raise SettingsError("GOVERNANCE_OIDC_CLIENT_SECRET_FILE: the file is empty")
    return secret
