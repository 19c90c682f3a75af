#pragma once

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

}  // namespace perfduel
