#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include <boost/math/distributions/normal.hpp>

namespace perfduel::stats {

double mean(std::span<const double> x) {
  if (x.empty()) {
    return k_nan;
  }
  // A constant series has that constant for mean, to the bit: summing six copies of log(1.1615)
  // and dividing by six is off by an ulp, and that ulp would give a deterministic metric a
  // variance and its interval a width.
  if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x.front(); })) {
    return x.front();
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

double proportion_lower_bound(std::size_t count, std::size_t n, double confidence) {
  if (n == 0) {
    return 0;
  }
  const double z = boost::math::quantile(boost::math::normal(), confidence);
  const double trials = static_cast<double>(n);
  const double p = static_cast<double>(count) / trials;
  const double center = p + z * z / (2 * trials);
  const double spread = z * std::sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials));
  return std::max(0.0, (center - spread) / (1 + z * z / trials));
}

}  // namespace perfduel::stats
