#include "duel/metric_plan.hpp"

#include <algorithm>

#include "duel/determinism.hpp"

namespace perfduel {

// The minimum rounds guard against stopping on a lucky low variance. A metric that counts,
// as instructions do, has no variance to be lucky about when each side's runs all lie within
// a hundredth of the threshold of each other: the interval is far inside the threshold
// whatever more rounds would bring, and three rounds (the fewest with a t interval of two
// degrees of freedom and a check that the first two were not a coincidence) are enough. One
// run off by more ends the shortcut for that metric: it needs the configured minimum again.
// Noise that would need the minimum rounds, σ of at least a tenth of the threshold, puts
// three runs of one side within T/100 with a chance of about 3·(0.1)²·∫φ³ ≈ 0.3 %, of both
// sides below 10⁻⁵ (and at σ ≈ T/3 below 10⁻⁷).
// That argument holds for a count, not for a time: a wide threshold (1000 %) would put noisy
// wall times "within T/100" and rest the verdict on three rounds of noise. So the shortcut is
// for counted metrics, and for values that are not times only when identical to the bit
// (determinism_of); a time honours min_rounds whatever its threshold.
// A metric that has read 0 needs k_zero_rule_rounds, so that the zero rule has judged it
// before it settles; its estimator is the ratio of means once its zeros are allowed. A count of
// allocations that read 0 on every run of one side and on none of the other (zero_side_of) is no
// reading below a resolution: it needs the rounds of a count, three when the other side's runs
// agree as a count's do.
RoundPlan plan_rounds(const Config& config, const PairedSeries& series) {
  RoundPlan plan;
  const int measured = static_cast<int>(series.rounds.size());
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const MetricSpec& spec = config.metrics[m];
    MetricPlan metric;
    metric.readings = readings_of(series.baseline[m], series.candidate[m]);
    metric.zero_side = zero_side_of(spec, metric.readings, series.rounds.size());
    const bool any_zero = metric.readings.any_zero() && !metric.zero_side;
    if (metric.zero_side) {
      const auto& counted = *metric.zero_side == Side::baseline ? series.candidate[m] : series.baseline[m];
      metric.deterministic = is_deterministic(spec, counted, counted);
    } else {
      metric.deterministic = !any_zero && is_deterministic(spec, series.baseline[m], series.candidate[m]);
    }
    metric.min_rounds = any_zero               ? std::max(config.min_rounds, k_zero_rule_rounds)
                        : metric.deterministic ? std::min(config.min_rounds, k_deterministic_min_rounds)
                                               : config.min_rounds;
    metric.estimator =
        any_zero && !metric.readings.invalid && zeros_allowed(spec) ? Estimator::ratio : spec.estimator;
    if (spec.gating == Gating::gated) {
      plan.enough_rounds &= measured >= metric.min_rounds;
    }
    plan.metrics.push_back(metric);
  }
  return plan;
}

}  // namespace perfduel
