#!/usr/bin/env bash
# The Java client's overhead over plain java.net.http against a running service: reads
# GOVERNANCE_URL, GOVERNANCE_TOKEN, BENCH_ROOT (an asset with a downstream graph) and
# BENCH_RUNS (default 21), and prints one JSON line on stdout:
#   {"language":"java","bulk":{"client_ms":[...],"http_ms":[...]},"traversal":{...}}
# (bench/Bench.java: 1,000-edge bulk writes and depth-3 downstream traversals, each through
# the client and through a bare HttpClient with the same body and headers, alternating which
# goes first, after 3 warm-up runs). Build output goes to stderr.
set -euo pipefail
cd "$(dirname "$0")"
: "${GOVERNANCE_URL:?set GOVERNANCE_URL}" "${GOVERNANCE_TOKEN:?set GOVERNANCE_TOKEN}" "${BENCH_ROOT:?set BENCH_ROOT}"
classpath="$(mktemp)"
trap 'rm -f "$classpath"' EXIT
mvn -q -B -Dstyle.color=never compile dependency:build-classpath \
  -Dmdep.outputFile="$classpath" -Dmdep.includeScope=runtime >&2
exec java -cp "target/classes:$(cat "$classpath")" bench/Bench.java
