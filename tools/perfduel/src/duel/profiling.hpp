#pragma once

#include <filesystem>
#include <vector>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "run/executor.hpp"

// Where a timed change happened: after a duel whose timed metric regressed (Config::explain), one
// counted run of each side under callgrind or cachegrind with the cache simulation (a suite: only
// the benchmarks in question), whose profiles are compared as a counted metric's are. A time is
// not a count: the profile explains the change only when the counts moved with the time, by
// instructions or else by estimated cycles (cache misses weighted); when neither did, it says so
// and names no function (the time went to what a count does not see: memory layout, system
// calls, waiting, frequency).
namespace perfduel {

// The least part of a timed change the counted change must reach, in the same direction, to
// explain it. A count explains time only roughly (an instruction is not a fixed time), so a
// quarter: a +10 % time with +3 % instructions is explained by where those went; with +0.1 %
// it is not.
inline constexpr double k_least_explained_part = 0.25;

// The timed metrics of `analysis` that `explain` asks to profile: gated regressions (failures)
// or every metric worth explaining (always), of the sources a counted run can stand for (wall,
// user and system time, a Google Benchmark time, a Catch2 mean).
std::vector<const MetricResult*> timed_to_explain(Explain explain, const Analysis& analysis);

// The explanation of a timed `result` from `baseline` and `candidate`, the profiles of one counted
// run a side with the cache simulation: by instructions when they moved with the time, else by
// estimated cycles when those did, else ProfileReading::not_by_counts with no function named.
Explanation explain_timed(const MetricResult& result, const Profile& baseline, const Profile& candidate);

// Profiles the timed metrics of `outcome` that `config` asks to explain (timed_to_explain) through
// `executor` under `valgrind` on `cpus`, and adds their explanations and a note of what it took
// to `outcome`. Nothing for a duel that failed or was interrupted; a run that fails is a note,
// never a failure of the gate.
void explain_timed_changes(const Config& config, DuelOutcome& outcome, Executor& executor,
                           const std::filesystem::path& valgrind, const std::vector<int>& cpus);

}  // namespace perfduel
