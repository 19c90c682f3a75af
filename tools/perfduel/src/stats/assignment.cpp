#include "stats/assignment.hpp"

#include <cmath>
#include <numeric>

namespace perfduel::stats {

namespace {

// Fewest rounds for a slope with a residual variance of at least two degrees of freedom.
constexpr std::size_t k_min_rounds = 4;

}  // namespace

std::optional<AssignmentEffect> assignment_effect(std::span<const double> d, std::span<const int> s) {
  const std::size_t n = std::min(d.size(), s.size());
  if (n < k_min_rounds) {
    return std::nullopt;
  }
  const double count = static_cast<double>(n);
  const double mean_d = std::accumulate(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n), 0.0) / count;
  double mean_s = 0;
  for (std::size_t r = 0; r < n; ++r) {
    mean_s += s[r];
  }
  mean_s /= count;
  double sxx = 0;
  double sxy = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const double x = s[r] - mean_s;
    sxx += x * x;
    sxy += x * (d[r] - mean_d);
  }
  if (sxx <= 1e-12) {
    return std::nullopt;
  }
  AssignmentEffect result;
  result.effect = sxy / sxx;
  result.mean_assignment = mean_s;
  result.rounds = n;
  double residual = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const double e = d[r] - mean_d - result.effect * (s[r] - mean_s);
    residual += e * e;
  }
  result.standard_error = std::sqrt(residual / (count - 2) / sxx);
  return result;
}

std::vector<double> assignment_correction(std::span<const double> d, std::span<const int> s,
                                          const AssignmentEffect& effect, bool residual_df) {
  const std::size_t n = std::min(d.size(), s.size());
  const double count = static_cast<double>(n);
  const double mean_d = std::accumulate(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n), 0.0) / count;
  const double scale = residual_df && n > 2 ? std::sqrt((count - 1) / (count - 2)) : 1.0;
  std::vector<double> factors(n);
  for (std::size_t r = 0; r < n; ++r) {
    const double removed = d[r] - (s[r] - effect.mean_assignment) * effect.effect;
    const double adjusted = mean_d + (removed - mean_d) * scale;
    factors[r] = std::exp(adjusted - d[r]);
  }
  return factors;
}

}  // namespace perfduel::stats
