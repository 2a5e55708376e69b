"""Teams over `cypher/teams/`: named groups of users, some synced from the identity
provider's groups claim at sign-in."""

from __future__ import annotations

from collections.abc import Sequence

from service import clock
from service.errors import Conflict, NotFound
from service.graph import Graph, Tx
from service.models.teams import Team, TeamPut
from service.store.outbox import emit


def not_found(team_id: str) -> NotFound:
    return NotFound(f"No team with id {team_id!r}.", code="team_not_found")


def _user_not_found(user_id: str) -> NotFound:
    return NotFound(f"No user with id {user_id!r}.", code="user_not_found")


async def _get(tx: Tx, team_id: str) -> Team:
    return Team(**(await tx.run("teams.get", id=team_id))[0]["team"])


async def put(graph: Graph, team_id: str, body: TeamPut, actor: str) -> tuple[Team, bool]:
    """Create or replace a team's fields (its members stay): (team, created)."""

    async def work(tx: Tx) -> tuple[Team, bool]:
        rows = await tx.run(
            "teams.put",
            id=team_id,
            display_name=body.display_name,
            idp_groups=list(dict.fromkeys(body.idp_groups)),
            now=clock.now_iso(),
        )
        created = bool(rows[0]["created"])
        team = await _get(tx, team_id)
        emit(tx, "team.created" if created else "team.updated", team, actor)
        return team, created

    return await graph.write_tx(work)


async def get(graph: Graph, team_id: str) -> Team:
    rows = await graph.read("teams.get", id=team_id)
    if not rows:
        raise not_found(team_id)
    return Team(**rows[0]["team"])


async def all_teams(graph: Graph) -> list[Team]:
    return [Team(**r["team"]) for r in await graph.read("teams.list")]


async def delete(graph: Graph, team_id: str, actor: str) -> None:
    """409 `team_owns_domains` while a domain names it as owner."""

    async def work(tx: Tx) -> None:
        row = (await tx.run("teams.delete", id=team_id))[0]
        if not row["found"]:
            raise not_found(team_id)
        if row["owned"]:
            raise Conflict(
                f"The team {team_id!r} owns domains: {', '.join(row['owned'][:10])}; give "
                "them another owner or delete them first.",
                code="team_owns_domains",
                extra={"domains": list(row["owned"])},
            )
        emit(tx, "team.deleted", {"id": team_id}, actor)

    await graph.write_tx(work)


async def set_member(graph: Graph, team_id: str, user_id: str, member: bool, actor: str) -> None:
    """Add (or, with `member` false, remove) a membership; idempotent. 404 naming
    whichever of team and user does not exist."""

    async def work(tx: Tx) -> None:
        name = "teams.add_member" if member else "teams.remove_member"
        row = (await tx.run(name, team=team_id, user=user_id, now=clock.now_iso()))[0]
        if not row["team"]:
            raise not_found(team_id)
        if not row["user"]:
            raise _user_not_found(user_id)
        emit(tx, "team.updated", await _get(tx, team_id), actor)

    await graph.write_tx(work)


async def sync_groups(tx: Tx, user_id: str, groups: Sequence[str]) -> None:
    """At a sign-in through the identity provider, in its transaction: memberships of
    teams that list `idp_groups` follow the user's groups claim."""
    await tx.run("teams.sync_groups", user=user_id, groups=list(groups))
