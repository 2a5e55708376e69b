#!/usr/bin/env bash
# The README's quick start, as written: makes a module in a temporary directory
# from the README's fenced blocks marked "readme-test: checkout", "main.go" and
# "run" (only the checkout path /path/to/governance is replaced, by this
# checkout's), then runs it against GOVERNANCE_URL with GOVERNANCE_TOKEN. The
# module needs nothing but this checkout and the standard library, so it works
# with the module proxy out of reach. test.sh runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)
: "${GOVERNANCE_URL:?the readme test needs GOVERNANCE_URL of a running service}"
: "${GOVERNANCE_TOKEN:?the readme test needs GOVERNANCE_TOKEN}"

# block NAME prints the fenced block after the line <!-- readme-test: NAME -->.
block() {
	local text
	text=$(awk -v marker="<!-- readme-test: $1 -->" '
		$0 == marker { found = 1; next }
		found && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }
	' "$here/README.md")
	if [ -z "$text" ]; then
		echo "readme test: README.md has no block marked readme-test: $1" >&2
		exit 1
	fi
	printf '%s\n' "$text"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# Only the module made here counts: no workspace, no caller's flags, this toolchain.
export GOWORK=off GOFLAGS= GOTOOLCHAIN=local
block checkout | sed "s|/path/to/governance|$checkout|g" >setup.sh
block main.go >main.go
block run >run.sh
bash -euo pipefail setup.sh
bash -euo pipefail run.sh >out.txt
if ! tail -n 1 out.txt | grep -Eq '^more: (true|false)$'; then
	echo "readme test: the quick start printed:" >&2
	cat out.txt >&2
	exit 1
fi
echo "readme test: the quick start builds from this checkout and lists $(($(wc -l <out.txt) - 1)) assets"
