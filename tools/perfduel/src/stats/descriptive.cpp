#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace perfduel::stats {

namespace {
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
}

double mean(std::span<const double> x) {
  if (x.empty()) {
    return k_nan;
  }
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

double variance(std::span<const double> x) {
  if (x.size() < 2) {
    return k_nan;
  }
  // Two-pass: subtracting the mean first keeps precision when values are large and close,
  // as wall times in nanoseconds are.
  const double m = mean(x);
  double sum_squares = 0;
  for (const double v : x) {
    sum_squares += (v - m) * (v - m);
  }
  return sum_squares / static_cast<double>(x.size() - 1);
}

double stddev(std::span<const double> x) {
  return std::sqrt(variance(x));
}

double median(std::span<const double> x) {
  return quantile(x, 0.5);
}

double quantile(std::span<const double> x, double p) {
  if (x.empty()) {
    return k_nan;
  }
  std::vector<double> sorted(x.begin(), x.end());
  std::sort(sorted.begin(), sorted.end());
  const double position = std::clamp(p, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const auto above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace perfduel::stats
