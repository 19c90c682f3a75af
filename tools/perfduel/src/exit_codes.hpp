#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>

namespace perfduel {

// Process exit codes of the perfduel driver. 77 is CTest's conventional skip code, so an
// inconclusive gate shows up as "skipped" rather than passed or failed.
enum class ExitCode : int {
  pass = 0,              // every gated metric: no change or improvement
  regression = 1,        // at least one gated metric is significantly worse
  usage = 2,             // bad command line or configuration
  benchmark_failed = 3,  // a run crashed, exited non-zero, timed out or lacked a metric
  inconclusive = 77,     // the budget ran out before every gated metric settled
  interrupted = 130,     // SIGINT, SIGTERM or SIGHUP; children killed, the partial report written
  // `compare --exit-codes git-bisect` only (bisect/git_bisect_codes.hpp): what `git bisect run`
  // takes as "skip this commit" and as "stop the bisection".
  git_bisect_skip = 125,
  git_bisect_abort = 128,
};

constexpr int to_int(ExitCode code) {
  return static_cast<int>(code);
}

// One exit code as the user reads about it.
struct ExitCodeRow {
  ExitCode code;
  std::string_view name;     // a few words, for a list: "usage/config error"
  std::string_view meaning;  // one line, Markdown allowed (backticks)
};

// The exit codes of the driver (git-bisect's are `compare --exit-codes`'s own), described once:
// `perfduel --help` prints this table, the sub-commands' footers list its names, and a unit
// test holds README.md's "## Exit codes" section to it, code for code and word for word.
inline constexpr std::array<ExitCodeRow, 6> k_exit_code_table{{
    {ExitCode::pass, "pass", "pass: no gated metric regressed"},
    {ExitCode::regression, "regression", "regression (also: inconclusive with `inconclusive: fail`)"},
    {ExitCode::usage, "usage/config error",
     "usage or configuration error (the message names the file, line or argument); a gated metric shown "
     "to read 0 in most runs of one side (measured below its resolution; docs/validation.md)"},
    {ExitCode::benchmark_failed, "benchmark failed",
     "a benchmark failed: crash, non-zero exit, timeout, missing, negative or non-finite metric, or 0 "
     "where the metric does not allow it (`zeros:`)"},
    {ExitCode::inconclusive, "inconclusive",
     "inconclusive: the budget ran out first, or could not settle the open metrics at the rate so far "
     "(CTest shows the test as skipped)"},
    {ExitCode::interrupted, "interrupted",
     "interrupted by SIGINT, SIGTERM or SIGHUP: children killed, partial report written"},
}};

// `perfduel bisect`'s exit codes: the driver's numbers, its own meanings. Its footer prints this
// table, and a unit test holds docs/bisect.md's exit code table to it, word for word.
inline constexpr std::array<ExitCodeRow, 6> k_bisect_exit_code_table{{
    {ExitCode::pass, "found", "the first bad commit, confirmed by its duel against its parent"},
    {ExitCode::regression, "no difference",
     "the endpoints do not differ by more than the cut: nothing to bisect"},
    {ExitCode::usage, "usage/config error",
     "usage or configuration error (`perfduel: error: --good v9: not a commit in /src (git rev-parse: …)`)"},
    {ExitCode::benchmark_failed, "endpoint failed",
     "an endpoint does not build, or its benchmark fails (the message names it and the log)"},
    {ExitCode::inconclusive, "no single commit",
     "no single confirmed commit: skipped commits leave several candidates, the endpoints' duel stayed "
     "inconclusive, or the confirmation did not confirm"},
    {ExitCode::interrupted, "interrupted", "interrupted; the report so far is written, the builds are kept"},
}};

// The other sub-commands' exit codes: the driver's numbers, each command's own meanings. Each
// command's footer prints its table, and a unit test holds docs/command-line.md's "## Exit
// codes" section to them, word for word.
inline constexpr std::array<ExitCodeRow, 4> k_summary_exit_code_table{{
    {ExitCode::pass, "passed", "every gate passed"},
    {ExitCode::regression, "regressed or failed", "a gate regressed, failed or was interrupted"},
    {ExitCode::usage, "unreadable input",
     "unreadable input: no report, or a file that is not a perfduel report"},
    {ExitCode::inconclusive, "undecided", "none failed, but a gate is inconclusive or skipped"},
}};

inline constexpr std::array<ExitCodeRow, 4> k_calibrate_exit_code_table{{
    {ExitCode::pass, "done", "the thresholds are written"},
    {ExitCode::usage, "usage/config error", "usage or configuration error, or nothing to calibrate from"},
    {ExitCode::benchmark_failed, "benchmark failed", "a run of the A/A duel failed"},
    {ExitCode::interrupted, "interrupted", "interrupted by SIGINT, SIGTERM or SIGHUP: children killed"},
}};

inline constexpr std::array<ExitCodeRow, 2> k_record_exit_code_table{{
    {ExitCode::pass, "recorded", "recorded, or recorded already under its run id (nothing added)"},
    {ExitCode::usage, "usage error",
     "usage error, a report that cannot be read, or a history that cannot be opened or written"},
}};

inline constexpr std::array<ExitCodeRow, 3> k_trend_exit_code_table{{
    {ExitCode::pass, "no regression", "no metric's last group is a regression"},
    {ExitCode::regression, "regression", "a metric's last group is a regression (a nightly job can alert)"},
    {ExitCode::usage, "usage error", "usage error, or a history or series file that cannot be read"},
}};

inline constexpr std::array<ExitCodeRow, 3> k_doctor_exit_code_table{{
    {ExitCode::pass, "fit", "no check failed (warnings and remarks allowed)"},
    {ExitCode::regression, "unfit",
     "at least one check failed: results from this machine would not be trustworthy"},
    {ExitCode::usage, "usage error", "usage error (e.g. a bad --cpus list)"},
}};

// A table as a `--help` ends: "Exit codes:", then a line per code, "  77   inconclusive: ...".
inline std::string exit_codes_help(std::span<const ExitCodeRow> table = k_exit_code_table) {
  std::string text = "Exit codes:";
  for (const auto& row : table) {
    auto code = std::to_string(to_int(row.code));
    code.resize(std::max<std::size_t>(code.size(), 4), ' ');
    text += "\n  " + code + " " + std::string(row.meaning);
  }
  return text;
}

// Every code by number and name, for a sub-command's footer: "0 pass, 1 regression, 2
// usage/config error, ...".
inline std::string exit_code_names() {
  std::string text;
  for (const auto& row : k_exit_code_table) {
    text += (text.empty() ? "" : ", ") + std::to_string(to_int(row.code)) + " " + std::string(row.name);
  }
  return text;
}

}  // namespace perfduel
