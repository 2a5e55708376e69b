"""Settings → Teams and Settings → Domains (admins): list, create or replace, members,
rules and grants, over the same store functions as /api/v1/teams and /api/v1/domains.

Rules and grants are edited as text, one per line (`kind value`, `team role`), so a
domain is changed in one form; a line that does not parse is shown back as the error.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service.api import deps
from service.dashboard.render import html, page_route
from service.domain.access.scopes import ROLES, Scope
from service.errors import Conflict, NotFound, Unprocessable
from service.http import path_param
from service.models.domains import DomainPut
from service.models.teams import TeamPut, is_slug
from service.routing import signed_in
from service.store import domains as domain_store
from service.store import teams as team_store
from service.store import users as user_store
from service.store.sessions import Session

USERS_LISTED = 500
ADMIN = signed_in(Scope.ADMIN)
Problem = (ValidationError, Unprocessable, Conflict, NotFound)


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _lines(text: str) -> list[list[str]]:
    return [line.split(None, 1) for line in text.splitlines() if line.strip()]


def _pairs(text: str, first: str, second: str) -> list[dict[str, str]]:
    """`a b` lines as [{first: a, second: b}]; a line without two parts keeps one key,
    so validation names what is missing."""
    return [
        dict(zip((first, second), (p.strip() for p in parts), strict=False))
        for parts in _lines(text)
    ]


def _message(exc: ValidationError | Unprocessable | Conflict | NotFound) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
    if isinstance(exc, Unprocessable) and exc.errors:
        return "; ".join(f"{'.'.join(str(p) for p in e.loc[1:])}: {e.msg}" for e in exc.errors)
    return exc.detail


def _actor(session: Session) -> str:
    return f"user:{session.user.id}"


async def _teams_page(
    request: Request, session: Session, status: int = 200, **extra: Any
) -> Response:
    graph = deps.graph(request)
    users = await user_store.page(graph, "", USERS_LISTED)
    context = {
        "title": "Teams",
        "section": "settings",
        "tab": "teams",
        "teams": await team_store.all_teams(graph),
        "users": users,
        "names": {u.id: u.username for u in users},
        "error": None,
        "notice": None,
        "form": {},
        **extra,
    }
    return html(request, "settings_teams.html", context, session, status)


async def teams(request: Request, session: Session) -> Response:
    return await _teams_page(request, session)


async def put_team(request: Request, session: Session) -> Response:
    form = await request.form()
    fields = {n: _text(form, n) for n in ("id", "display_name", "idp_groups")}
    groups = [g.strip() for g in fields["idp_groups"].split(",") if g.strip()]
    try:
        body = TeamPut.model_validate(
            {"idp_groups": groups, **({"display_name": v} if (v := fields["display_name"]) else {})}
        )
        team_id = _checked_slug(fields["id"], "id")
        team, created = await team_store.put(deps.graph(request), team_id, body, _actor(session))
    except Problem as exc:
        return await _teams_page(request, session, 422, error=_message(exc), form=fields)
    said = "created" if created else "saved"
    return await _teams_page(
        request, session, 201 if created else 200, notice=f"Team {team.id} {said}."
    )


def _checked_slug(value: str, field: str) -> str:
    """The id a form names, held to the API's rule."""
    if not is_slug(value):
        raise Unprocessable(f"{field}: must be lower case letters, digits, - and _ (at most 63).")
    return value


async def change_members(request: Request, session: Session) -> Response:
    form = await request.form()
    action, user_id = _text(form, "action"), _text(form, "user_id")
    team_id = path_param(request, "team_id")
    if action not in ("add", "remove"):
        return await _teams_page(request, session, 422, error="Unknown change.")
    try:
        await team_store.set_member(
            deps.graph(request), team_id, user_id, action == "add", _actor(session)
        )
    except (Unprocessable, NotFound) as exc:
        return await _teams_page(request, session, exc.status, error=_message(exc))
    return RedirectResponse("/settings/teams?saved=1", status_code=303)


async def delete_team(request: Request, session: Session) -> Response:
    try:
        await team_store.delete(
            deps.graph(request), path_param(request, "team_id"), _actor(session)
        )
    except (Conflict, NotFound) as exc:
        return await _teams_page(request, session, exc.status, error=_message(exc))
    return RedirectResponse("/settings/teams?deleted=1", status_code=303)


async def _domains_page(
    request: Request, session: Session, status: int = 200, **extra: Any
) -> Response:
    graph = deps.graph(request)
    context = {
        "title": "Domains",
        "section": "settings",
        "tab": "domains",
        "domains": await domain_store.all_domains(graph),
        "teams": await team_store.all_teams(graph),
        "roles": ROLES,
        "error": None,
        "notice": None,
        "form": {},
        **extra,
    }
    return html(request, "settings_domains.html", context, session, status)


async def domains(request: Request, session: Session) -> Response:
    return await _domains_page(request, session)


DOMAIN_FIELDS = ("id", "display_name", "description", "owner_team", "rules", "grants")


async def put_domain(request: Request, session: Session) -> Response:
    form = await request.form()
    fields = {n: _text(form, n) for n in DOMAIN_FIELDS}
    fields["private"] = "on" if form.get("private") else ""
    document: dict[str, Any] = {
        "owner_team": fields["owner_team"],
        "private": bool(fields["private"]),
        "rules": _pairs(fields["rules"], "kind", "value"),
        "grants": _pairs(fields["grants"], "team", "role"),
        **{k: fields[k] for k in ("display_name", "description") if fields[k]},
    }
    try:
        body = DomainPut.model_validate(document)
        domain_id = _checked_slug(fields["id"], "id")
        made, created = await domain_store.put(
            deps.graph(request), domain_id, body, _actor(session)
        )
    except Problem as exc:
        return await _domains_page(request, session, 422, error=_message(exc), form=fields)
    notice = f"Domain {made.id} {'created' if created else 'saved'}: {made.asset_count} assets."
    return await _domains_page(request, session, 201 if created else 200, notice=notice)


async def delete_domain(request: Request, session: Session) -> Response:
    try:
        await domain_store.delete(
            deps.graph(request), path_param(request, "domain_id"), _actor(session)
        )
    except NotFound as exc:
        return await _domains_page(request, session, exc.status, error=_message(exc))
    return RedirectResponse("/settings/domains?deleted=1", status_code=303)


routes = [
    page_route("/settings/teams", teams, methods=["GET"], name="settings_teams", policy=ADMIN),
    page_route(
        "/settings/teams", put_team, methods=["POST"], name="settings_put_team", policy=ADMIN
    ),
    page_route(
        "/settings/teams/{team_id}/members",
        change_members,
        methods=["POST"],
        name="settings_team_members",
        policy=ADMIN,
    ),
    page_route(
        "/settings/teams/{team_id}/delete",
        delete_team,
        methods=["POST"],
        name="settings_delete_team",
        policy=ADMIN,
    ),
    page_route(
        "/settings/domains", domains, methods=["GET"], name="settings_domains", policy=ADMIN
    ),
    page_route(
        "/settings/domains",
        put_domain,
        methods=["POST"],
        name="settings_put_domain",
        policy=ADMIN,
    ),
    page_route(
        "/settings/domains/{domain_id}/delete",
        delete_domain,
        methods=["POST"],
        name="settings_delete_domain",
        policy=ADMIN,
    ),
]
