#include "stats/paired.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include "stats/descriptive.hpp"

namespace perfduel::stats {

util::Expected<std::vector<double>> log_ratios(std::span<const double> baseline,
                                               std::span<const double> candidate) {
  using Result = util::Expected<std::vector<double>>;
  if (baseline.size() != candidate.size()) {
    return Result::failure(
        fmt::format("{} baseline values but {} candidate values", baseline.size(), candidate.size()));
  }
  std::vector<double> d;
  d.reserve(baseline.size());
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const double a = baseline[i];
    const double b = candidate[i];
    if (!(a > 0) || !(b > 0) || !std::isfinite(a) || !std::isfinite(b)) {
      return Result::failure(fmt::format(
          "round {}: baseline {} and candidate {} must both be positive to take a log-ratio", i + 1, a, b));
    }
    d.push_back(std::log(b / a));
  }
  return d;
}

double student_t_quantile(double p, double degrees_of_freedom) {
  const boost::math::students_t distribution(degrees_of_freedom);
  return boost::math::quantile(distribution, p);
}

double sigma_upper_bound_factor(std::size_t units, double level) {
  const double degrees_of_freedom = static_cast<double>(std::max<std::size_t>(units, 2) - 1);
  const boost::math::chi_squared distribution(degrees_of_freedom);
  return std::sqrt(degrees_of_freedom / boost::math::quantile(distribution, 1.0 - level));
}

std::optional<MeanInterval> t_interval(std::span<const double> x, double confidence) {
  if (x.size() < 2) {
    return std::nullopt;
  }
  MeanInterval result;
  result.n = x.size();
  result.mean = mean(x);
  result.stddev = stddev(x);
  const double n = static_cast<double>(x.size());
  const double t = student_t_quantile(1.0 - (1.0 - confidence) / 2.0, n - 1.0);
  const double half = t * result.stddev / std::sqrt(n);
  result.ci = {result.mean - half, result.mean + half};
  return result;
}

}  // namespace perfduel::stats
