#include "duel/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "duel/levels.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// "12 %": a threshold as the configuration writes it, without a sign or trailing zeros.
std::string calibration_percent(double fraction) {
  return fmt::format("{:.4g} %", 100 * fraction);
}

// "~640", or "more than a million" for a metric no budget settles.
std::string calibration_rounds(double rounds) {
  return std::isfinite(rounds) ? fmt::format("~{:.0f}", std::ceil(rounds)) : "more than a million";
}

}  // namespace

stats::SettleLevels settle_levels(const Config& config, const MetricSpec& spec, Estimator estimator) {
  const Levels levels = levels_of(plan_levels(config), spec, estimator);
  return {levels.interval, config.uncorrected_pass ? levels.pass_interval : levels.interval,
          config.min_rounds};
}

MetricCalibration calibrate_metric(const MetricSpec& spec, const stats::RoundNoise& noise,
                                   const stats::SettleLevels& levels, double target_rounds) {
  MetricCalibration result;
  result.spec = spec;
  result.noise = noise;
  result.threshold = spec.threshold;
  result.tolerance = spec.tolerance;
  result.own_entry = spec.expanded_from.empty();
  result.rounds_configured = stats::rounds_to_settle(noise, spec.threshold, spec.tolerance, levels);
  result.rounds_proposed = result.rounds_configured;
  if (!(result.rounds_configured > target_rounds)) {
    return result;  // fits (or no noise measured: nothing to propose)
  }
  const double share = spec.threshold > 0 ? spec.tolerance / spec.threshold : 0.0;
  const double needed = stats::threshold_for_rounds(noise, target_rounds, share, levels);
  result.threshold = std::max(spec.threshold, stats::readable_fraction(needed));
  result.tolerance = std::max(spec.tolerance, stats::readable_fraction(result.threshold * share));
  result.rounds_proposed = stats::rounds_to_settle(noise, result.threshold, result.tolerance, levels);
  result.loosened = result.threshold > spec.threshold;
  return result;
}

Calibration calibrate(const Config& config, std::span<const RunRecord> runs, double seconds_per_round) {
  return calibrate_ratios(config, measured_log_ratios(config, runs), seconds_per_round);
}

Calibration calibrate_ratios(const Config& config, const std::vector<std::vector<double>>& ratios,
                             double seconds_per_round) {
  Calibration calibration;
  calibration.seconds_per_round = seconds_per_round;
  calibration.budget_rounds = budget_rounds(config, seconds_per_round);
  calibration.target_rounds = std::max(std::floor(k_calibration_budget_share * calibration.budget_rounds),
                                       static_cast<double>(config.min_rounds));
  for (std::size_t m = 0; m < config.metrics.size() && m < ratios.size(); ++m) {
    const MetricSpec& spec = config.metrics[m];
    if (spec.gating != Gating::gated) {
      continue;
    }
    calibration.rounds = std::max(calibration.rounds, ratios[m].size());
    const auto noise = stats::round_noise(ratios[m], spec.estimator, config.autocorrelation_limit,
                                          static_cast<std::size_t>(config.min_batches));
    calibration.metrics.push_back(calibrate_metric(spec, noise, settle_levels(config, spec, spec.estimator),
                                                   calibration.target_rounds));
    const bool agree = std::all_of(ratios[m].begin(), ratios[m].end(), [&](double ratio) {
      return std::abs(ratio) <= std::log1p(spec.threshold / 100);
    });
    if (determinism_of(spec) == Determinism::counted && agree && !ratios[m].empty()) {
      auto& counted = calibration.metrics.back();
      counted.counted = true;
      counted.loosened = false;
      counted.threshold = spec.threshold;
      counted.tolerance = spec.tolerance;
      counted.rounds_configured = counted.rounds_proposed = k_deterministic_min_rounds;
    }
  }
  return calibration;
}

std::vector<double> paired_sample_differences(std::span<const std::vector<double>> duels) {
  std::vector<double> differences;
  for (const auto& samples : duels) {
    std::vector<double> logs;
    logs.reserve(samples.size());
    for (const double sample : samples) {
      if (sample > 0 && std::isfinite(sample)) {
        logs.push_back(std::log(sample));
      }
    }
    for (std::size_t i = 1; i < logs.size(); i += 2) {
      differences.push_back(logs[i] - logs[i - 1]);
    }
  }
  return differences;
}

std::optional<Note> budget_note(const Config& config, const Analysis& analysis,
                                std::span<const RunRecord> runs, double budget) {
  const auto ratios = measured_log_ratios(config, runs);
  const double target =
      std::max(std::floor(k_calibration_budget_share * budget), static_cast<double>(config.min_rounds));
  std::vector<std::string> over;
  for (std::size_t m = 0; m < config.metrics.size() && m < analysis.metrics.size(); ++m) {
    const MetricResult& result = analysis.metrics[m];
    if (result.spec.gating != Gating::gated || result.settled_by != SettledBy::none || !result.has_ratio) {
      continue;
    }
    const auto noise = stats::round_noise(ratios[m], result.estimator, config.autocorrelation_limit,
                                          static_cast<std::size_t>(config.min_batches));
    const MetricCalibration calibrated =
        calibrate_metric(result.spec, noise, settle_levels(config, result.spec, result.estimator), target);
    if (!(calibrated.rounds_configured > budget)) {
      continue;
    }
    over.push_back(fmt::format(
        "{} (σ {} per round) needs {} rounds at {}; {} would settle it in {}", result.spec.name,
        calibration_percent(std::expm1(noise.sigma)), calibration_rounds(calibrated.rounds_configured),
        calibration_percent(result.spec.threshold), calibration_percent(calibrated.threshold),
        calibration_rounds(calibrated.rounds_proposed)));
  }
  if (over.empty()) {
    return std::nullopt;
  }
  constexpr std::size_t k_named = 3;
  const std::size_t more = over.size() > k_named ? over.size() - k_named : 0;
  const auto named = static_cast<long long>(over.size());
  over.resize(std::min(over.size(), k_named));
  return Note{
      NoteWeight::key,
      fmt::format("noise: {} cannot settle within the budget (about {:.0f} rounds) at the rate so far: "
                  "{}{}; `perfduel calibrate` writes thresholds that fit",
                  named == 1 ? "a gated metric" : util::counted(named, "gated metric"), budget,
                  fmt::join(over, "; "), more > 0 ? fmt::format("; and {} more", more) : "")};
}

}  // namespace perfduel
