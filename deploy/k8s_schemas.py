"""Unpack Kubernetes JSON schemas from the kubernetes-validate wheel for kubeconform.

kubeconform fetches its schemas from GitHub by default; `make lint-deploy` uses this
instead, so validation needs nothing but PyPI. The wheel (downloaded by pip, checked
here against a pinned SHA-256) ships one folder of schemas per Kubernetes release.
Each kind's schema names itself `https://kubernetes.io/api/<kind>/<version>` and points
at the shared definitions as `/api/_definitions.json`, so kubeconform would fetch them
from kubernetes.io; the name is dropped and the reference made relative to the kind's
own file, which keeps every lookup on the local disk.

    python deploy/k8s_schemas.py WHEEL SHA256 OUT_DIR VERSION...

writes OUT_DIR/v<VERSION>-local-strict/<kind>-<group>-<version>.json.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from pathlib import Path

PACKAGE_DIR = "kubernetes_validate/kubernetes-json-schema"
DEFINITIONS = "_definitions.json"


def verify(wheel: Path, sha256: str) -> None:
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        raise SystemExit(f"{wheel.name}: SHA-256 {digest}, expected {sha256}")


def localised(node: object) -> object:
    """`node` with every `/api/_definitions.json#...` reference made `_definitions.json#...`."""
    if isinstance(node, dict):
        return {
            key: value.removeprefix("/api/")
            if key == "$ref" and isinstance(value, str)
            else localised(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [localised(item) for item in node]
    return node


def unpack(wheel: Path, out_dir: Path, version: str) -> int:
    folder = f"v{version}-local-strict"
    prefix = f"{PACKAGE_DIR}/{folder}/"
    target = out_dir / folder
    target.mkdir(parents=True, exist_ok=True)
    count = 0
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            filename = name[len(prefix) :]
            if name.startswith(prefix) and filename.endswith(".json"):
                schema = json.loads(archive.read(name))
                if filename != DEFINITIONS:
                    schema.pop("$id", None)
                    schema = localised(schema)
                (target / filename).write_text(json.dumps(schema))
                count += 1
    if count == 0:
        raise SystemExit(f"{wheel.name} has no schemas for Kubernetes {version}")
    return count


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        raise SystemExit(__doc__)
    wheel, sha256, out_dir, versions = Path(argv[0]), argv[1], Path(argv[2]), argv[3:]
    verify(wheel, sha256)
    for version in versions:
        count = unpack(wheel, out_dir, version)
        print(f"Kubernetes {version}: {count} schemas in {out_dir / f'v{version}-local-strict'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
