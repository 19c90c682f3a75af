#include "bisect/probe_config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "error.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

// The widest confidence a configuration accepts (config/keys.cpp reads "confidence" up to 99.99 %).
constexpr double k_max_confidence = 0.9999;

}  // namespace

double duel_confidence(double search_confidence, int planned_duels) {
  const double alpha = (1.0 - search_confidence) / std::max(planned_duels, 1);
  return std::min(1.0 - alpha, k_max_confidence);
}

Config probe_config(Config config, const ProbeSettings& settings, int attempt) {
  bool any_gated = false;
  for (MetricSpec& metric : config.metrics) {
    if (metric.gating != Gating::gated) {
      continue;
    }
    any_gated = true;
    const double cut = settings.cut.value_or(metric.threshold);
    if (metric.direction == Direction::higher_is_better && cut >= 1.0) {
      throw Error(fmt::format(
          "{}: {} is higher-is-better, so it cannot get worse by {} or more; expected a "
          "--threshold below 100 %",
          settings.cut ? "--threshold" : config.origin, metric.name, util::format_percent(cut).substr(1)));
    }
    metric.tolerance = cut;
  }
  if (!any_gated) {
    throw Error(
        fmt::format("{}: no metric is gated, so no duel can tell a bad commit from a good one; gate "
                    "one (gate: true)",
                    config.origin));
  }
  // A probe's duel needs a verdict only; the confirmation says where (ProbeOracle, --explain).
  config.explain = Explain::off;
  config.stopping = Stopping::anytime;
  config.on_inconclusive = InconclusivePolicy::skip;
  config.confidence = duel_confidence(settings.search_confidence, settings.planned_duels);
  if (settings.max_seconds) {
    config.max_seconds = *settings.max_seconds;
  }
  if (attempt > 0) {
    config.max_seconds *= k_more_rounds;
    config.max_rounds = static_cast<int>(config.max_rounds * k_more_rounds);
  }
  return config;
}

std::string cut_text(const Config& probe, const std::string& reference) {
  std::string text;
  for (const MetricSpec* metric : probe.gated_metrics()) {
    text += fmt::format("{}{} is {} than at {} by more than {}", text.empty() ? "" : " or ", metric->name,
                        metric->direction == Direction::higher_is_better ? "lower" : "higher", reference,
                        util::format_percent(metric->tolerance).substr(1));
  }
  return text;
}

}  // namespace perfduel::bisect
