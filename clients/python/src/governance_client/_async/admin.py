"""API tokens and users (both need the admin scope)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from governance_client import _admin_calls as calls
from governance_client._async.resource import AsyncPaged
from governance_client._call import RequestOptions
from governance_client.types import Role, Scope, Token, TokenCreated, User


class AsyncTokens(AsyncPaged[Token]):
    """``/tokens``: API tokens."""

    path = "/tokens"

    async def create(
        self,
        name: str,
        *,
        scopes: Scope | Sequence[Scope | str],
        expires_in_days: int | None = None,
        options: RequestOptions | None = None,
    ) -> TokenCreated:
        """Create a token; its secret is in ``result["token"]`` and nowhere else, ever.
        Not retried for that reason. ``user_id`` is the user of the calling token."""
        return await self._client._call(calls.create_token(name, scopes, expires_in_days), options)

    async def get(self, id: str, *, options: RequestOptions | None = None) -> Token:
        return await self._client._call(calls.get_token(id), options)

    async def revoke(self, id: str, *, options: RequestOptions | None = None) -> None:
        """Revoke a token: it stops working on the next request."""
        await self._client._call(calls.revoke_token(id), options)


class AsyncUsers(AsyncPaged[User]):
    """``/users``: dashboard accounts. A user's role (viewer, editor, admin) caps
    what their tokens may do (read, write, admin)."""

    path = "/users"

    async def create(
        self,
        username: str,
        *,
        password: str,
        role: Role | str,
        display_name: str | None = None,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> User:
        """Create a user; ``ConflictError`` if the username exists (ignoring case).
        The password (12 to 256 characters) is never returned."""
        call = calls.create_user(username, password, role, display_name, idempotency_key)
        return await self._client._call(call, options)

    async def get(self, id: str, *, options: RequestOptions | None = None) -> User:
        return await self._client._call(calls.get_user(id), options)

    async def patch(
        self, id: str, changes: Mapping[str, Any], *, options: RequestOptions | None = None
    ) -> User:
        """Change ``role``, ``display_name``, ``disabled`` or ``password`` (JSON Merge
        Patch). ``ConflictError`` (``last_admin``) for the last enabled admin."""
        return await self._client._call(calls.patch_user(id, changes), options)

    async def delete(self, id: str, *, options: RequestOptions | None = None) -> None:
        """Delete a user: their sessions end and their tokens stop working."""
        await self._client._call(calls.delete_user(id), options)
