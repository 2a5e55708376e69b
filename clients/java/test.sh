#!/usr/bin/env bash
# Runs the Java client's tests: the unit tests (Surefire, no network), then the live *IT tests
# (Failsafe) against the service named by GOVERNANCE_URL / GOVERNANCE_TOKEN (both required),
# then readme_test.sh (the README's install steps and quick start, verbatim).
# Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")"
mvn -q -B -Dstyle.color=never verify "$@"
./readme_test.sh
