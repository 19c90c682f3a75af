# Timing: a test whose outcome depends on timing asserts only what holds with probability
# ≥ 1 − 10⁻⁴ per run, derived in a comment from the α and the effect size it uses, or takes
# timing out of the question (counted metrics, printed scores, a fake executor, seeded
# simulation); see tests/README.md. Here only two cases touch it: record_concurrently (the
# writers' interleaving; every interleaving must give the same database) and
# record_report_and_metric_one_machine (a real duel whose verdict it does not look at).
#
# Black-box tests of `perfduel trend` and `perfduel record`. Run as
#   cmake -DPERFDUEL=<perfduel> -DWORK_DIR=<scratch dir> -DCASE=<name> -P trend_cli_test.cmake
cmake_minimum_required(VERSION 3.25)

foreach(required PERFDUEL WORK_DIR CASE)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "trend_cli_test.cmake: -D${required}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Runs perfduel with ARGN in WORK_DIR; sets rc, out and err in the caller.
function(perfduel)
  execute_process(COMMAND "${PERFDUEL}" ${ARGN}
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  set(rc "${result}" PARENT_SCOPE)
  set(out "${output}" PARENT_SCOPE)
  set(err "${error}" PARENT_SCOPE)
endfunction()

function(expect_equal what actual expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(FATAL_ERROR "${what}: expected [${expected}], got [${actual}]\nstdout:\n${out}\nstderr:\n${err}")
  endif()
endfunction()

function(expect_contains what text fragment)
  string(FIND "${text}" "${fragment}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: [${fragment}] not found in:\n${text}\nstderr:\n${err}")
  endif()
endfunction()

if(CASE STREQUAL "trend_known_answer")
  # The jumpavg documentation's example: [2.1] then [3.1, 3.2], a progression.
  file(WRITE "${WORK_DIR}/series.csv" "2.1\n3.1\n3.2\n")
  perfduel(trend --input series.csv --method jumpavg --unit 0.1 --higher-is-better --json out.json --svg out.svg)
  expect_equal("exit code" "${rc}" "0")
  expect_contains("table" "${out}" "Last trend")
  expect_contains("anomaly" "${out}" "progression at run 1")
  file(READ "${WORK_DIR}/out.json" json)
  string(JSON groups LENGTH "${json}" groups)
  expect_equal("groups" "${groups}" "2")
  string(JSON start GET "${json}" groups 1 start)
  string(JSON runs GET "${json}" groups 1 runs)
  string(JSON class GET "${json}" groups 1 class)
  string(JSON bits GET "${json}" groups 0 bits)
  expect_equal("second group start" "${start}" "1")
  expect_equal("second group runs" "${runs}" "2")
  expect_equal("second group class" "${class}" "progression")
  expect_contains("first group bits" "${bits}" "6.04439411935")
  string(JSON method GET "${json}" method)
  expect_equal("method" "${method}" "jumpavg")
  # The change's significance: the bits its cut saves (jumpavg: the partition joined there).
  string(JSON gain GET "${json}" groups 1 significance_bits)
  string(JSON first_gain TYPE "${json}" groups 0 significance_bits)
  expect_equal("no significance for the first group" "${first_gain}" "NULL")
  if(NOT gain GREATER 0)
    message(FATAL_ERROR "significance of the progression: ${gain}")
  endif()
  expect_contains("significance in the text" "${out}" " bits")
  file(READ "${WORK_DIR}/out.svg" svg)
  expect_contains("svg" "${svg}" "<svg")
  expect_contains("svg circle" "${svg}" "class=\"progression\"")

elseif(CASE STREQUAL "trend_regression_exit_code")
  # A JSON series with runs; the last group is slower: a regression for a latency (each level
  # holds 12 runs, as a change must).
  file(WRITE "${WORK_DIR}/series.json" "[1.0, 1.01, [0.99, 1.0], 1.02, 0.98, 1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0,
    1.5, 1.52, [1.49, 1.51], 1.5, 1.48, 1.51, 1.5, 1.49, 1.52, 1.5, 1.48, 1.5]")
  perfduel(trend --input series.json --lower-is-better --json out.json)
  expect_equal("exit code" "${rc}" "1")
  expect_contains("marked" "${out}" "REGRESSION")
  file(READ "${WORK_DIR}/out.json" json)
  string(JSON last_class GET "${json}" compliance last_class)
  expect_equal("last class" "${last_class}" "regression")
  perfduel(trend --input series.json --higher-is-better)
  expect_equal("exit code, higher is better" "${rc}" "0")
  # A quick program's system time is 0 in every record: one group, no change, not an error.
  file(WRITE "${WORK_DIR}/zeros.csv" "0\n0\n0\n")
  perfduel(trend --input zeros.csv --json zeros.json --svg zeros.svg)
  expect_equal("exit code, zeros only" "${rc}" "0")
  file(READ "${WORK_DIR}/zeros.json" json)
  string(JSON groups LENGTH "${json}" groups)
  expect_equal("groups, zeros only" "${groups}" "1")
  string(JSON last_class GET "${json}" compliance last_class)
  expect_equal("last class, zeros only" "${last_class}" "normal")

elseif(CASE STREQUAL "trend_input_errors")
  file(WRITE "${WORK_DIR}/bad.csv" "1.0\n2.0\nfast\n")
  perfduel(trend --input bad.csv)
  expect_equal("exit code" "${rc}" "2")
  expect_equal("message" "${err}" "perfduel: error: bad.csv:3: invalid number: \"fast\"\n")
  perfduel(trend --input bad.csv --short 200)
  expect_equal("exit code" "${rc}" "2")
  expect_equal("message" "${err}" "perfduel: error: --short (200) must be at least 1 and less than --long (180)\n")
  file(WRITE "${WORK_DIR}/good.csv" "1.0\n2.0\n")
  perfduel(trend --input good.csv --method cusum)
  expect_equal("unknown method" "${err}" "perfduel: error: --method cusum: expected segments or jumpavg\n")
  perfduel(trend --input good.csv --min-magnitude 5)
  expect_equal("bare magnitude" "${err}"
    "perfduel: error: --min-magnitude 5: expected a relative size of 0 or more, such as 2%\n")
  perfduel(trend --input good.csv --unit 0.1)
  expect_equal("unit without jumpavg" "${err}"
    "perfduel: error: --unit is the resolution of jumpavg's bit counting: give it with --method jumpavg\n")
  perfduel(trend --input good.csv --method jumpavg --min-magnitude 2%)
  expect_equal("magnitude with jumpavg" "${err}"
    "perfduel: error: --min-magnitude applies to --method segments (jumpavg's groups are the reference's, exactly)\n")
  # The default magnitude is the segments' own: jumpavg runs without it, and 0 is no magnitude.
  perfduel(trend --input good.csv --method jumpavg)
  expect_equal("jumpavg with the default magnitude" "${err}" "")
  perfduel(trend --input good.csv --method jumpavg --min-magnitude 0)
  expect_equal("jumpavg with --min-magnitude 0" "${err}" "")

elseif(CASE STREQUAL "trend_segments")
  # The default grouping: a lone slow run is an outlier, not a group; a 3 % step is a change
  # with its significance; --min-magnitude hides it; a steady drift is one line.
  set(values "")
  foreach(i RANGE 0 59)
    math(EXPR wobble "(${i} * 37) % 11")
    if(i LESS 30)
      set(base 1000)
    else()
      set(base 1030)
    endif()
    if(i EQUAL 12)
      set(base 1500)
    endif()
    math(EXPR value "${base} + ${wobble}")
    string(APPEND values "${value}\n")
  endforeach()
  file(WRITE "${WORK_DIR}/step.csv" "${values}")
  perfduel(trend --input step.csv --json step.json --svg step.svg)
  expect_equal("exit code: the last group is slower" "${rc}" "1")
  file(READ "${WORK_DIR}/step.json" json)
  string(JSON method GET "${json}" method)
  expect_equal("default method" "${method}" "segments")
  string(JSON groups LENGTH "${json}" groups)
  expect_equal("groups (the outlier at run 12 is not one)" "${groups}" "2")
  string(JSON start GET "${json}" groups 1 start)
  expect_equal("the step's run" "${start}" "30")
  string(JSON gain GET "${json}" groups 1 significance_bits)
  if(NOT gain GREATER 10)
    message(FATAL_ERROR "significance of a 3 % step over noise of 0.3 %: ${gain} bits")
  endif()
  expect_contains("significance in the text" "${out}" "regression  at run 30: ")
  expect_contains("bits in the text" "${out}" " bits")
  perfduel(trend --input step.csv --min-magnitude 5%)
  expect_equal("exit code: the step is below 5 %" "${rc}" "0")
  expect_contains("one group" "${out}" "60 runs, 1 group,")
  # A 1 % step is real but under the default 2 %: hidden unless --min-magnitude 0.
  set(values "")
  foreach(i RANGE 0 59)
    math(EXPR wobble "(${i} * 37) % 11")
    if(i LESS 30)
      math(EXPR value "1000 + ${wobble}")
    else()
      math(EXPR value "1010 + ${wobble}")
    endif()
    string(APPEND values "${value}\n")
  endforeach()
  file(WRITE "${WORK_DIR}/small.csv" "${values}")
  perfduel(trend --input small.csv)
  expect_equal("exit code: a 1 % step is hidden by default" "${rc}" "0")
  expect_contains("hidden: one group" "${out}" "60 runs, 1 group,")
  perfduel(trend --input small.csv --min-magnitude 0)
  expect_equal("exit code: --min-magnitude 0 shows it" "${rc}" "1")
  expect_contains("shown: two groups" "${out}" "regression  at run 30: ")
  set(values "")
  foreach(i RANGE 0 99)
    math(EXPR wobble "(${i} * 37) % 11")
    math(EXPR value "1000 + 4 * ${i} + ${wobble}")
    string(APPEND values "${value}\n")
  endforeach()
  file(WRITE "${WORK_DIR}/drift.csv" "${values}")
  perfduel(trend --input drift.csv --json drift.json)
  expect_contains("a drift is one line" "${out}" "100 runs, 1 group (lines: the series drifts)")
  file(READ "${WORK_DIR}/drift.json" json)
  string(JSON slope GET "${json}" groups 0 slope)
  if(slope LESS 3.9 OR slope GREATER 4.1)
    message(FATAL_ERROR "slope of the drift: ${slope}")
  endif()

elseif(CASE STREQUAL "record_and_trend")
  file(WRITE "${WORK_DIR}/report.json" [[
{"perfduel_version":"0.1.0","verdict":"regression","exit_code":1,"started":"2026-11-21T10:00:00Z",
 "metrics":[{"name":"wall_time","unit":"s","direction":"lower","gated":true,"baseline_median":0.01,
   "candidate_median":0.0103,"change":0.031,"ci":[0.02,0.04],"verdict":"regression","rounds":2}],
 "environment":{"host":"h","cpu_model":"cpu","kernel":"6.1"},
 "runs":[{"round":0,"side":"candidate","warmup":false,"values":{"wall_time":0.0102}},
         {"round":1,"side":"candidate","warmup":false,"values":{"wall_time":0.0104}}]}
]])
  perfduel(record --db h.sqlite --commit abc --branch main report.json)
  expect_equal("record exit code" "${rc}" "0")
  expect_contains("record output" "${out}" "recorded #1 in h.sqlite: 1 metric")
  # A step in plain values on later days, each level held 12 records (as a change must).
  foreach(day RANGE 1 23)
    if(day LESS 12)
      set(value 0.0100)
    else()
      set(value 0.0130)
    endif()
    math(EXPR minute "${day} + 10")
    perfduel(record --db h.sqlite --commit c${day} --branch main --time 2026-12-01T10:${minute}:00Z
             --metric wall_time --value ${value} --value ${value})
    expect_equal("record ${day}" "${rc}" "0")
  endforeach()
  perfduel(trend --db h.sqlite --metric wall_time --branch main --json trend.json)
  expect_equal("trend exit code" "${rc}" "1")
  expect_contains("direction from the report" "${out}" "lower is better (recorded)")
  expect_contains("anomaly with commit" "${out}" "regression  at run 12 (c12")
  # Every metric when none is named; PERFDUEL_HISTORY names the database.
  set(ENV{PERFDUEL_HISTORY} "${WORK_DIR}/h.sqlite")
  perfduel(trend)
  expect_equal("trend via env exit code" "${rc}" "1")
  expect_contains("trend via env" "${out}" "wall_time")
  perfduel(trend --metric wall_tme)
  expect_equal("unknown metric" "${err}"
    "perfduel: error: ${WORK_DIR}/h.sqlite: no metric \"wall_tme\" (did you mean \"wall_time\"?)\n")
  # A 0.5 % step: a counted metric's (its unit a count) is shown by default, a timed one's hidden.
  foreach(day RANGE 1 16)
    math(EXPR wobble "(${day} * 37) % 11 * 10")
    if(day LESS 9)
      math(EXPR value "100000 + ${wobble}")
    else()
      math(EXPR value "100500 + ${wobble}")
    endif()
    math(EXPR hour "${day} + 10")
    perfduel(record --db c.sqlite --commit d${day} --branch main --time 2026-12-01T${hour}:00:00Z
             --metric insns --unit insn/iter --value ${value})
    expect_equal("record counted ${day}" "${rc}" "0")
    perfduel(record --db c.sqlite --commit d${day} --branch main --time 2026-12-01T${hour}:00:00Z
             --metric wall --unit s --value ${value})
    expect_equal("record timed ${day}" "${rc}" "0")
  endforeach()
  perfduel(trend --db c.sqlite --metric insns)
  expect_contains("counted: the 0.5 % step is shown" "${out}" "regression  at run 8 (d9")
  perfduel(trend --db c.sqlite --metric wall)
  expect_contains("timed: the 0.5 % step is hidden" "${out}" "16 runs, 1 group,")
  perfduel(trend --db c.sqlite --metric wall --min-magnitude 0)
  expect_contains("timed, --min-magnitude 0: shown" "${out}" "regression  at run 8 (d9")

elseif(CASE STREQUAL "trend_per_machine")
  # Two CI machines of different speed take turns: across machines the series steps up and
  # down; per machine it is flat. --machine trends one, and the mixed series is flagged.
  foreach(day RANGE 1 8)
    math(EXPR odd "${day} % 2")
    if(odd)
      set(machine "ci-a | Fast CPU | 6.1")
      set(value 1.0)
    else()
      set(machine "ci-b | Slow CPU | 6.1")
      set(value 1.3)
    endif()
    perfduel(record --db m.sqlite --commit c${day} --branch main --time 2026-12-0${day}T00:00:00Z
             --machine "${machine}" --metric wall_time --value ${value} --value ${value})
    expect_equal("record ${day}" "${rc}" "0")
    if(day EQUAL 1)
      string(REGEX MATCH "machine ([0-9a-f]+) \\(ci-a \\| Fast CPU \\| 6.1\\)" found "${out}")
      set(id_a "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  string(LENGTH "${id_a}" id_length)
  if(NOT id_length EQUAL 16)
    message(FATAL_ERROR "record does not print the machine id: ${out}")
  endif()
  perfduel(trend --db m.sqlite --metric wall_time)
  expect_contains("mixed machines are flagged" "${err}"
    "perfduel: note: wall_time was measured on several machines: ${id_a} (4 records), ")
  string(SUBSTRING "${id_a}" 0 6 prefix)
  perfduel(trend --db m.sqlite --metric wall_time --machine ${prefix} --json one.json)
  expect_equal("one machine: exit code" "${rc}" "0")
  expect_equal("one machine: no note" "${err}" "")
  file(READ "${WORK_DIR}/one.json" json)
  string(JSON groups LENGTH "${json}" groups)
  string(JSON runs GET "${json}" runs)
  expect_equal("one machine: one group" "${groups}" "1")
  expect_equal("one machine: its 4 records" "${runs}" "4")
  perfduel(trend --db m.sqlite --metric wall_time --machine 0000)
  expect_equal("unknown machine: exit code" "${rc}" "2")
  expect_contains("unknown machine" "${err}"
    "m.sqlite: no measurements of \"wall_time\" on machine 0000 (recorded: ${id_a} (4 records), ")

elseif(CASE STREQUAL "record_report_and_metric_one_machine")
  # A real report of this machine and a plain --metric value of this machine are one machine.
  # The duel's verdict and length do not matter (any exit code; a report is written whether it
  # ends decided, inconclusive or at the 1 s budget); the second record repeats the report's
  # candidate median from its JSON text, so the trend sees two equal values, no step. `true`
  # against itself is measured all the same (identical programs would measure nothing to record).
  file(WRITE "${WORK_DIR}/measure.yaml" "identical_programs: measure\n")
  perfduel(compare --config measure.yaml --baseline true --candidate true --max-seconds 1 --quiet
    --json report.json)
  if(NOT EXISTS "${WORK_DIR}/report.json")
    message(FATAL_ERROR "compare wrote no report (exit ${rc}):\n${err}")
  endif()
  perfduel(record --db h.sqlite --commit c1 --branch main report.json)
  expect_equal("record report" "${rc}" "0")
  string(REGEX MATCH "machine ([0-9a-f]+) \\(" found "${out}")
  set(id_report "${CMAKE_MATCH_1}")
  file(READ "${WORK_DIR}/report.json" report)
  string(JSON median GET "${report}" metrics 0 candidate_median)
  perfduel(record --db h.sqlite --commit c2 --branch main --metric wall_time --value ${median})
  expect_equal("record --metric" "${rc}" "0")
  string(REGEX MATCH "machine ([0-9a-f]+) \\(" found "${out}")
  set(id_metric "${CMAKE_MATCH_1}")
  expect_equal("one machine id" "${id_metric}" "${id_report}")
  string(JSON id_in_report GET "${report}" environment machine_id)
  expect_equal("the report's machine id" "${id_in_report}" "${id_report}")
  perfduel(trend --db h.sqlite --metric wall_time --machine this --json this.json)
  expect_equal("trend --machine this: exit code" "${rc}" "0")
  expect_equal("trend --machine this: no note" "${err}" "")
  file(READ "${WORK_DIR}/this.json" json)
  string(JSON runs GET "${json}" runs)
  expect_equal("trend --machine this sees both records" "${runs}" "2")

elseif(CASE STREQUAL "record_concurrently")
  # Eight perfduel processes at once (execute_process runs its COMMANDs concurrently, as a pipeline).
  # The scheduler decides who creates the file, switches it to WAL and writes first; every
  # order must end with 8 records, so nothing here depends on timing but the 60 s SQLite busy
  # timeout, against transactions of a few milliseconds (the 8 take 0.3 s in all; 40 runs in a
  # row passed at load 4).
  set(commands)
  foreach(i RANGE 1 8)
    # Each writes to /dev/null, not into the next one's stdin, so none gets SIGPIPE.
    list(APPEND commands COMMAND sh -c "exec \"$0\" record --db shared.sqlite --commit c${i} --branch main --metric m --value ${i} >/dev/null"
      "${PERFDUEL}")
  endforeach()
  execute_process(${commands} WORKING_DIRECTORY "${WORK_DIR}" RESULTS_VARIABLE results
    OUTPUT_QUIET ERROR_VARIABLE err)
  expect_equal("exit codes" "${results}" "0;0;0;0;0;0;0;0")
  perfduel(trend --db shared.sqlite --metric m --json t.json)
  file(READ "${WORK_DIR}/t.json" json)
  string(JSON count GET "${json}" runs)
  expect_equal("records" "${count}" "8")

elseif(CASE STREQUAL "history_bad_files")
  file(WRITE "${WORK_DIR}/junk.sqlite" "this is not a database, just some text that is long enough to be a header\n")
  perfduel(trend --db junk.sqlite)
  expect_equal("exit code" "${rc}" "2")
  expect_equal("corrupt" "${err}"
    "perfduel: error: junk.sqlite: not a perfduel history database (SQLite: file is not a database)\n")
  perfduel(trend --db missing.sqlite)
  expect_equal("missing" "${err}"
    "perfduel: error: missing.sqlite: no such history database (record results with `perfduel record` first, or pass --db)\n")
  perfduel(record --db h.sqlite)
  expect_equal("nothing to record" "${err}"
    "perfduel: error: nothing to record: give a compare report (perfduel record REPORT.json) or --metric NAME --value V\n")

else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
