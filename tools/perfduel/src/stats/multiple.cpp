#include "stats/multiple.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/students_t.hpp>

namespace perfduel::stats {

namespace {

// Indices of `p_values` ordered by ascending p, ties by position, NaN last.
std::vector<std::size_t> ascending_order(std::span<const double> p_values) {
  std::vector<std::size_t> order(p_values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool a_nan = std::isnan(p_values[a]);
    const bool b_nan = std::isnan(p_values[b]);
    if (a_nan != b_nan) {
      return b_nan;
    }
    return !a_nan && p_values[a] < p_values[b];
  });
  return order;
}

}  // namespace

double bonferroni_confidence(double confidence, std::size_t tests) {
  return 1.0 - (1.0 - confidence) / static_cast<double>(std::max<std::size_t>(tests, 1));
}

std::vector<bool> holm_rejections(std::span<const double> p_values, double alpha) {
  std::vector<bool> rejected(p_values.size(), false);
  const std::vector<std::size_t> order = ascending_order(p_values);
  const std::size_t m = p_values.size();
  for (std::size_t rank = 0; rank < m; ++rank) {
    const double p = p_values[order[rank]];
    if (std::isnan(p) || p > alpha / static_cast<double>(m - rank)) {
      break;  // step-down: the first failure ends the procedure
    }
    rejected[order[rank]] = true;
  }
  return rejected;
}

std::vector<double> holm_levels(std::span<const double> p_values, double alpha) {
  std::vector<double> levels(p_values.size(), 0.0);
  const std::vector<std::size_t> order = ascending_order(p_values);
  const std::size_t m = p_values.size();
  for (std::size_t rank = 0; rank < m; ++rank) {
    levels[order[rank]] = alpha / static_cast<double>(m - rank);
  }
  return levels;
}

std::vector<double> holm_adjusted(std::span<const double> p_values) {
  std::vector<double> adjusted(p_values.size(), std::numeric_limits<double>::quiet_NaN());
  const std::vector<std::size_t> order = ascending_order(p_values);
  const std::size_t m = p_values.size();
  double running = 0;
  for (std::size_t rank = 0; rank < m; ++rank) {
    const double p = p_values[order[rank]];
    if (std::isnan(p)) {
      break;
    }
    running = std::max(running, std::min(1.0, static_cast<double>(m - rank) * p));
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

double t_test_p_value(double center, double standard_error, double degrees_of_freedom, Interval band) {
  if (std::isnan(center) || std::isnan(standard_error)) {
    return 1.0;
  }
  const bool inside = band.contains(center);
  if (!(standard_error > 0) || !(degrees_of_freedom > 0)) {
    return inside ? 1.0 : 0.0;
  }
  if (inside) {
    return 1.0;  // the estimate itself is in the band: no evidence against the null at all
  }
  const double edge = center > band.hi ? band.hi : band.lo;
  const double t = std::abs(center - edge) / standard_error;
  const boost::math::students_t distribution(degrees_of_freedom);
  return std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(distribution, t)));
}

}  // namespace perfduel::stats
