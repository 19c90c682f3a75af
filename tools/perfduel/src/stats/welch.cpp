#include "stats/welch.hpp"

#include <cmath>

#include <boost/math/distributions/students_t.hpp>

#include "stats/descriptive.hpp"

namespace perfduel::stats {

std::optional<WelchComparison> welch(std::span<const double> first, std::span<const double> second,
                                     double confidence) {
  if (first.size() < 2 || second.size() < 2) {
    return std::nullopt;
  }
  const double n1 = static_cast<double>(first.size());
  const double n2 = static_cast<double>(second.size());
  const double v1 = variance(first) / n1;
  const double v2 = variance(second) / n2;
  WelchComparison result;
  result.difference = mean(second) - mean(first);
  result.standard_error = std::sqrt(v1 + v2);
  if (!(result.standard_error > 0)) {
    result.degrees_of_freedom = n1 + n2 - 2;
    result.ci = {result.difference, result.difference};
    result.p_value = result.difference == 0 ? 1.0 : 0.0;
    return result;
  }
  // Welch–Satterthwaite; a group with zero variance contributes no term.
  const double denominator = (v1 > 0 ? v1 * v1 / (n1 - 1) : 0.0) + (v2 > 0 ? v2 * v2 / (n2 - 1) : 0.0);
  result.degrees_of_freedom = (v1 + v2) * (v1 + v2) / denominator;
  const double t = student_t_quantile(1.0 - (1.0 - confidence) / 2.0, result.degrees_of_freedom);
  result.ci = {result.difference - t * result.standard_error, result.difference + t * result.standard_error};
  const boost::math::students_t distribution(result.degrees_of_freedom);
  result.p_value = 2.0 * boost::math::cdf(boost::math::complement(
                             distribution, std::abs(result.difference) / result.standard_error));
  return result;
}

}  // namespace perfduel::stats
