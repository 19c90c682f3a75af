#!/usr/bin/env bash
# A stand-in for curl on PATH in the template tests: answers the few REST calls the templates
# make for their pull-request comment (GitHub: list, add, update an issue comment) and merge
# request note (GitLab: list, add, update a note) from a store in $FAKE_API/comments.json, and
# logs each call ("METHOD path-and-query token=...") in $FAKE_API/log with the request body in
# $FAKE_API/request-<n>.json. An option or a URL it does not know fails loudly (exit 2), so a
# template change shows here rather than against the real API.
#
# A release's download (https://github.com/<owner>/<name>/releases/download/<tag>/<file>) is served from
# $PERFDUEL_TEST_ARCHIVE_STORE: the release archive (`cpack -G TGZ` of the perfduel under test in
# $PERFDUEL_TEST_BUILD, made on first use) and its SHA256SUMS, as templates/github-release.yml
# publishes them; a file the store lacks is a 404. The templates' own steps download and check it.
set -euo pipefail
method=GET out=/dev/stdout data='' url='' fail=false token=''
while [ $# -gt 0 ]; do
  case "$1" in
    -fsS|-fsSL|-sSf|-fSs) fail=true ;;
    --retry) shift ;;
    -f|--fail) fail=true ;;
    -s|-S|-sS|-L) ;;
    -o) out=$2; shift ;;
    -X) method=$2; shift ;;
    -H)
      case "$2" in
        "Authorization: Bearer "*) token=${2#Authorization: Bearer } ;;
        "PRIVATE-TOKEN: "*) token=${2#PRIVATE-TOKEN: } ;;
        "Accept: "*|"Content-Type: application/json") ;;
        *) echo "fake curl: unexpected header: $2" >&2; exit 2 ;;
      esac
      shift ;;
    --data|-d)
      case "$2" in @*) data=$(cat "${2#@}") ;; *) data=$2 ;; esac
      shift ;;
    http://*|https://*) url=$1 ;;
    *) echo "fake curl: unexpected argument: $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$url" ] || { echo "fake curl: no URL" >&2; exit 2; }
case "$url" in
  https://github.com/*/*/releases/download/v*/*)
    store=${PERFDUEL_TEST_ARCHIVE_STORE:?fake curl: no PERFDUEL_TEST_ARCHIVE_STORE to serve releases from}
    file=${url##*/}
    if ! ls "$store"/perfduel-*-linux-x86_64.tar.gz >/dev/null 2>&1 && [ -n "${PERFDUEL_TEST_BUILD:-}" ]; then
      mkdir -p "$store"
      cpack -G TGZ -B "$store" --config "$PERFDUEL_TEST_BUILD/CPackConfig.cmake" >/dev/null
      rm -rf "$store/_CPack_Packages"
    fi
    [ -f "$store/SHA256SUMS" ] || (cd "$store" && sha256sum perfduel-*-linux-x86_64.tar.gz >SHA256SUMS)
    [ -f "$store/$file" ] || { echo "curl: (22) The requested URL returned error: 404 ($url)" >&2; exit 22; }
    cp "$store/$file" "$out"
    case "$file" in *.tar.gz) echo "downloaded the perfduel under test: $file" >&2 ;; esac
    exit 0 ;;
esac
store=$FAKE_API/comments.json
[ -f "$store" ] || echo '[]' >"$store"
path=${url#*://*/}
query=''
case "$path" in *\?*) query=${path#*\?}; path=${path%%\?*} ;; esac
n=$(($(wc -l <"$FAKE_API/log" 2>/dev/null || echo 0) + 1))
echo "$method /$path${query:+?$query} token=$token" >>"$FAKE_API/log"
[ -z "$data" ] || printf '%s' "$data" >"$FAKE_API/request-$n.json"
param() { printf '%s\n' "$query" | tr '&' '\n' | sed -n "s/^$1=//p"; }
respond() { printf '%s\n' "$1" >"$out"; }
not_found() { echo "fake curl: no such endpoint: $method /$path" >&2; $fail && exit 22; respond '{"message":"Not Found"}'; exit 0; }
next_id() { jq '([.[].id] | max // 1000) + 1' "$store"; }
case "$method /$path" in
  "GET /repos/"*/issues/*/comments | "GET /api/v4/projects/"*/merge_requests/*/notes)
    thread=$(basename "$(dirname "$path")")
    per_page=$(param per_page); page=$(param page)
    respond "$(jq --arg t "$thread" --argjson per "${per_page:-30}" --argjson page "${page:-1}" \
      '[.[] | select(.thread == $t)] | .[($page - 1) * $per : $page * $per] | map({id, body})' "$store")" ;;
  "POST /repos/"*/issues/*/comments | "POST /api/v4/projects/"*/merge_requests/*/notes)
    thread=$(basename "$(dirname "$path")")
    id=$(next_id)
    jq --arg t "$thread" --argjson id "$id" --argjson req "$data" '. + [{id: $id, thread: $t, body: $req.body}]' \
      "$store" >"$store.new" && mv "$store.new" "$store"
    respond "{\"id\": $id}" ;;
  "PATCH /repos/"*/issues/comments/* | "PUT /api/v4/projects/"*/merge_requests/*/notes/*)
    id=$(basename "$path")
    jq -e --argjson id "$id" 'any(.[]; .id == $id)' "$store" >/dev/null || not_found
    jq --argjson id "$id" --argjson req "$data" 'map(if .id == $id then .body = $req.body else . end)' \
      "$store" >"$store.new" && mv "$store.new" "$store"
    respond "{\"id\": $id}" ;;
  *) not_found ;;
esac
