#pragma once

#include <span>

namespace perfduel::stats {

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

}  // namespace perfduel::stats
