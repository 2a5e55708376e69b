"""Single sign-ons under way, over `cypher/sign_in_flows/`.

Between the redirect to the provider and the callback, the nonce and the PKCE code
verifier stay on the server (any process may take the callback), found by the SHA-256
of the `state` the browser carries; the callback takes its flow once. Each start also
forgets flows that expired unused, so abandoned sign-ins leave nothing behind.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from service import clock
from service.graph import Graph, Tx

LIFETIME = timedelta(minutes=10)


@dataclass(frozen=True)
class Flow:
    nonce: str
    code_verifier: str
    next: str


def _digest(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


async def keep(graph: Graph, state: str, flow: Flow) -> None:
    now = clock.now()
    props = {
        "state_hash": _digest(state),
        "nonce": flow.nonce,
        "code_verifier": flow.code_verifier,
        "next": flow.next,
        "expires_at": clock.format_time(now + LIFETIME),
    }

    async def work(tx: Tx) -> None:
        await tx.run("sign_in_flows.purge", now=clock.format_time(now))
        await tx.run("sign_in_flows.create", props=props)

    await graph.write_tx(work)


async def take(graph: Graph, state: str) -> Flow | None:
    """The flow this `state` started, once; None when unknown, used or expired."""
    rows = await graph.write("sign_in_flows.take", state_hash=_digest(state))
    if not rows:
        return None
    found = rows[0]["flow"]
    if found["expires_at"] <= clock.now_iso():
        return None
    return Flow(found["nonce"], found["code_verifier"], found["next"])
