#!/usr/bin/env bash
# Vet and test the Go client. The live tests need GOVERNANCE_URL and
# GOVERNANCE_TOKEN (clients/harness.py sets both) and fail without them.
set -euo pipefail
cd "$(dirname "$0")"
go vet ./...
go test -count=1 ./...
