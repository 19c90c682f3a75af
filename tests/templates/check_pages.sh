# Checks of the HTML pages the templates write, for run_templates.sh (sourced; uses its fail()).
# check_run_page CASE FILE GATE: FILE is a run page (summary --html) that holds the gate GATE.
check_run_page() {
  local case=$1 file=$2 gate=$3
  if [ ! -s "$file" ]; then
    fail "$case: no run page at $file"
    return
  fi
  grep -q '<meta http-equiv="Content-Security-Policy" content="default-src '"'none'"';' "$file" ||
    fail "$case: $file is not a perfduel page (no Content-Security-Policy)"
  grep -q '<script type="application/json" id="perfduel-data">' "$file" || fail "$case: $file holds no data"
  grep -q "\"name\":\"$gate\"" "$file" || fail "$case: the run page $file does not show the gate $gate"
}
# check_dashboard CASE DIR: DIR is a dashboard (trend --html) with at least one series.
check_dashboard() {
  local case=$1 dir=$2
  if [ ! -s "$dir/index.html" ]; then
    fail "$case: no dashboard at $dir/index.html"
    return
  fi
  grep -q '"series":\[{' "$dir/index.html" || fail "$case: the dashboard $dir/index.html has no series"
}
