#pragma once

#include <optional>
#include <span>

#include "stats/paired.hpp"

namespace perfduel::stats {

// The difference of two independent means with Welch's standard error and
// Welch–Satterthwaite degrees of freedom.
struct WelchComparison {
  double difference = 0;  // mean(`second`) − mean(`first`)
  double standard_error = 0;
  double degrees_of_freedom = 0;
  Interval ci;
  double p_value = 1.0;  // two-sided, null "difference = 0"
};

// Welch's two-sample t interval at `confidence` for mean(`second`) − mean(`first`) (Welch
// 1947). Chosen over Student's pooled test because nothing makes the two groups' variances
// equal. Used where samples are not paired: the min estimator's comparison of its two
// halves and the unpaired (cbdr) method in the validation harness. Empty when either group
// has fewer than two values. With both variances zero the interval collapses to the
// difference, and the p-value is 0 when the means differ, 1 when they do not.
std::optional<WelchComparison> welch(std::span<const double> first, std::span<const double> second,
                                     double confidence);

}  // namespace perfduel::stats
