#!/usr/bin/env bash
# Usage: no_change_definition.sh SOURCE_DIR
# The definition of the no-change verdict is written once, in the same words, in
# docs/how-it-decides.md (the method, which the README links to), in docs/validation.md and in
# the code that decides it (duel/verdict.hpp): fails when one of them says something else. Line breaks, comment markers and Markdown backticks are ignored.
set -euo pipefail
cd "$1"
definition='the interval is narrower than the threshold and is not shown beyond ±tolerance (entirely outside it, or excluding 0 with its estimate outside it), or the interval at the uncorrected level or the confidence sequence lies entirely inside ±tolerance'
status=0
for file in docs/how-it-decides.md docs/validation.md tools/perfduel/src/duel/verdict.hpp; do
  # One line of text: comment markers and list indentation dropped, whitespace collapsed.
  text=$(sed -e 's|^[[:space:]]*//[[:space:]]*||' -e 's|^[[:space:]]*||' "$file" | tr -d '`' | tr '\n' ' ' | tr -s ' ')
  if [[ $text != *"$definition"* ]]; then
    echo "$file: the definition of no-change differs from: $definition" >&2
    status=1
  fi
done
exit $status
