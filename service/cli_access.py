"""`governance team ...` and `governance domain ...`: teams and domains straight on the
database, as `governance user` manages users (for a first setup or a script)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from service.cli_database import _cli_actor, _first_problem, on_database

if TYPE_CHECKING:
    from service.graph import Graph

Commands = argparse._SubParsersAction  # argparse names no public type for it


def add_commands(commands: Commands[argparse.ArgumentParser], group: Any) -> None:
    """`group(commands, name, what)` makes a command of subcommands (see service.cli)."""
    team = group(commands, "team", "teams (straight on the database)")
    put = team.add_parser("put", help="create a team or replace its name and groups")
    put.add_argument("id")
    put.add_argument("--display-name")
    put.add_argument("--idp-group", action="append", default=[], help="repeatable")
    put.set_defaults(run=team_put)
    for name, member in (("add-member", True), ("remove-member", False)):
        command = team.add_parser(name, help=f"{name.replace('-', ' ')} by username")
        command.add_argument("id")
        command.add_argument("--username", required=True)
        command.set_defaults(run=team_member, member=member)
    team.add_parser("list", help="every team with its members").set_defaults(run=team_list)
    domain = group(commands, "domain", "domains (straight on the database)")
    put = domain.add_parser("put", help="create or replace a domain; its assets are placed again")
    put.add_argument("id")
    put.add_argument("--owner-team", required=True)
    put.add_argument("--rule", action="append", default=[], metavar="KIND=VALUE")
    put.add_argument("--grant", action="append", default=[], metavar="TEAM=ROLE")
    put.add_argument("--private", action="store_true")
    put.add_argument("--display-name")
    put.add_argument("--description")
    put.set_defaults(run=domain_put)
    domain.add_parser("list", help="every domain and its asset count").set_defaults(run=domain_list)
    delete = domain.add_parser("delete", help="delete a domain; its assets leave it")
    delete.add_argument("id")
    delete.set_defaults(run=domain_delete)


def _pairs(values: list[str], left: str, right: str, option: str) -> list[dict[str, str]]:
    pairs = []
    for value in values:
        a, sep, b = value.partition("=")
        if not sep:
            raise ValueError(f"--{option} {value!r}: expected {left.upper()}={right.upper()}")
        pairs.append({left: a, right: b})
    return pairs


def _validated(model: Any, document: dict[str, Any]) -> Any:
    from pydantic import ValidationError

    try:
        return model.model_validate(document)
    except ValidationError as exc:
        raise ValueError(_first_problem(exc)) from exc


def _slug(value: str) -> str:
    from service.models.teams import SLUG_PATTERN, is_slug

    if not is_slug(value):
        raise ValueError(f"{value!r} is not an id: it must match {SLUG_PATTERN}")
    return value


def _run(work: Any) -> int:
    from service.errors import ServiceError

    async def guarded(graph: Graph) -> str:
        try:
            result: str = await work(graph)
        except ServiceError as exc:
            raise ValueError(exc.detail) from exc
        return result

    print(on_database(guarded))
    return 0


def team_put(args: argparse.Namespace) -> int:
    from service.models.teams import TeamPut
    from service.store import teams

    team_id = _slug(args.id)
    names = {"display_name": args.display_name} if args.display_name else {}
    body = _validated(TeamPut, {"idp_groups": args.idp_group, **names})

    async def work(graph: Graph) -> str:
        team, created = await teams.put(graph, team_id, body, _cli_actor())
        return f"{'created' if created else 'replaced'} team {team.id}"

    return _run(work)


def team_member(args: argparse.Namespace) -> int:
    from service.store import teams, users

    async def work(graph: Graph) -> str:
        user = await users.find_by_username(graph, args.username)
        if user is None:
            raise ValueError(f"no user named {args.username!r}")
        await teams.set_member(graph, args.id, user.id, args.member, _cli_actor())
        return f"{user.username} {'is' if args.member else 'is not'} a member of {args.id}"

    return _run(work)


def team_list(args: argparse.Namespace) -> int:
    from service.store import teams

    async def work(graph: Graph) -> str:
        lines = [
            f"{t.id}\t{','.join(t.idp_groups) or '-'}\t{len(t.members)} members"
            for t in await teams.all_teams(graph)
        ]
        return "\n".join(lines) or "no team"

    return _run(work)


def domain_put(args: argparse.Namespace) -> int:
    from service.models.domains import DomainPut
    from service.store import domains

    domain_id = _slug(args.id)
    document = {
        "owner_team": args.owner_team,
        "private": args.private,
        "rules": _pairs(args.rule, "kind", "value", "rule"),
        "grants": _pairs(args.grant, "team", "role", "grant"),
        **{k: v for k in ("display_name", "description") if (v := getattr(args, k))},
    }
    body = _validated(DomainPut, document)

    async def work(graph: Graph) -> str:
        domain, created = await domains.put(graph, domain_id, body, _cli_actor())
        said = "created" if created else "replaced"
        return f"{said} domain {domain.id}: {domain.asset_count} assets"

    return _run(work)


def domain_list(args: argparse.Namespace) -> int:
    from service.store import domains

    async def work(graph: Graph) -> str:
        lines = [
            f"{d.id}\t{d.owner_team}\t{'private' if d.private else 'public'}\t{d.asset_count} assets"
            for d in await domains.all_domains(graph)
        ]
        return "\n".join(lines) or "no domain"

    return _run(work)


def domain_delete(args: argparse.Namespace) -> int:
    from service.store import domains

    async def work(graph: Graph) -> str:
        await domains.delete(graph, args.id, _cli_actor())
        return f"deleted domain {args.id}"

    return _run(work)
