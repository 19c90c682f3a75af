#pragma once

#include <optional>
#include <vector>

#include "config/config.hpp"
#include "duel/paired_rounds.hpp"
#include "duel/zero_readings.hpp"

// Before a metric is judged: what its runs so far say about the rounds it needs (deterministic,
// read 0) and the estimator it takes.
namespace perfduel {

// What the runs so far say about one metric before it is judged.
struct MetricPlan {
  Readings readings;
  // The side whose every run read 0 while the other's never did (zero_side_of): a count's change
  // from or to nothing, judged without a ratio.
  std::optional<Side> zero_side;
  bool deterministic = false;  // is_deterministic (of the side above 0, for a zero_side)
  int min_rounds = 0;          // MetricResult::min_rounds
  Estimator estimator = Estimator::mean;
};

struct RoundPlan {
  std::vector<MetricPlan> metrics;  // same order as Config::metrics
  bool enough_rounds = true;        // every gated metric has its minimum rounds
};

// The plan of every metric of `config` from its paired `series` so far.
RoundPlan plan_rounds(const Config& config, const PairedSeries& series);

}  // namespace perfduel
