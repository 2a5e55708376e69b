#!/usr/bin/env bash
# The client's overhead over bare httpx (scripts/bench.py): reads GOVERNANCE_URL,
# GOVERNANCE_TOKEN, BENCH_ROOT and BENCH_RUNS and prints one JSON line.
# bench/clients.py runs it against a service it seeds.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh >&2
exec .venv/bin/python scripts/bench.py
