#include "stats/sequential.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/descriptive.hpp"

namespace perfduel::stats {

double normal_mixture_rho2(double alpha, double optimal_rounds) {
  const double log_alpha = std::log(alpha);
  return (-2.0 * log_alpha + std::log1p(-2.0 * log_alpha)) / std::max(optimal_rounds, 1.0);
}

double normal_mixture_radius(std::size_t rounds, double alpha, double rho2) {
  if (rounds == 0) {
    return std::numeric_limits<double>::infinity();
  }
  const double t = static_cast<double>(rounds);
  const double grown = t * rho2 + 1.0;
  return std::sqrt(2.0 * grown / (t * t * rho2) * std::log(std::sqrt(grown) / alpha));
}

std::optional<ConfidenceSequenceStep> asymptotic_confidence_sequence(std::span<const double> x,
                                                                     double confidence, std::size_t burn_in,
                                                                     double optimal_rounds) {
  if (x.size() < std::max<std::size_t>(burn_in, 2)) {
    return std::nullopt;
  }
  const double alpha = 1.0 - confidence;
  ConfidenceSequenceStep step;
  step.rounds = x.size();
  step.center = mean(x);
  step.stddev = stddev(x);
  const double half =
      step.stddev * normal_mixture_radius(x.size(), alpha, normal_mixture_rho2(alpha, optimal_rounds));
  step.ci = {step.center - half, step.center + half};
  return step;
}

}  // namespace perfduel::stats
