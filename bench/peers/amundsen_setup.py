"""Install Amundsen's metadata service into a virtualenv of its own.

    python -m bench.peers.amundsen_setup [--venv .cache/peers/amundsen-venv]

Amundsen pins its own Flask, Werkzeug and neo4j 4.4 driver, which must not meet ours,
so it lives in .cache/peers/amundsen-venv, never in .venv. The versions are pinned
here; a second run with the same pins does nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_VENV = ROOT / ".cache" / "peers" / "amundsen-venv"
# amundsen-common is the models package the metadata service serialises with; its own
# pins (Flask 2.2.5, Werkzeug 3.0.1, neo4j 4.4.5, ...) come along. gunicorn serves it.
REQUIREMENTS = ("amundsen-metadata==3.13.0", "amundsen-common==0.32.0", "gunicorn==23.0.0")


def python_of(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure_venv(venv: Path = DEFAULT_VENV) -> Path:
    """The virtualenv's interpreter, installing it first when the pins changed."""
    stamp = venv / ".bench-peers-installed"
    wanted = "\n".join(REQUIREMENTS) + "\n"
    if stamp.exists() and stamp.read_text() == wanted:
        return python_of(venv)
    if not python_of(venv).exists():
        # distutils, which Amundsen's config imports, left the standard library in 3.12.
        if sys.version_info >= (3, 12):
            raise SystemExit("Amundsen's metadata service 3.13 needs Python 3.11 (distutils)")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(python_of(venv)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, *REQUIREMENTS], check=True)
    stamp.write_text(wanted)
    return python_of(venv)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    args = parser.parse_args()
    print(ensure_venv(args.venv))


if __name__ == "__main__":
    main()
