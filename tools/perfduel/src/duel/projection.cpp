#include "duel/projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "duel/analysis.hpp"

namespace perfduel {

double budget_rounds(const Config& config, double seconds_per_round) {
  const auto rounds = static_cast<double>(config.max_rounds);
  if (!(seconds_per_round > 0) || !std::isfinite(seconds_per_round)) {
    return rounds;
  }
  return std::min(rounds, std::floor(config.max_seconds / seconds_per_round));
}

double projected_rounds(std::size_t rounds, double stopping_width, const MetricSpec& spec,
                        const std::optional<stats::Interval>& sequence) {
  const auto n = static_cast<double>(rounds);
  double projected = rounds_for_width(rounds, stopping_width, spec.threshold);
  if (sequence) {
    const double radius = sequence->width() / 2;
    const double center = (sequence->lo + sequence->hi) / 2;
    const double tau = std::log1p(spec.tolerance);
    // Outside the band it would settle a regression or an improvement; inside, no change.
    const double gap = std::abs(center) > tau ? std::abs(center) - tau
                       : spec.tolerance > 0   ? tau - std::abs(center)
                                              : 0;
    if (gap > 0 && radius > 0) {
      const double by_sequence = n * std::max(radius / gap, 1.0) * std::max(radius / gap, 1.0);
      projected = std::isnan(projected) ? by_sequence : std::min(projected, by_sequence);
    }
  }
  return projected;
}

double rounds_for_width(std::size_t rounds, double stopping_width, double threshold) {
  if (!std::isfinite(stopping_width) || threshold <= 0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const double shrink = std::max(std::log1p(stopping_width) / std::log1p(threshold), 1.0);
  return static_cast<double>(rounds) * shrink * shrink;
}

double fewest_open_projected_rounds(std::span<const MetricResult> metrics) {
  double fewest = std::numeric_limits<double>::quiet_NaN();
  for (const auto& result : metrics) {
    if (result.spec.gating != Gating::gated || result.settled_by != SettledBy::none) {
      continue;
    }
    if (std::isnan(result.projected_rounds)) {
      return std::numeric_limits<double>::quiet_NaN();  // one without a projection yet: no judgement
    }
    fewest = std::isnan(fewest) ? result.projected_rounds : std::min(fewest, result.projected_rounds);
  }
  return fewest;
}

}  // namespace perfduel
