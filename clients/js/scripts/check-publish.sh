#!/usr/bin/env bash
# What `npm publish` would do, without publishing and without a registry: the
# registry named is a closed port on loopback (nothing can be sent there) with a
# placeholder token, so npm has no reason to warn about logging in. Fails on any
# npm warning or error, on a scoped package that would not be public, and on a
# tarball without the files a user needs (or with the tests in it).
set -euo pipefail
cd "$(dirname "$0")/.."
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
printf '//127.0.0.1:9/:_authToken=dry-run\n' >"$config/npmrc"
# The dry run still asks that registry whether the version is published; without
# --fetch-retries=0 npm retries the refused connection twice with backoff (about 70 s).
log="$(npm publish --dry-run --registry http://127.0.0.1:9/ --userconfig "$config/npmrc" --fetch-retries=0 2>&1)"
fail() {
  printf 'check-publish: %s\n%s\n' "$1" "$log" >&2
  exit 1
}
! grep -Eiq '^npm (warn|err)' <<<"$log" || fail "npm publish --dry-run is not clean"
grep -q 'with tag latest and public access (dry-run)' <<<"$log" || fail "the package would not be public"
for file in LICENSE README.md package.json index.js index.d.ts operations.json src/client.js; do
  grep -Eq "^npm notice [0-9.]+k?B ${file//./\\.}\$" <<<"$log" || fail "$file is not in the tarball"
done
! grep -Eq '^npm notice [0-9.]+k?B (test|scripts)/' <<<"$log" || fail "tests or scripts are in the tarball"
echo "check-publish: npm publish --dry-run is clean"
