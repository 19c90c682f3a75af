#pragma once

#include <cstddef>
#include <vector>

#include "duel/analysis.hpp"

// What the duel's plot draws: each run's value and each round's change, by metric, in rounds as
// shown (1-based, warm-up rounds included).
namespace perfduel {

// One marker: x is the round number as shown (1-based, warm-up rounds included).
struct PlotPoint {
  double round = 0;
  double value = 0;
  bool hollow = false;  // a warm-up run, configured or detected
};

// The points of one metric.
struct MetricPoints {
  std::vector<PlotPoint> baseline;
  std::vector<PlotPoint> candidate;
  std::vector<PlotPoint> change;  // per round, in percent
};

// The runs of one round, by side; null where a side is missing (an interrupted round).
struct RoundRuns {
  const RunRecord* baseline = nullptr;
  const RunRecord* candidate = nullptr;
};

// `runs` by round number (rounds are numbered densely from 0).
std::vector<RoundRuns> runs_by_round(const std::vector<RunRecord>& runs);

// Which rounds the analysis did not use as measured: the configured warm-up rounds and the
// first `dropped` complete measured rounds (detected warm-up, duel/analysis.cpp).
std::vector<bool> warmup_rounds(const std::vector<RoundRuns>& rounds, int dropped);

// The points of metric number `metric`: each run's value, and each round's change where both
// values are positive (the log-ratio needs them).
MetricPoints collect_points(const std::vector<RoundRuns>& rounds, const std::vector<bool>& warmup,
                            std::size_t metric);

}  // namespace perfduel
