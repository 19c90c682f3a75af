#pragma once

#include <optional>
#include <span>
#include <vector>

#include "util/expected.hpp"

namespace perfduel::stats {

// A closed interval [lo, hi].
struct Interval {
  double lo = 0;
  double hi = 0;
  double width() const { return hi - lo; }
  bool contains(double x) const { return lo <= x && x <= hi; }
};

// d_i = ln(candidate_i / baseline_i) for each round i. A ratio is the unit users think in
// ("+3 % wall time") and drift that multiplies both runs of a round cancels inside it.
// Fails, naming the round, when a value is zero, negative or not finite, since no log exists.
util::Expected<std::vector<double>> log_ratios(std::span<const double> baseline,
                                               std::span<const double> candidate);

// The `p` quantile of Student's t distribution with `degrees_of_freedom` (Boost.Math).
double student_t_quantile(double p, double degrees_of_freedom);

// The two-sided confidence interval of a mean.
struct MeanInterval {
  double mean = 0;
  Interval ci;
  std::size_t n = 0;
  double stddev = 0;
};

// The factor that takes a sample standard deviation over `units` independent values to its
// upper confidence bound at `level`: √((k − 1) / χ²_{1−level}(k − 1)) (k = `units`, at least
// 2). 1.15 for k = 90 at level 0.95, 1.05 at level 0.75.
double sigma_upper_bound_factor(std::size_t units, double level);

// Student-t interval x̄ ± t(n−1, 1−(1−`confidence`)/2)·s/√n for the mean of `x`, assuming
// independent values. Chosen over a bootstrap because it is exact for normal data, cheap
// enough to recompute after every round, and log-ratios of run times are close to normal.
// Empty when n < 2. With zero variance the interval collapses to the mean.
std::optional<MeanInterval> t_interval(std::span<const double> x, double confidence);

}  // namespace perfduel::stats
