#include "duel/paired_rounds.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "stats/changepoint.hpp"
#include "stats/descriptive.hpp"

namespace perfduel {

PairedSeries pair_rounds(std::size_t metric_count, std::span<const RunRecord> runs) {
  // Rounds are numbered densely from 0, so a vector indexed by round pairs the two sides.
  std::vector<std::pair<const RunRecord*, const RunRecord*>> by_round;
  for (const auto& run : runs) {
    if (run.warmup || run.round < 0) {
      continue;
    }
    const auto round = static_cast<std::size_t>(run.round);
    if (round >= by_round.size()) {
      by_round.resize(round + 1);
    }
    auto& slot = by_round[round];
    (run.side == Side::baseline ? slot.first : slot.second) = &run;
  }
  PairedSeries series;
  series.baseline.resize(metric_count);
  series.candidate.resize(metric_count);
  for (std::size_t round = 0; round < by_round.size(); ++round) {
    const auto& pair = by_round[round];
    if (pair.first == nullptr || pair.second == nullptr) {
      continue;  // an interrupted round has only one side
    }
    series.rounds.push_back(static_cast<int>(round));
    const int baseline_cpu = pair.first->cpu;
    const int candidate_cpu = pair.second->cpu;
    series.assignment.push_back(baseline_cpu < 0 || candidate_cpu < 0 || baseline_cpu == candidate_cpu ? 0
                                : candidate_cpu > baseline_cpu                                         ? 1
                                                                                                       : -1);
    for (std::size_t m = 0; m < metric_count; ++m) {
      series.baseline[m].push_back(pair.first->values.at(m));
      series.candidate[m].push_back(pair.second->values.at(m));
    }
  }
  return series;
}

bool all_positive(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return v > 0 && std::isfinite(v); });
}

// Drops the leading measured rounds that stats::detect_warmup finds as an unstable initial
// phase in any gated metric: in either side's log run series (a cold cache slows one
// binary) or in the log-ratios (a warm-up that does not cancel within a round). The whole
// round goes, both sides, so pairs stay pairs. Returns what it dropped.
WarmupDrop drop_detected_warmup(const Config& config, PairedSeries& series) {
  std::size_t drop = 0;
  std::string where;
  double shift = 0;
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const auto& a = series.baseline[m];
    const auto& b = series.candidate[m];
    if (config.metrics[m].gating != Gating::gated || !all_positive(a) || !all_positive(b)) {
      continue;
    }
    std::vector<double> log_a;
    std::vector<double> log_b;
    std::vector<double> d;
    for (std::size_t i = 0; i < a.size(); ++i) {
      log_a.push_back(std::log(a[i]));
      log_b.push_back(std::log(b[i]));
      d.push_back(log_b.back() - log_a.back());
    }
    const std::pair<const char*, const std::vector<double>*> candidates[] = {
        {"baseline", &log_a}, {"candidate", &log_b}, {"candidate/baseline ratio", &d}};
    for (const auto& [label, values] : candidates) {
      const stats::WarmupDetection found = stats::detect_warmup(*values);
      if (found.drop > drop) {
        drop = found.drop;
        shift = found.shift;
        where = fmt::format("{} {}", config.metrics[m].name, label);
      }
    }
  }
  if (drop == 0) {
    return {};
  }
  const auto cut = static_cast<std::ptrdiff_t>(drop);
  for (auto* sides : {&series.baseline, &series.candidate}) {
    for (auto& values : *sides) {
      values.erase(values.begin(), values.begin() + cut);
    }
  }
  series.rounds.erase(series.rounds.begin(), series.rounds.begin() + cut);
  series.assignment.erase(series.assignment.begin(), series.assignment.begin() + cut);
  return {drop, where, shift};
}

CpuCorrection correct_cpu_effect(Estimator estimator, const std::vector<double>& a,
                                 const std::vector<double>& b, const std::vector<int>& assignment) {
  CpuCorrection result{b, std::nullopt};
  if (assignment.size() != b.size() ||
      std::any_of(assignment.begin(), assignment.end(), [](int s) { return s == 0; })) {
    return result;
  }
  const auto d = stats::log_ratios(a, b);
  if (!d) {
    return result;
  }
  result.effect = stats::assignment_effect(*d, assignment);
  if (!result.effect) {
    return result;
  }
  const bool spread_based =
      estimator == Estimator::mean || estimator == Estimator::trimmed || estimator == Estimator::median;
  const auto factors = stats::assignment_correction(*d, assignment, *result.effect, spread_based);
  for (std::size_t r = 0; r < factors.size(); ++r) {
    result.candidate[r] *= factors[r];
  }
  return result;
}

std::vector<std::vector<double>> measured_log_ratios(const Config& config, std::span<const RunRecord> runs) {
  const PairedSeries series = pair_rounds(config.metrics.size(), runs);
  std::vector<std::vector<double>> ratios(config.metrics.size());
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    if (auto d = stats::log_ratios(series.baseline[m], series.candidate[m])) {
      ratios[m] = std::move(d).value();
    }
  }
  return ratios;
}

}  // namespace perfduel
