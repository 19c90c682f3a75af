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
  // CPUs the warm-up runs kept busy, (user+sys)/wall of the busiest one; 0 without warm-up.
  double warmup_parallelism = 0;
};

// Chooses the CPUs of the measured rounds once the warm-up is over, from the warm-up's
// parallelism (see DuelOutcome::warmup_parallelism); the warm-up ran on Config::cpus.
using RepinCallback = std::function<std::vector<int>(double warmup_parallelism)>;

// Called after every measured round with the current analysis and the elapsed seconds.
using ProgressCallback = std::function<void(const Analysis&, double elapsed_seconds)>;

// Runs rounds of one baseline and one candidate run back to back, in seeded random or ABBA
// order, until the stopping rule is met or the budget is spent. Never throws for a failing
// benchmark: the outcome carries the cause and every run finished before it.
// `config` must have baseline and candidate commands; `seed` fixes the order. Runs are pinned
// to Config::cpus, and after the warm-up to what `repin` returns, when given.
DuelOutcome run_duel(const Config& config, Executor& executor, std::uint64_t seed,
                     const ProgressCallback& progress, const RepinCallback& repin = {});

// The order of the two runs in measured round `round`: true when the candidate goes first.
// Random order is a seeded coin per round (`seed`); ABBA alternates AB, BA, AB, ...
bool candidate_first(Order order, int round, std::uint64_t seed);

}  // namespace perfduel
