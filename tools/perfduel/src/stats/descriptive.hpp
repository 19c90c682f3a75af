#pragma once

#include <cstddef>
#include <limits>
#include <span>

namespace perfduel::stats {

// What a statistic returns when its input leaves it undefined (too few values, no spread).
inline constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

// Arithmetic mean of `x`; NaN when `x` is empty.
double mean(std::span<const double> x);

// Sample variance of `x` (divisor n − 1); NaN when fewer than two values.
double variance(std::span<const double> x);

// Sample standard deviation of `x`; NaN when fewer than two values.
double stddev(std::span<const double> x);

// Median of `x` (mean of the two middle values for even n); NaN when empty.
double median(std::span<const double> x);

// Quantile `p` in [0, 1] of `x` by linear interpolation between order statistics
// (Hyndman & Fan type 7, the R and NumPy default); NaN when empty.
double quantile(std::span<const double> x, double p);

// One-sided lower confidence bound at `confidence` for a proportion seen `count` times in `n`
// trials: the lower end of Wilson's score interval (Wilson 1927), with z the one-sided normal
// quantile. Chosen over the normal-approximation bound, which collapses to p̂ at 0 or n
// successes and is far too optimistic for the small n it is asked about, and over the exact
// Clopper-Pearson bound, which needs a beta quantile and errs conservative. 0 when n is 0.
double proportion_lower_bound(std::size_t count, std::size_t n, double confidence);

}  // namespace perfduel::stats
