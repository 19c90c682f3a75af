#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "stats/assignment.hpp"

// The runs of a duel as the analysis reads them: measured rounds paired by round, the leading
// rounds detected warm-up drops, and the CPUs' difference of a duet taken out.
namespace perfduel {

// The measured rounds that have both runs, in round order: per metric, the baseline and
// candidate series paired by index.
struct PairedSeries {
  std::vector<std::vector<double>> baseline;  // [metric][round]
  std::vector<std::vector<double>> candidate;
  std::vector<int> rounds;  // round number of each pair
  // Order duet, per pair: +1 when the candidate had the higher-numbered CPU, −1 when the
  // baseline had it, 0 when the runs were not a duet's (stats/assignment.hpp).
  std::vector<int> assignment;
};

// Pairs the measured runs of `runs` by round, `metric_count` values each; warm-up rounds and
// rounds with one side only are left out.
PairedSeries pair_rounds(std::size_t metric_count, std::span<const RunRecord> runs);

// Whether every value of `values` is positive and finite: whether it has a log.
bool all_positive(const std::vector<double>& values);

// The leading rounds detected warm-up dropped (0: none), where it was found most clearly (a
// metric and a series) and how far off they were (log) against the rest.
struct WarmupDrop {
  std::size_t rounds = 0;
  std::string where;
  double shift = 0;
};

// Drops from `series` the leading measured rounds that stats::detect_warmup finds as an
// unstable initial phase in any gated metric of `config`; returns what it dropped.
WarmupDrop drop_detected_warmup(const Config& config, PairedSeries& series);

// Order duet: the candidate's values with the CPUs' difference taken out of each round
// (stats/assignment.hpp), and that difference; `b` itself, and no effect, when the rounds have
// no balanced assignment (another order, duet-fixed, a value that is not positive). Residuals
// are rescaled for a degree of freedom where the estimator's interval comes from the
// log-ratios' spread (mean, trimmed mean, median).
struct CpuCorrection {
  std::vector<double> candidate;
  std::optional<stats::AssignmentEffect> effect;
};

// Order duet: the candidate values `b` with the CPUs' difference taken out of each round, given
// the baseline values `a`, the rounds' `assignment` (PairedSeries::assignment) and the
// `estimator` (whose interval may need the residuals rescaled).
CpuCorrection correct_cpu_effect(Estimator estimator, const std::vector<double>& a,
                                 const std::vector<double>& b, const std::vector<int>& assignment);

}  // namespace perfduel
