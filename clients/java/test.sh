#!/usr/bin/env bash
# Runs the Java client's tests: pure vector and transport tests, then live tests
# against the service named by GOVERNANCE_URL / GOVERNANCE_TOKEN (both required).
set -euo pipefail
cd "$(dirname "$0")"
exec mvn -q -B -Dstyle.color=never test "$@"
