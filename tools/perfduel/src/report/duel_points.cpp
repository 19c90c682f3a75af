#include "report/duel_points.hpp"

#include <cmath>
#include <limits>

namespace perfduel {

// `runs` by round number (rounds are numbered densely from 0).
std::vector<RoundRuns> runs_by_round(const std::vector<RunRecord>& runs) {
  std::vector<RoundRuns> rounds;
  for (const auto& run : runs) {
    if (run.round < 0) {
      continue;
    }
    const auto round = static_cast<std::size_t>(run.round);
    if (round >= rounds.size()) {
      rounds.resize(round + 1);
    }
    (run.side == Side::baseline ? rounds[round].baseline : rounds[round].candidate) = &run;
  }
  return rounds;
}

// Which rounds the analysis did not use as measured: the configured warm-up rounds and the
// first `dropped` complete measured rounds (detected warm-up, duel/analysis.cpp).
std::vector<bool> warmup_rounds(const std::vector<RoundRuns>& rounds, int dropped) {
  std::vector<bool> warmup(rounds.size(), false);
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const auto& [a, b] = rounds[r];
    if ((a != nullptr && a->warmup) || (b != nullptr && b->warmup)) {
      warmup[r] = true;
    } else if (a != nullptr && b != nullptr && dropped > 0) {
      warmup[r] = true;
      --dropped;
    }
  }
  return warmup;
}

// The points of metric number `metric`: each run's value, and each round's change where both
// values are positive (the log-ratio needs them).
MetricPoints collect_points(const std::vector<RoundRuns>& rounds, const std::vector<bool>& warmup,
                            std::size_t metric) {
  MetricPoints points;
  const auto value_of = [metric](const RunRecord* run) {
    return run != nullptr && metric < run->values.size() ? run->values[metric]
                                                         : std::numeric_limits<double>::quiet_NaN();
  };
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const double x = static_cast<double>(r + 1);
    const double a = value_of(rounds[r].baseline);
    const double b = value_of(rounds[r].candidate);
    if (std::isfinite(a)) {
      points.baseline.push_back({x, a, warmup[r]});
    }
    if (std::isfinite(b)) {
      points.candidate.push_back({x, b, warmup[r]});
    }
    if (a > 0 && b > 0 && std::isfinite(a) && std::isfinite(b)) {
      points.change.push_back({x, 100.0 * (b / a - 1.0), warmup[r]});
    }
  }
  return points;
}

}  // namespace perfduel
