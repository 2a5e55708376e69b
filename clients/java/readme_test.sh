#!/usr/bin/env bash
# Runs README.md's install steps verbatim against the service named by GOVERNANCE_URL /
# GOVERNANCE_TOKEN: installs this client into the local Maven repository (~/.m2, so the
# dependencies are already there), writes a consumer project from the README's fenced blocks
# marked `<!-- readme-test: FILE -->` (pom.xml, the quick start's source, its run commands,
# taken from the README itself so they cannot drift), then builds and runs it and checks what
# it printed. Called by test.sh; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
: "${GOVERNANCE_URL:?set GOVERNANCE_URL}" "${GOVERNANCE_TOKEN:?set GOVERNANCE_TOKEN}"

project="$(mktemp -d)"
trap 'rm -rf "$project"' EXIT

# Every marked block, written to its file under the project.
awk -v dir="$project" '
  /^<!-- readme-test: .* -->$/ { file = $3; next }
  file != "" && /^```/ && !inside { inside = 1; path = dir "/" file; system("mkdir -p \"$(dirname \"" path "\")\""); printf "" > path; next }
  inside && /^```$/ { inside = 0; close(path); file = ""; next }
  inside { print >> path }
' README.md
for file in pom.xml src/main/java/QuickStart.java run.sh; do
  [[ -s "$project/$file" ]] || { echo "readme_test: README.md has no block marked $file" >&2; exit 1; }
done

mvn -q -B -Dstyle.color=never install -DskipTests

# The run commands as written, but for the `export` that shows where your URL and token go.
output="$(cd "$project" && grep -v '^export ' run.sh | bash -euo pipefail 2>&1)" || {
  echo "readme_test: the quick start failed:" >&2
  echo "$output" >&2
  exit 1
}
for expected in "0 warehouse.orders" "1 warehouse.raw_orders" "asset "; do
  grep -qF -- "$expected" <<<"$output" || {
    echo "readme_test: the quick start did not print \"$expected\":" >&2
    echo "$output" >&2
    exit 1
  }
done
echo "readme_test: the README's install steps and quick start work"
