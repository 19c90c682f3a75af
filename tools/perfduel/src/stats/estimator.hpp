#pragma once

#include "util/name_table.hpp"

namespace perfduel::stats {

// How a metric's change and its interval are estimated from the paired runs.
enum class Estimator {
  mean,     // mean of the log-ratios with a t interval (batched when autocorrelated)
  median,   // median of the log-ratios with a sign-test interval
  min,      // mean of the best runs per batch on each side (the tim method)
  ratio,    // ratio of the two sides' means with a delta-method interval (stats/ratio.hpp); the
            // analysis switches to it for a metric that reads 0 at its resolution
  trimmed,  // 20 % trimmed mean of the log-ratios with Yuen's interval (stats/robust.hpp), for
            // heavy tails (batched as the mean when autocorrelated)
};

// Names as written in configurations and reports: "mean", "median", "min", "ratio", "trimmed".
constexpr util::NameTable<Estimator, 5> k_estimator_names{{{Estimator::mean, "mean"},
                                                           {Estimator::median, "median"},
                                                           {Estimator::min, "min"},
                                                           {Estimator::ratio, "ratio"},
                                                           {Estimator::trimmed, "trimmed"}}};

}  // namespace perfduel::stats
