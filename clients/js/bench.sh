#!/usr/bin/env bash
# The client's overhead over bare fetch (scripts/bench.mjs): reads GOVERNANCE_URL,
# GOVERNANCE_TOKEN, BENCH_ROOT and BENCH_RUNS and prints one JSON line.
# bench/clients.py runs it against a service it seeds.
set -euo pipefail
cd "$(dirname "$0")"
exec node scripts/bench.mjs
