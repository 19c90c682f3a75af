#!/usr/bin/env bash
# Usage: report_fields.sh SOURCE_DIR [FILE...]
#
# The JSON report (`perfduel compare --json`) is written by report_format/json_report.cpp and read by
# report_format/saved_report.cpp, both through the field table report_format/report_fields.hpp; every other
# reader reads a SavedReport. Fails, naming file:line, where a file outside that module reads a
# report by a field's name. The FILEs are checked as if they were in the tree (the test that
# shows the check sees a read plants one so).
#
# The rule, kept to what grep can decide:
# - The names are the table's (each `k_… = "…";` line of report_fields.hpp), less the words that
#   other JSON read here shares: "name" (Google Benchmark's output, CTest's test list) and
#   "benchmarks" (Google Benchmark's output).
# - The files are the .cpp and .hpp files under tools/perfduel/src, less the module's own
#   (report_format/report_fields.hpp, report_format/json_report.*, report_format/saved_report.*) and config/, whose
#   YAML keys are the configuration's (the report's "config" section is the configuration as
#   written, read by parse_config).
# - A read by name is `["word"]` that is not written to (not followed by ` = ` or
#   `.push_back(`: trend's and bisect's own JSON outputs write some of the same words), or
#   `.at("word")`, `.value("word"`, `.contains("word")`, `.find("word")`, `.count("word")`.
# - Using the table's constants (report_field::) outside the module is a read by name too.
set -euo pipefail
source_dir=$1
shift
src=$source_dir/tools/perfduel/src
table=$src/report_format/report_fields.hpp

names=$(grep -oE 'k_[a-z0-9_]+ = "[a-z0-9_]+";' "$table" | sed -E 's/.*"(.*)";/\1/' |
  grep -vxE 'name|benchmarks' | paste -sd'|' -)
if [ -z "$names" ]; then
  echo "$table: no field names found (lines \`inline constexpr const char* k_… = \"…\";\`)" >&2
  exit 2
fi

files=()
while IFS= read -r file; do
  files+=("$file")
done < <(find "$src" -name '*.cpp' -o -name '*.hpp' | sort |
  grep -vE "/report_format/(report_fields\.hpp|json_report\.(c|h)pp|saved_report\.(c|h)pp)$|/src/config/")
files+=("$@")

# grep -n over the files: indexing by a name not written to, or a lookup by a name.
index="\\[\"($names)\"\\]"
lookup="(\\.|->)(at|value|contains|find|count)\\(\"($names)\""
status=0
while IFS= read -r hit; do
  if [[ $hit =~ $index[[:space:]]*(=([^=]|$)|\.push_back\(|\.emplace_back\() ]] && ! [[ $hit =~ $lookup ]]; then
    continue  # written, not read
  fi
  file_line=$(cut -d: -f1,2 <<<"$hit")
  word=$(grep -oE "$index|$lookup" <<<"${hit#*:*:}" | grep -oE "\"[a-z0-9_]+\"" | head -1)
  echo "$file_line: reads the report's field $word by name; read a SavedReport (report_format/saved_report.hpp) instead" >&2
  status=1
done < <(grep -nHE "$index|$lookup" "${files[@]}" || true)

while IFS= read -r hit; do
  echo "$(cut -d: -f1,2 <<<"$hit"): uses the report's field table (report_field::) outside report_format/; read a SavedReport instead" >&2
  status=1
done < <(grep -nHE 'report_field::' "${files[@]}" || true)
exit $status
