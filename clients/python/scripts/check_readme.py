"""Runs the README's install and quick-start blocks as a newcomer would.

In a new directory with a new virtual environment (activated: its ``bin`` first on
PATH), it runs the line of the ``## Install`` block that installs from a checkout,
with ``./clients/python`` replaced by this checkout's path (the other line installs
from PyPI), saves the ``## Quick start`` program under the name the README gives
it, and runs it against GOVERNANCE_URL with GOVERNANCE_TOKEN: it must print what
the ``text`` block after it shows. The blocks are read
from README.md each time, so the README cannot drift from what works. Run by
``test.sh``; exits non-zero, showing the step's output, when a step fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
README = HERE / "README.md"
CHECKOUT_PATH = "./clients/python"


def section(text: str, heading: str) -> str:
    """The text under ``## heading``, up to the next heading of that level."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if match is None:
        raise SystemExit(f"check_readme: README.md has no '## {heading}' section")
    return match.group(1)


def fenced(text: str, language: str) -> str:
    """The first fenced block in ``language``."""
    match = re.search(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)
    if match is None:
        raise SystemExit(f"check_readme: no ```{language} block where expected")
    return match.group(1)


def install_command(block: str) -> str:
    """The install line that names the checkout, with this checkout's path."""
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    local = [line for line in lines if CHECKOUT_PATH in line.split()]
    if len(local) != 1:
        raise SystemExit(f"check_readme: want one install line naming {CHECKOUT_PATH}: {local}")
    return local[0].replace(CHECKOUT_PATH, str(HERE))


def run(command: list[str], where: Path, env: dict[str, str], what: str) -> str:
    # The commands are this repository's README's: running them is the point.
    done = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True)  # noqa: S603
    if done.returncode != 0:
        print(done.stdout, done.stderr, sep="\n", file=sys.stderr)
        raise SystemExit(f"check_readme: {what} failed ({done.returncode})")
    return done.stdout


def main() -> None:
    text = README.read_text(encoding="utf-8")
    command = install_command(fenced(section(text, "Install"), "sh"))
    quick_start = section(text, "Quick start")
    program = fenced(quick_start, "python")
    name = re.search(r"save this as\s+`([^`]+)`", quick_start)
    if name is None:
        raise SystemExit("check_readme: the quick start does not say what to save the program as")
    for variable in ("GOVERNANCE_URL", "GOVERNANCE_TOKEN"):
        if not os.environ.get(variable):
            raise SystemExit(f"check_readme: {variable} is not set")
    with tempfile.TemporaryDirectory(prefix="governance-readme-") as tmp:
        project = Path(tmp)
        venv.create(project / ".venv", with_pip=True)
        bin_dir = project / ".venv" / "bin"
        env = {
            **os.environ,
            "VIRTUAL_ENV": str(project / ".venv"),
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        env.pop("PYTHONPATH", None)
        run(["bash", "-c", command], project, env, f"`{command}`")
        (project / name.group(1)).write_text(program, encoding="utf-8")
        output = run(["python", name.group(1)], project, env, f"python {name.group(1)}")
    expected = fenced(quick_start, "text")
    if output.split() != expected.split():
        raise SystemExit(f"check_readme: the quick start printed\n{output}not\n{expected}")
    print(f"check_readme: installed with `{command}`; the quick start printed:\n{output}", end="")


if __name__ == "__main__":
    main()
