#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "stats/estimator.hpp"
#include "stats/paired.hpp"

namespace perfduel::stats {

// Settings shared by the estimators.
struct EstimatorOptions {
  double confidence = 0.95;            // already corrected for multiple metrics
  double autocorrelation_limit = 0.1;  // batch when |lag-1 r| exceeds this
  std::size_t min_batches = 20;        // never batch below this many batches
  std::size_t min_best_of = 3;         // `min`: best k runs per batch
  double stability_limit = 0.02;       // `min`: allowed relative gap between halves
  Interval null_band;                  // log-ratio band of "no change" that `p_value` tests against
  // > 0: the interval and p-value take σ at its upper confidence bound at this level
  // (sigma_upper_bound_factor), the width rule's allowance for stopping when σ looks small
  // (duel/settling.cpp). 0: the plain fixed-sample interval.
  double decision_sigma_level = 0;
};

enum class EstimateStatus {
  ok,
  insufficient_data,  // too few rounds for an interval
  unstable,           // the `min` estimator's halves disagree; no verdict possible
};

// The change of candidate against baseline and its confidence interval, both in
// log-ratio space (ln(candidate / baseline)).
struct Estimate {
  EstimateStatus status = EstimateStatus::insufficient_data;
  double center = 0;
  Interval ci;
  std::size_t rounds = 0;                                  // paired rounds used
  std::size_t batch_size = 1;                              // rounds per batch (1: no batching)
  std::size_t batches = 0;                                 // independent units behind the interval
  double lag1 = std::numeric_limits<double>::quiet_NaN();  // lag-1 autocorrelation of the log-ratios
  double p_value = 1.0;  // two-sided test of "no change" (for Holm's procedure)
  // Factors on the standard error behind `ci` and `p_value`: the stopping allowance from
  // `decision_sigma_level`, and in `spread_inflation` also the residual batch correlation.
  double sequential_allowance = 1.0;
  double spread_inflation = 1.0;
  // The interval is the provisional one of an autocorrelated series not yet batchable
  // (stats::Batching::provisional): it may decide a clear change, the width rule must not stop on it.
  bool provisional = false;
  std::string note;  // why the status is not ok, or what was adjusted
};

// Estimates the change with `estimator` from the paired series `baseline` and `candidate`
// (round i of each belong together; all values positive, already checked by the caller; for
// Estimator::ratio zero or positive, with a positive sum on each side).
Estimate estimate(Estimator estimator, std::span<const double> baseline, std::span<const double> candidate,
                  const EstimatorOptions& options);

}  // namespace perfduel::stats
