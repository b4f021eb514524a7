#!/bin/sh
# Runs the receiver tests against the newest @slack/bolt 5.x (and the newest @slack/socket-mode
# 3.x and Slack packages their ranges allow), in a temporary copy of this checkout: the
# committed package.json and package-lock.json are never changed. The receivers rely only on
# what Bolt documents (its Receiver interface and exported functions); this is how a Bolt minor
# release is checked before the lockfile takes it.
#
#   scripts/test-bolt-latest.sh                 # the receiver tests
#   scripts/test-bolt-latest.sh test/e2e        # or any vitest arguments
#   BOLT=5.0.0 scripts/test-bolt-latest.sh      # another Bolt version than the newest 5.x
#   KEEP=1 scripts/test-bolt-latest.sh          # keep the copy to look into afterwards
#
# Needs the npm registry and Redis (REDIS_URL, default redis://127.0.0.1:6379) for the
# end-to-end suites. The Slack double's descriptions are in the copy (vendor/slack/).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bolt-latest.XXXXXX")
copy="$work/$(basename "$root")"
cleanup() {
  if [ "${KEEP:-}" = 1 ]; then echo "kept: $copy"; else rm -rf "$work"; fi
}
trap cleanup EXIT INT TERM

# The working tree as it is (tracked and new files, not ignored ones), without node_modules.
mkdir -p "$copy"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$root" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$root" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) |
    tar -xf - -C "$copy"
else
  (cd "$root" && tar --exclude=./node_modules -cf - .) | tar -xf - -C "$copy"
fi

cd "$copy"
echo "installing the locked dependencies in $copy"
npm ci --prefer-offline --no-audit --no-fund --loglevel=error
version() { node -p "require('./node_modules/$1/package.json').version"; }
locked=$(version @slack/bolt)
echo "moving Bolt to ${BOLT:-its newest 5.x}"
npm install --no-audit --no-fund --loglevel=error "@slack/bolt@${BOLT:-^5}" '@slack/socket-mode@^3'
npm update --no-audit --no-fund --loglevel=error \
  @slack/web-api @slack/oauth @slack/logger @slack/types
echo "@slack/bolt $locked (lockfile) -> $(version @slack/bolt)," \
  "@slack/socket-mode $(version @slack/socket-mode), @slack/web-api $(version @slack/web-api)," \
  "@slack/oauth $(version @slack/oauth)"

if [ "$#" -eq 0 ]; then
  set -- test/slack/app test/ops/socket-mode.test.ts test/ops/signature-failures.test.ts \
    test/ops/endpoints.test.ts test/ops/start-script.test.ts test/e2e/reliability.test.ts \
    test/e2e/split-roles.test.ts test/slack-double/bolt-app.test.ts
fi
npx tsc --noEmit -p tsconfig.json
npx vitest run "$@"
