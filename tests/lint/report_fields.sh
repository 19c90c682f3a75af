#!/usr/bin/env bash
# Usage: report_fields.sh SOURCE_DIR [FILE...]
#
# The JSON report (`perfduel compare --json`) is written by report_format/json_report.cpp and read by
# report_format/saved_report.cpp, both through the field tables of report_format/*_fields.cpp (one
# descriptor a field: its name, its writer and its reader, report_format/field_table.hpp); every
# other reader reads a SavedReport. Fails, naming file:line, where a file outside that module reads
# a report by a field's name. The FILEs are checked as if they were in the tree (the test that
# shows the check sees a read plants one so).
#
# The rule, kept to what grep can decide:
# - The names are the tables' (each descriptor's first argument: `{"name", …`, `member("name", …`,
#   `named("name", …`), less the words that other JSON read here shares: "name" (Google
#   Benchmark's output, CTest's test list) and "benchmarks" (Google Benchmark's output).
# - The files are the .cpp and .hpp files under tools/perfduel/src, less the module's own
#   (report_format/field_table.hpp, report_format/*_fields.*, report_format/json_report.*,
#   report_format/saved_report.*) and config/, whose YAML keys are the configuration's (the
#   report's "config" section is the configuration as written, read by parse_config).
# - A read by name is `["word"]` that is not written to (not followed by ` = ` or
#   `.push_back(`: trend's and bisect's own JSON outputs write some of the same words), or
#   `.at("word")`, `.value("word"`, `.contains("word")`, `.find("word")`, `.count("word")`.
# - Using the tables (report_field::) outside the module is a read by name too.
set -euo pipefail
source_dir=$1
shift
src=$source_dir/tools/perfduel/src
tables=("$src"/report_format/*_fields.cpp)

# A descriptor may be wrapped over lines: the tables are read as one line each.
names=$(cat "${tables[@]}" | tr '\n' ' ' | grep -oE '(\{|\b(member|named)\() *"[a-z0-9_]+"' |
  grep -oE '"[a-z0-9_]+"' | tr -d '"' | sort -u | grep -vxE 'name|benchmarks' | paste -sd'|' -)
if [ -z "$names" ]; then
  echo "${tables[*]}: no field names found (descriptors \`{\"name\", …\` or \`member(\"name\", …\`)" >&2
  exit 2
fi

files=()
while IFS= read -r file; do
  files+=("$file")
done < <(find "$src" -name '*.cpp' -o -name '*.hpp' | sort |
  grep -vE "/report_format/(field_table\.hpp|[a-z_]+_fields\.(c|h)pp|json_report\.(c|h)pp|saved_report\.(c|h)pp)$|/src/config/")
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
  echo "$(cut -d: -f1,2 <<<"$hit"): uses the report's field tables (report_field::) outside report_format/; read a SavedReport instead" >&2
  status=1
done < <(grep -nHE 'report_field::' "${files[@]}" || true)
exit $status
