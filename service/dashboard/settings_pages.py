"""Settings → API Tokens (everyone) and Settings → Users (admins).

A token made here belongs to the signed-in user and may not exceed their role;
its secret is shown once, in this answer only. Admins see and revoke everyone's
tokens; others see and revoke their own.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service.api import deps
from service.api.users import parse_patch
from service.dashboard import guard
from service.dashboard.render import html, page_route
from service.domain.access import domain_rules
from service.domain.access.scopes import ROLES, Scope, scopes_allowed
from service.errors import Conflict, Unprocessable
from service.http import path_param
from service.models.tokens import TokenCreate
from service.models.users import UserCreate
from service.models.validation import unprocessable_from
from service.routing import signed_in
from service.store import tokens as token_store
from service.store import users as user_store
from service.store.sessions import Session

LISTED = 200


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


async def _tokens_page(
    request: Request, session: Session, status: int = 200, **extra: Any
) -> Response:
    admin = guard.can(session, Scope.ADMIN)
    owned = await token_store.newest(
        deps.graph(request), None if admin else session.user.id, LISTED
    )
    context = {
        "title": "API Tokens",
        "section": "settings",
        "tab": "tokens",
        "tokens": owned,
        "scopes": scopes_allowed(_best_role(session)),
        "show_owner": admin,
        "created": None,
        "error": None,
        "notice": "Token revoked." if request.query_params.get("revoked") else None,
        "form": {},
        **extra,
    }
    return html(request, "settings_tokens.html", context, session, status)


def _best_role(session: Session) -> str:
    """What caps a token's scope: the user's best role anywhere (global, or in a domain),
    so an editor of one domain may hold a write token that writes there."""
    return domain_rules.best_role_anywhere(session.user.role, session.domain_roles)


async def tokens(request: Request, session: Session) -> Response:
    return await _tokens_page(request, session)


async def create_token(request: Request, session: Session) -> Response:
    form = await request.form()
    scope = _text(form, "scope")
    days = _text(form, "expires_in_days")
    fields = {"name": _text(form, "name"), "scope": scope, "expires_in_days": days}
    if scope not in scopes_allowed(_best_role(session)):
        message = (
            f"Your role ({_best_role(session)}) cannot give a token the {scope or 'empty'} scope."
        )
        return await _tokens_page(request, session, 403, error=message, form=fields)
    try:
        body = TokenCreate.model_validate(
            {
                "name": fields["name"],
                "scopes": [scope],
                "expires_in_days": int(days) if days.isdigit() else (days or None),
            }
        )
    except ValidationError as exc:
        return await _tokens_page(request, session, 422, error=_errors(exc), form=fields)
    created = await token_store.create(
        deps.graph(request), body, created_by=f"user:{session.user.id}", user_id=session.user.id
    )
    return await _tokens_page(request, session, 201, created=created)


def _errors(exc: ValidationError) -> str:
    problem: Unprocessable = unprocessable_from(exc, ())
    return "; ".join(f"{e.loc[0]}: {e.msg}" for e in problem.errors or [])


async def revoke_token(request: Request, session: Session) -> Response:
    graph = deps.graph(request)
    token = await token_store.get(graph, path_param(request, "token_id"))
    if token.user_id != session.user.id and not guard.can(session, Scope.ADMIN):
        raise guard.Refused(403, "You can revoke only your own tokens.")
    await token_store.revoke(graph, token.id, f"user:{session.user.id}")
    return RedirectResponse("/settings/tokens?revoked=1", status_code=303)


async def _users_page(
    request: Request, session: Session, status: int = 200, **extra: Any
) -> Response:
    context = {
        "title": "Users",
        "section": "settings",
        "tab": "users",
        "users": await user_store.page(deps.graph(request), "", LISTED),
        "roles": ROLES,
        "error": None,
        "notice": None,
        "form": {},
        **extra,
    }
    return html(request, "settings_users.html", context, session, status)


async def users(request: Request, session: Session) -> Response:
    return await _users_page(request, session)


async def create_user(request: Request, session: Session) -> Response:
    form = await request.form()
    fields = {name: _text(form, name) for name in ("username", "display_name", "role")}
    try:
        body = UserCreate.model_validate(
            {
                **{k: v for k, v in fields.items() if v},
                "password": form.get("password") or "",
            }
        )
        made = await user_store.create(deps.graph(request), body, actor=f"user:{session.user.id}")
    except ValidationError as exc:
        return await _users_page(request, session, 422, error=_errors(exc), form=fields)
    except (Conflict, Unprocessable) as exc:  # a taken username, a weak password
        return await _users_page(request, session, exc.status, error=exc.detail, form=fields)
    return await _users_page(request, session, 201, notice=f"User {made.username} created.")


def _change(action: str, form: FormData) -> dict[str, Any]:
    """The merge patch one button of the users table asks for."""
    if action == "role":
        return {"role": _text(form, "role")}
    if action == "password":
        return {"password": form.get("password") or ""}
    return {"disabled": action == "disable"}


ACTIONS = ("role", "password", "disable", "enable")


async def change_user(request: Request, session: Session) -> Response:
    form = await request.form()
    action = _text(form, "action")
    if action not in ACTIONS:
        return await _users_page(request, session, 422, error="Unknown change.")
    user_id = path_param(request, "user_id")
    try:
        patch, clear = parse_patch(_change(action, form))
        changed = await user_store.update(
            deps.graph(request), user_id, patch, clear, actor=f"user:{session.user.id}"
        )
    except (Unprocessable, Conflict) as exc:
        message = "; ".join(e.msg for e in exc.errors) if exc.errors else exc.detail
        return await _users_page(request, session, exc.status, error=message)
    said = {"role": f"is now {changed.role}", "disable": "is disabled", "enable": "is enabled"}
    notice = f"{changed.username} {said.get(action, 'has a new password')}."
    return await _users_page(request, session, notice=notice)


async def settings_home(request: Request, session: Session) -> Response:
    return RedirectResponse("/settings/tokens", status_code=303)


routes = [
    page_route(
        "/settings",
        settings_home,
        methods=["GET"],
        name="settings_page",
        policy=signed_in(Scope.READ),
    ),
    page_route(
        "/settings/tokens",
        tokens,
        methods=["GET"],
        name="settings_tokens",
        policy=signed_in(Scope.READ),
    ),
    page_route(
        "/settings/tokens",
        create_token,
        methods=["POST"],
        name="settings_create_token",
        policy=signed_in(Scope.READ),
    ),
    page_route(
        "/settings/tokens/{token_id}/revoke",
        revoke_token,
        methods=["POST"],
        name="settings_revoke_token",
        policy=signed_in(Scope.READ),
    ),
    page_route(
        "/settings/users",
        users,
        methods=["GET"],
        name="settings_users",
        policy=signed_in(Scope.ADMIN),
    ),
    page_route(
        "/settings/users",
        create_user,
        methods=["POST"],
        name="settings_create_user",
        policy=signed_in(Scope.ADMIN),
    ),
    page_route(
        "/settings/users/{user_id}",
        change_user,
        methods=["POST"],
        name="settings_change_user",
        policy=signed_in(Scope.ADMIN),
    ),
]
