#include "stats/changepoint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

#include "stats/descriptive.hpp"

namespace perfduel::stats {

namespace {

constexpr std::size_t k_min_values = 10;
// MSER-5: batch means of 5 smooth the MSER curve (Spratt 1998); with fewer than 10 batches
// the values are used one by one.
constexpr std::size_t k_mser_batch = 5;

// Two-sided p-value that the `prefix` is drawn from the distribution of `rest`: under that
// null, mean(prefix) − mean(rest) has variance σ²(1/d + 1/m), and σ is estimated from `rest`
// alone, since a warm-up phase inflates the prefix's own spread (a Welch test would lose all
// power on a prefix of two very different runs). t with m − 1 degrees of freedom; for d = 1
// it is the Student prediction interval of one more value.
double prefix_p_value(std::span<const double> prefix, std::span<const double> rest) {
  const double s = stddev(rest);
  const double gap = mean(prefix) - mean(rest);
  if (!(s > 0)) {
    return gap == 0 ? 1.0 : 0.0;
  }
  const double d = static_cast<double>(prefix.size());
  const double m = static_cast<double>(rest.size());
  const double t = std::abs(gap) / (s * std::sqrt(1.0 / d + 1.0 / m));
  const boost::math::students_t distribution(m - 1.0);
  return 2.0 * boost::math::cdf(boost::math::complement(distribution, t));
}

}  // namespace

WarmupDetection detect_warmup(std::span<const double> x, double alpha) {
  WarmupDetection result;
  const std::size_t n = x.size();
  if (n < k_min_values) {
    return result;
  }
  const std::size_t unit = n >= 10 * k_mser_batch ? k_mser_batch : 1;
  const std::size_t units = n / unit;
  // Unit means; a trailing partial unit is kept in the statistic through the raw values.
  std::vector<double> y;
  y.reserve(units);
  for (std::size_t u = 0; u < units; ++u) {
    y.push_back(mean(x.subspan(u * unit, unit)));
  }
  // Suffix sums give MSER(d) for every d in one pass.
  std::vector<double> sum(units + 1, 0.0);
  std::vector<double> sum_squares(units + 1, 0.0);
  for (std::size_t u = units; u-- > 0;) {
    sum[u] = sum[u + 1] + y[u];
    sum_squares[u] = sum_squares[u + 1] + y[u] * y[u];
  }
  std::size_t best = 0;
  double best_mser = std::numeric_limits<double>::infinity();
  for (std::size_t d = 0; d <= units / 2; ++d) {
    const double m = static_cast<double>(units - d);
    const double sse = std::max(0.0, sum_squares[d] - sum[d] * sum[d] / m);
    const double mser = sse / (m * m);
    if (mser < best_mser) {
      best_mser = mser;
      best = d;
    }
  }
  const std::size_t drop = best * unit;
  if (drop == 0) {
    return result;
  }
  const auto prefix = x.first(drop);
  const auto rest = x.subspan(drop);
  result.shift = mean(prefix) - mean(rest);
  result.p_value = prefix_p_value(prefix, rest);
  if (result.p_value < alpha) {
    result.drop = drop;
  }
  return result;
}

}  // namespace perfduel::stats
