#!/usr/bin/env bash
# Tests the Python client: the shared vectors and unit tests (no network) and
# the live tests (marker `live`, which plain `pytest` leaves out) against
# GOVERNANCE_URL / GOVERNANCE_TOKEN, which `clients/harness.py python` sets.
# Extra arguments go to pytest; any failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "test.sh: $PYTHON is older than Python 3.11" >&2; exit 1; }
  "$PYTHON" -m venv .venv
fi

# Reinstall only when the project's metadata changed (the install is editable).
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi

exec .venv/bin/python -m pytest -q -W error -m "live or not live" "$@"
