#!/usr/bin/env bash
# Local actions/checkout: clones the test's origin repository ($FAKE_ORIGIN) into the
# workspace, all its branches as origin/*, and checks out $GITHUB_SHA detached, as the action
# does for the event's commit (a pull request's merge commit, a push's head). fetch-depth
# other than 0 makes a shallow clone, as the real action would.
set -euo pipefail
depth=${INPUT_FETCH_DEPTH:-1}
args=()
[ "$depth" = 0 ] || args=(--depth "$depth" --no-single-branch)
git clone -q "${args[@]}" "file://$FAKE_ORIGIN" "$GITHUB_WORKSPACE"
cd "$GITHUB_WORKSPACE"
git fetch -q origin "+$GITHUB_REF:$GITHUB_REF" 2>/dev/null || true
git checkout -q --detach "$GITHUB_SHA"
echo "checked out $(git log -1 --format='%h %s') ($GITHUB_REF)"
