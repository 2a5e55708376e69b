#!/usr/bin/env bash
# Everything: the unit tests and the type check (`npm test`, offline), then the
# live tests (`npm run test:live`) against the service at GOVERNANCE_URL with an
# admin GOVERNANCE_TOKEN, what `npm publish` would do (scripts/check-publish.sh,
# a dry run that must be clean) and the README's install and quick-start blocks,
# run as written (scripts/check-readme.mjs). Installs the pinned dev tools first
# when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm test
npm run test:live
bash scripts/check-publish.sh
node scripts/check-readme.mjs
