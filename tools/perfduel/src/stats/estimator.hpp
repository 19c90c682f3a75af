#pragma once

#include "util/name_table.hpp"

namespace perfduel::stats {

// How a metric's change and its interval are estimated from the paired runs.
enum class Estimator {
  mean,    // mean of the log-ratios with a t interval (batched when autocorrelated)
  median,  // median of the log-ratios with a sign-test interval
  min,     // mean of the best runs per batch on each side (the tim method)
};

// Names as written in configurations: "mean", "median", "min".
constexpr util::NameTable<Estimator, 3> k_estimator_names{
    {{Estimator::mean, "mean"}, {Estimator::median, "median"}, {Estimator::min, "min"}}};

}  // namespace perfduel::stats
