"""JSON Merge Patch (RFC 7396)."""

from __future__ import annotations

from typing import Any


def apply(target: Any, patch: Any) -> Any:
    """A new document: `patch` merged into `target`; neither argument is changed."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply(result.get(key), value)
    return result
