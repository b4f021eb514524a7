#!/usr/bin/env bash
# Proves a clean clone works with nothing beside it: clones this repository's committed HEAD
# into a temp dir of its own, installs the locked dependencies there, and runs the Slack
# double's tests, the manifest checks, the trim script's test, the doctor's, the fresh-clone
# test and the sandbox's filing in a browser (`/ticket` through the modal). The rest of the
# suite runs in the checkout itself (`npm test`); this is the part that would break if anything
# read a folder beside the checkout.
#
#   bash scripts/fresh-clone-check.sh          # as .ci/run does
#   KEEP=1 bash scripts/fresh-clone-check.sh   # keep the clone to look into afterwards
#
# Needs what `npm test` needs: the Node of package.json's engines, Redis at REDIS_URL, Debian's
# chromium at /usr/bin/chromium, and the npm registry or npm's cache.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
parent=$(mktemp -d "${TMPDIR:-/tmp}/fresh-clone.XXXXXX")
clone="$parent/servicedesk-slack"
cleanup() {
  if [ "${KEEP:-}" = 1 ]; then echo "kept: $clone"; else rm -rf "$parent"; fi
}
trap cleanup EXIT

git clone -q "$root" "$clone"
# Nothing beside it: the parent holds the clone alone.
if [ "$(ls -A "$parent")" != "servicedesk-slack" ]; then
  echo "fresh-clone-check: $parent holds more than the clone" >&2
  exit 1
fi
cd "$clone"
echo "fresh clone of $(git log -1 --format='%h %s' | cut -c1-72) in $clone"
npm ci --prefer-offline --no-audit --no-fund --loglevel=error
npx vitest run test/slack-double test/slack/manifest.test.ts test/scripts \
  test/ops/doctor.test.ts test/sandbox/fresh-clone.test.ts
npx vitest run test/sandbox/sandbox-in-browser.test.ts \
  -t 'files a ticket with /ticket through the modal the app opens'
