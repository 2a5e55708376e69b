"""Teams and domains: who may do what inside which set of assets."""

from __future__ import annotations

from collections.abc import Sequence

from governance_client import _access_calls as calls
from governance_client._async.resource import AsyncResource
from governance_client._call import RequestOptions
from governance_client.types import Domain, DomainGrant, DomainRule, Items, Team


class AsyncTeams(AsyncResource):
    """``/teams``: named groups of users, given roles in domains. Reading needs the
    read scope, writing the admin scope."""

    path = "/teams"

    async def put(
        self,
        id: str,
        *,
        display_name: str | None = None,
        idp_groups: Sequence[str] | None = None,
        options: RequestOptions | None = None,
    ) -> Team:
        """Create the team (201) or replace it (200); ``with_raw_response`` tells
        which. ``id`` is a slug: ``a-z 0-9`` then up to 62 of ``a-z 0-9 _ -``. With
        ``idp_groups``, membership follows those identity-provider groups at each
        single sign-on; without, it is managed by hand only."""
        return await self._client._call(calls.put_team(id, display_name, idp_groups), options)

    async def list(self, *, options: RequestOptions | None = None) -> Items[Team]:
        """Every team, in one answer (``items``)."""
        return await self._client._call(calls.list_teams(), options)

    async def get(self, id: str, *, options: RequestOptions | None = None) -> Team:
        """The team with its ``members`` (user ids); ``NotFoundError`` if none."""
        return await self._client._call(calls.get_team(id), options)

    async def delete(self, id: str, *, options: RequestOptions | None = None) -> None:
        """Delete the team; ``ConflictError`` (``team_owns_domains``) while it owns a
        domain."""
        await self._client._call(calls.delete_team(id), options)

    async def add_member(
        self, id: str, user_id: str, *, options: RequestOptions | None = None
    ) -> None:
        """Make the user a member (no change if they are one); ``NotFoundError`` for
        an unknown team or user."""
        await self._client._call(calls.add_team_member(id, user_id), options)

    async def remove_member(
        self, id: str, user_id: str, *, options: RequestOptions | None = None
    ) -> None:
        """Take the user out of the team."""
        await self._client._call(calls.remove_team_member(id, user_id), options)


class AsyncDomains(AsyncResource):
    """``/domains``: sets of assets owned by a team, chosen by ``rules``, where
    ``grants`` give teams a role (viewer, editor, admin). An asset is in at most one
    domain; its ``domain`` field names it. Reading needs the read scope (a private
    domain is listed only to those with a role in it), writing the admin scope or
    the domain's own admin role."""

    path = "/domains"

    async def put(
        self,
        id: str,
        *,
        owner_team: str,
        rules: Sequence[DomainRule] | None = None,
        grants: Sequence[DomainGrant] | None = None,
        private: bool | None = None,
        display_name: str | None = None,
        description: str | None = None,
        options: RequestOptions | None = None,
    ) -> Domain:
        """Create the domain (201) or replace it (200), then re-evaluate which
        assets are in it. At most 100 rules and 100 grants; an unknown team in
        ``owner_team`` or ``grants`` is ``ValidationError``. ``private`` (default
        False) hides its assets from callers with no role in it."""
        call = calls.put_domain(
            id,
            owner_team=owner_team,
            rules=rules,
            grants=grants,
            private=private,
            display_name=display_name,
            description=description,
        )
        return await self._client._call(call, options)

    async def list(self, *, options: RequestOptions | None = None) -> Items[Domain]:
        """Every domain the caller may see, in one answer (``items``)."""
        return await self._client._call(calls.list_domains(), options)

    async def get(self, id: str, *, options: RequestOptions | None = None) -> Domain:
        """The domain with its ``asset_count``; ``NotFoundError`` if none (or
        private and out of the caller's reach)."""
        return await self._client._call(calls.get_domain(id), options)

    async def delete(self, id: str, *, options: RequestOptions | None = None) -> None:
        """Delete the domain; its assets leave it."""
        await self._client._call(calls.delete_domain(id), options)
