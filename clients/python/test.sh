#!/usr/bin/env bash
# Tests the Python client: the shared vectors and unit tests (no network) and
# the live tests (marker `live`, which plain `pytest` leaves out) against
# GOVERNANCE_URL / GOVERNANCE_TOKEN, which `clients/harness.py python` sets; then
# the README's install and quick-start blocks, run as written (scripts/check_readme.py).
# Extra arguments go to pytest; any failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh
.venv/bin/python -m pytest -q -W error -m "live or not live" "$@"
.venv/bin/python scripts/check_readme.py
