#!/usr/bin/env bash
# What clients/harness.py runs: format and vet checks, then the unit tests and
# the live tests (build tag "live") in one run, then the README's quick start
# (readme_test.sh). The live tests need GOVERNANCE_URL and GOVERNANCE_TOKEN (an
# admin token) of a running service; the harness sets both. Offline,
# `go test ./...` runs the unit tests alone.
set -euo pipefail
cd "$(dirname "$0")"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
go vet ./...
go vet -tags live ./...
go test -count=1 -tags live ./...
bash readme_test.sh
