"""/api/v1/domains: sets of assets chosen by rules, owned by a team, with roles for
teams. Reads need the read scope (a private domain is shown only to callers with a role
in it); changes are for global admins, and for the admins of an existing domain."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.teams import require_global_admin, slug
from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope
from service.domain.domains import Rule
from service.errors import Forbidden
from service.http import json_response, quote_segment, read_json
from service.models.domains import Domain, DomainList, DomainPut
from service.models.validation import validate
from service.openapi import Doc
from service.routing import Route, bearer
from service.store import domain_guard
from service.store import domains as store

BASE = "/api/v1/domains"


def _visible(principal: Principal, domain: Domain) -> bool:
    return domain_rules.can_read(principal, domain.id, domain.private)


async def _check_may_administer(request: Request, domain_id: str) -> None:
    """Global admins may change any domain; a domain's own admins may replace it (the
    domain must exist: a domain admin cannot create one)."""
    principal = deps.principal(request)
    if principal.global_scope >= Scope.ADMIN:
        return
    if principal.domain_roles.get(domain_id) != "admin":
        raise Forbidden("Only a global admin or an admin of this domain may change it.")
    if await store.find(deps.graph(request), domain_id) is None:
        raise Forbidden("Only a global admin may create a domain.")


async def put_domain(request: Request) -> Response:
    domain_id = slug(request, "domain_id")
    body = validate(DomainPut, await read_json(request))
    await _check_may_administer(request, domain_id)
    rules = [Rule(r.kind, r.value) for r in body.rules]
    await domain_guard.require_claimable(
        deps.graph(request), deps.principal(request), domain_id, rules
    )
    domain, created = await store.put(deps.graph(request), domain_id, body, deps.actor(request))
    headers = {"Location": f"{BASE}/{quote_segment(domain.id)}"} if created else None
    return json_response(domain, 201 if created else 200, headers)


async def list_domains(request: Request) -> Response:
    principal = deps.principal(request)
    found = await store.all_domains(deps.graph(request))
    return json_response(DomainList(items=[d for d in found if _visible(principal, d)]))


async def get_domain(request: Request) -> Response:
    domain_id = slug(request, "domain_id")
    domain = await store.get(deps.graph(request), domain_id)
    if not _visible(deps.principal(request), domain):
        raise store.not_found(domain_id)
    return json_response(domain)


async def delete_domain(request: Request) -> Response:
    require_global_admin(request)
    await store.delete(deps.graph(request), slug(request, "domain_id"), deps.actor(request))
    return Response(status_code=204)


ONE = BASE + "/{domain_id}"
routes = [
    Route(BASE, list_domains, methods=["GET"], name="list_domains", policy=bearer(Scope.READ)),
    Route(ONE, get_domain, methods=["GET"], name="get_domain", policy=bearer(Scope.READ)),
    Route(
        ONE,
        put_domain,
        methods=["PUT"],
        name="put_domain",
        policy=bearer(Scope.ADMIN, per_domain=True),
    ),
    Route(ONE, delete_domain, methods=["DELETE"], name="delete_domain", policy=bearer(Scope.ADMIN)),
]

_PLACEMENT = (
    "Every asset is placed again when a domain is created, replaced or deleted (in "
    "batches, after the change commits); a `domain.membership.changed` event counts the "
    "assets that entered and left it. Assets answer their domain in `domain`."
)
docs = {
    "list_domains": Doc(
        "List domains",
        "domains",
        description="Every domain the caller may see, in id order: a private domain only to "
        "global admins and callers with a role in it.",
        responses={200: DomainList},
    ),
    "get_domain": Doc(
        "Get a domain",
        "domains",
        description="With `asset_count`, the assets its rules hold now. A private domain is "
        "404 to a caller with no role in it.",
        responses={200: Domain},
        errors=(404, 422),
    ),
    "put_domain": Doc(
        "Create or replace a domain",
        "domains",
        description="201 when new, 200 when replaced. Global admins may create and replace "
        "any domain; an admin of an existing domain (through a team's grant, or as a member "
        "of its owner team) may replace it. The owner team is admin of the domain; grants "
        "give other teams `viewer`, `editor` or `admin` in it (a grant to the owner team "
        "adds nothing and is not kept; two grants to one team keep the better role). A "
        "team named in `owner_team` or `grants` that does not exist is 422 `unknown_team` "
        "naming the field. A domain id is a slug: `^[a-z0-9][a-z0-9_-]{0,62}$`. Rules may "
        "not take assets from where the caller may not take them: a caller other than a "
        "global admin is 403 `domain_forbidden` when the new rules would place in this domain "
        "an asset that now lies in another domain where it is not admin, or outside every "
        "domain while its global role may not write there; `errors` names each such "
        "`rules[i]` and the domains (a private one the caller may not read unnamed), "
        "`assets` lists the assets (those of such a private domain as `redacted:<n>`), "
        "nothing is written. Any kind of rule counts, by what it would take: an `asset` "
        "rule, or a `dbt_project`, `namespace` or `tag` rule that outranks (or wins the tie "
        "against) the rule placing an asset now. " + _PLACEMENT,
        body=DomainPut,
        responses={201: Domain, 200: Domain},
        errors=(403, 415, 422),
    ),
    "delete_domain": Doc(
        "Delete a domain",
        "domains",
        description="Its grants go with it; its assets leave it (into another domain whose "
        "rules hold them, or none). " + _PLACEMENT,
        responses={204: None},
        errors=(403, 404, 422),
    ),
}
