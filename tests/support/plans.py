"""What the tests that guard a statement's cost look at: the operators of a plan, and
the lattice whose paths no walk may enumerate."""

from __future__ import annotations

from typing import Any


def operators(plan: Any) -> list[str]:
    """Every operator of `plan`, depth first: a driver's plan (a summary's `plan`) or
    the dict EXPLAIN answers in JSON."""
    if isinstance(plan, dict):
        found, children = [str(plan["operatorType"])], plan.get("children", [])
    else:
        found, children = [str(plan.operator_type)], plan.children
    for child in children:
        found += operators(child)
    return found


def lattice(levels: int) -> list[tuple[str, str]]:
    """`top` above two columns `l` and `r`, each level's two nodes feeding both of the
    next's: 2^levels paths from `top` to `l<levels>` through 2 + 2 * levels nodes."""
    pairs = [("top", "l0"), ("top", "r0")]
    for i in range(levels):
        pairs += [(f"{x}{i}", f"{y}{i + 1}") for x in "lr" for y in "lr"]
    return pairs
