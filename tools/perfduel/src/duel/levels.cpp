#include "duel/levels.hpp"

#include "stats/multiple.hpp"

namespace perfduel {

double per_metric_confidence(double confidence, std::size_t count, double share) {
  return stats::bonferroni_confidence(1.0 - (1.0 - confidence) * share, count);
}

bool has_confidence_sequence(Estimator estimator) {
  return estimator == Estimator::mean || estimator == Estimator::trimmed;
}

LevelPlan plan_levels(const Config& config) {
  LevelPlan plan;
  plan.confidence = config.confidence;
  plan.gated_count = config.gated_metrics().size();
  plan.hybrid = config.stopping == Stopping::hybrid;
  plan.signs = plan.hybrid && config.order == Order::random;
  plan.holm_alpha = (1.0 - config.confidence) * (plan.hybrid ? 1.0 - k_sequence_share : 1.0);
  return plan;
}

Levels levels_of(const LevelPlan& plan, const MetricSpec& spec, Estimator estimator) {
  const double confidence = plan.confidence;
  const std::size_t count = spec.gating == Gating::gated ? plan.gated_count : 1;
  const double sign_share = plan.signs && estimator != Estimator::ratio ? k_sign_share : 0.0;
  const double sign_alpha = (1.0 - confidence) * sign_share / static_cast<double>(count);
  if (!plan.hybrid || !has_confidence_sequence(estimator)) {
    return Levels{per_metric_confidence(confidence, count, 1.0 - sign_share), 0,
                  per_metric_confidence(confidence, 1, 1.0 - sign_share), 0, sign_alpha};
  }
  const double sequence_share = k_sequence_share - sign_share;
  return Levels{per_metric_confidence(confidence, count, 1.0 - k_sequence_share),
                per_metric_confidence(confidence, count, sequence_share),
                per_metric_confidence(confidence, 1, 1.0 - k_sequence_share),
                per_metric_confidence(confidence, 1, sequence_share), sign_alpha};
}

}  // namespace perfduel
