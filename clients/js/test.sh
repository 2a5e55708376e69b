#!/usr/bin/env bash
# Unit tests (pure vectors, scripted fetch) and live tests against the service at
# GOVERNANCE_URL with GOVERNANCE_TOKEN. No dependencies to install.
set -euo pipefail
cd "$(dirname "$0")"
exec node --test --test-concurrency=1 test/vectors.test.js test/client.test.js test/governance.test.js \
  test/live.test.js test/live-governance.test.js
