#!/usr/bin/env bash
# The client's overhead over plain net/http (internal/bench): reads
# GOVERNANCE_URL, GOVERNANCE_TOKEN, BENCH_ROOT and BENCH_RUNS (default 21) and
# prints one JSON line. bench/clients.py runs it against a service it seeds.
set -euo pipefail
cd "$(dirname "$0")"
exec go run ./internal/bench
