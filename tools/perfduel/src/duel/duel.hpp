#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/explanation.hpp"
#include "duel/metric_expansion.hpp"
#include "duel/programs.hpp"
#include "duel/run_order.hpp"
#include "exit_codes.hpp"
#include "run/executor.hpp"

namespace perfduel {

struct DuelOutcome {
  // The metrics measured: the configuration's, benchmark patterns expanded after the first
  // round (the values of each run follow this order). Empty when the first round failed.
  std::vector<MetricSpec> metrics;
  SuiteChanges suite;           // benchmarks a pattern found on one side only
  std::vector<RunRecord> runs;  // every finished run, in order, warm-up included
  Analysis analysis;            // final analysis of `runs`
  DuelEnd end = DuelEnd::decided;
  std::string failure;         // one-line cause when a run failed
  std::string failure_stderr;  // the tail of the failing run's stderr
  // The tail of the failing run's stdout; when a metric could not be read from it
  // (failure_stdout_read), an excerpt of both ends, and failure_stderr is then empty unless
  // stdout was.
  std::string failure_stdout;
  bool failure_stdout_read = false;
  // Failed runs whose round was played again (Config::retries), one line each, as `failure`.
  std::vector<std::string> retried;
  // Processes that runs left running after they ended (killed then), and the first such run.
  int left_behind = 0;
  std::string left_behind_first;
  // The exit code of `failure`: 3 for a failing run or an unusable value, 2 when the analysis
  // refused the configuration (a gated metric measured below its resolution).
  ExitCode failure_code = ExitCode::benchmark_failed;
  double elapsed_seconds = 0;
  std::uint64_t seed = 0;  // the seed actually used for the run order
  // CPUs the warm-up runs kept busy, (user+sys)/wall of the busiest one; 0 without warm-up.
  double warmup_parallelism = 0;
  // What the two sides were found to run before the warm-up (run_duel_unless_identical); not
  // fingerprinted for a duel that run_duel started directly.
  ProgramComparison programs;
  // Notes the duel made while it ran, which the final analysis cannot make from the runs alone:
  // the early one that the budget cannot settle some metric's threshold (budget_note).
  std::vector<Note> notes;
  // The counted benchmarks' profiles of the last round that counted them (duel/explanation.hpp).
  SideProfiles profiles;
  // The metrics' changes attributed to functions: counted ones from `profiles` when the duel
  // ends, timed ones that regressed from counted runs made after it (duel/profiling.hpp).
  std::vector<Explanation> explanations;
  double explain_seconds = 0;  // what the counted runs of the timed explanations took, after the duel
};

// Chooses the CPUs of the measured rounds once the warm-up is over, from the warm-up's
// parallelism (see DuelOutcome::warmup_parallelism) and the most threads a benchmark of the
// suite runs by its name (most_benchmark_threads; 1 when none says more); the warm-up ran on
// Config::cpus.
using RepinCallback = std::function<std::vector<int>(double warmup_parallelism, int benchmark_threads)>;

// Called after every measured round with the current analysis and the elapsed seconds.
using ProgressCallback = std::function<void(const Analysis&, double elapsed_seconds)>;

// Called with a note the duel makes while it runs (DuelOutcome::notes), as it makes it.
using NoteCallback = std::function<void(const Note&)>;

// Runs rounds of one baseline and one candidate run back to back, in seeded random or ABBA
// order, until the stopping rule is met or the budget is spent. Once every gated metric has its
// minimum rounds, the metrics whose noise so far needs more rounds than the budget allows are
// named in one note (budget_note, duel/calibration.hpp), kept in the outcome and passed to
// `on_note`. Never throws for a failing
// benchmark: the outcome carries the cause and every run finished before it. A round with a
// failed run is played again, both sides, while Config::retries allows.
// `config` must have baseline and candidate commands; `seed` fixes the order. Runs are pinned
// to Config::cpus, and after the warm-up to what `repin` returns, when given. Benchmark
// patterns among its metrics are expanded from the first round's output (both sides run
// before either is read); the analysis and the outcome use the expanded metrics.
DuelOutcome run_duel(const Config& config, Executor& executor, std::uint64_t seed,
                     const ProgressCallback& progress, const RepinCallback& repin = {},
                     const NoteCallback& on_note = {});

// The same with the runs of valgrind metrics made by `simulator` (a ValgrindExecutor, or a
// scripted one in tests), which must not be null when the configuration has such metrics.
// Throws perfduel::Error when it is.
DuelOutcome run_duel(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed,
                     const ProgressCallback& progress, const RepinCallback& repin = {},
                     const NoteCallback& on_note = {});

// Asks first whether there is anything to measure (compare_programs through `executor`): when
// the two sides run identical programs, the duel ends at once without a run (DuelEnd::identical,
// every metric no change, analyze_identical), `elapsed_seconds` what the fingerprints took;
// otherwise run_duel as above. Either outcome holds the comparison in `programs`.
DuelOutcome run_duel_unless_identical(const Config& config, Executor& executor, Executor* simulator,
                                      std::uint64_t seed, const ProgressCallback& progress,
                                      const RepinCallback& repin = {}, const NoteCallback& on_note = {});

// Once a confidence or sign sequence has settled a regression after `settled_at` measured
// rounds, how many more rounds the duel may play (within its budget) while other gated metrics
// are open with a change worse than their tolerance (Analysis::open_likely_regressions): as
// many again, at least 10 and at most 50. A metric with a like change settles by its sequence
// in a like number of rounds; the bound keeps a clear failure fast (10 rounds become at most
// 20) and a slow one within 50 more rounds.
int naming_rounds(int settled_at);

}  // namespace perfduel
