#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "run/executor.hpp"

namespace perfduel {

struct DuelOutcome {
  std::vector<RunRecord> runs;  // every finished run, in order, warm-up included
  Analysis analysis;            // final analysis of `runs`
  DuelEnd end = DuelEnd::decided;
  std::string failure;         // one-line cause when a run failed
  std::string failure_stderr;  // the tail of the failing run's stderr
  double elapsed_seconds = 0;
  std::uint64_t seed = 0;  // the seed actually used for the run order
};

// Called after every measured round with the current analysis and the elapsed seconds.
using ProgressCallback = std::function<void(const Analysis&, double elapsed_seconds)>;

// Runs rounds of one baseline and one candidate run back to back, in seeded random or ABBA
// order, until the stopping rule is met or the budget is spent. Never throws for a failing
// benchmark: the outcome carries the cause and every run finished before it.
// `config` must have baseline and candidate commands; `seed` fixes the order.
DuelOutcome run_duel(const Config& config, Executor& executor, std::uint64_t seed,
                     const ProgressCallback& progress);

// The same with the runs of valgrind metrics made by `simulator` (a ValgrindExecutor, or a
// scripted one in tests), which must not be null when the configuration has such metrics.
// Throws perfduel::Error when it is.
DuelOutcome run_duel(const Config& config, Executor& executor, Executor* simulator, std::uint64_t seed,
                     const ProgressCallback& progress);

// The order of the two runs in measured round `round`: true when the candidate goes first.
// Random order is a seeded coin per round (`seed`); ABBA alternates AB, BA, AB, ...
bool candidate_first(Order order, int round, std::uint64_t seed);

}  // namespace perfduel
