#include "report/labels.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "duel/zero_readings.hpp"
#include "report_format/json_report.hpp"
#include "stats/estimator.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// The estimators of `analysis`'s metrics, each once, in configuration order.
std::vector<Estimator> estimators_in_use(const Analysis& analysis) {
  std::vector<Estimator> estimators;
  for (const auto& result : analysis.metrics) {
    if (std::find(estimators.begin(), estimators.end(), result.estimator) == estimators.end()) {
      estimators.push_back(result.estimator);
    }
  }
  return estimators;
}

// How each estimator computes the change and its interval, for the table's legend.
constexpr util::NameTable<Estimator, 5> k_estimator_sentences{
    {{Estimator::mean,
      "candidate / baseline − 1 from the geometric mean of each round's ratio (estimator mean), with its "
      "confidence interval"},
     {Estimator::median,
      "candidate / baseline − 1 from the median of each round's ratio (estimator median), with its sign-test "
      "interval"},
     {Estimator::min,
      "candidate / baseline − 1 from each side's fastest runs per batch of rounds (estimator min), with its "
      "interval across batches"},
     {Estimator::ratio,
      "candidate / baseline − 1 from the ratio of the two sides' means (estimator ratio, taken when a metric "
      "reads 0), with its delta-method interval"},
     {Estimator::trimmed,
      "candidate / baseline − 1 from the 20 % trimmed mean of each round's log-ratio (estimator trimmed), "
      "with "
      "Yuen's interval"}}};

// How each estimator computes the change, for a plot's subtitle (estimator_phrase).
constexpr util::NameTable<Estimator, 5> k_estimator_phrases{
    {{Estimator::mean, "mean of paired log-ratios"},
     {Estimator::median, "median of paired ratios"},
     {Estimator::min, "ratio of the best runs"},
     {Estimator::ratio, "ratio of means"},
     {Estimator::trimmed, "trimmed mean of paired log-ratios"}}};

// The names of `analysis`'s metrics that use `estimator`: the first three and a count.
std::string metrics_of(const Analysis& analysis, Estimator estimator) {
  std::vector<std::string> names;
  for (const auto& result : analysis.metrics) {
    if (result.estimator == estimator) {
      names.push_back(result.spec.name);
    }
  }
  return util::first_names(names);
}

// "95 %", or "99.64–99.68 %" when the metrics' levels differ (the ratio estimator keeps all of
// α for its interval, the others share it with the confidence sequence).
std::string levels_text(std::vector<double> levels) {
  std::sort(levels.begin(), levels.end());
  // Four significant digits, more where they would round a level such as 99.9995 % up to 100.
  const auto level = [](double confidence) {
    return fmt::format("{:.{}g}", 100 * confidence, confidence > 0.9999 && confidence < 1 ? 7 : 4);
  };
  const std::string low = level(levels.front());
  const std::string high = level(levels.back());
  return low == high ? low + " %" : fmt::format("{}–{} %", low, high);
}

// The intervals' confidence levels, for the legend: the level of an interval is part of what
// its numbers mean, so it is never a detail. Each interval is listed at the level of what it
// shows: the width rule's interval, the confidence sequence that settled a metric (its own,
// smaller share of α), the interval inside the band at the uncorrected level, or, for a
// regression whose column shows rounds instead, the sign sequence's one-sided level.
std::string interval_levels(const Analysis& analysis, double family_confidence) {
  std::vector<double> gated;
  std::vector<double> by_sequence;  // gated, settled by the confidence sequence, which they show
  std::vector<double> inside_band;  // gated, shown inside their band at the uncorrected level
  std::vector<double> report_only;
  std::vector<double> signs_alphas;  // regressions that show their sign sequence's rounds
  for (const auto& result : analysis.metrics) {
    if (shows_signs(result)) {
      signs_alphas.push_back(result.signs_alpha);
      continue;
    }
    if (result.estimate.status != stats::EstimateStatus::ok || !result.has_ratio) {
      continue;
    }
    if (result.spec.gating != Gating::gated) {
      report_only.push_back(result.confidence);
    } else if (result.equivalence) {
      inside_band.push_back(result.confidence);
    } else {
      (result.settled_by == SettledBy::sequence ? by_sequence : gated).push_back(result.confidence);
    }
  }
  const std::size_t gated_count =
      gated.size() + by_sequence.size() + inside_band.size() + signs_alphas.size();
  std::vector<std::string> parts;
  if (!gated.empty()) {
    std::string text = fmt::format("{} confidence for each gated metric", levels_text(gated));
    if (gated_count > 1) {
      text +=
          fmt::format(" (Bonferroni over {}: family-wise {:.4g} %)", gated_count, 100 * family_confidence);
    }
    parts.push_back(std::move(text));
  }
  if (!by_sequence.empty()) {
    parts.push_back(fmt::format(
        "{} for {} settled by {} confidence sequence, shown as the interval (valid however often it was "
        "looked at)",
        levels_text(by_sequence),
        by_sequence.size() == 1 ? std::string("the one") : fmt::format("the {}", by_sequence.size()),
        by_sequence.size() == 1 ? "its" : "their"));
  }
  if (!inside_band.empty()) {
    parts.push_back(fmt::format("{} for the {} shown inside their band (no change needs no correction)",
                                levels_text(inside_band), inside_band.size()));
  }
  if (!report_only.empty()) {
    parts.push_back(fmt::format("{} for the report-only ones", levels_text(report_only)));
  }
  if (!signs_alphas.empty()) {
    std::sort(signs_alphas.begin(), signs_alphas.end());
    parts.push_back(fmt::format(
        "a regression its sign sequence showed before its interval did shows its rounds beyond the threshold "
        "(a one-sided test at α = {:.3g} %, valid at any round)",
        100 * signs_alphas.back()));
  }
  if (parts.empty()) {
    return "";
  }
  return fmt::format("interval: {}", fmt::join(parts, "; "));
}

}  // namespace

std::string change_header(const Analysis& analysis) {
  std::string names;
  for (const Estimator estimator : estimators_in_use(analysis)) {
    names +=
        fmt::format("{}{}", names.empty() ? "" : ", ", util::name_of(stats::k_estimator_names, estimator));
  }
  return names.empty() ? "change" : fmt::format("change ({})", names);
}

std::vector<std::string> column_legend(const Analysis& analysis, double family_confidence) {
  std::vector<std::string> lines{"baseline, candidate: the median of each side's measured runs"};
  constexpr std::string_view k_paired = "; rounds are paired, so it need not equal the ratio of the medians";
  const auto estimators = estimators_in_use(analysis);
  if (estimators.size() == 1) {
    lines.push_back(fmt::format("change, interval: {}{}",
                                util::name_of(k_estimator_sentences, estimators.front()), k_paired));
  } else if (estimators.size() > 1) {
    // One line for all the estimators in use: each named once, with the metrics it estimates.
    std::vector<std::string> parts;
    parts.reserve(estimators.size());
    for (const Estimator estimator : estimators) {
      parts.push_back(
          fmt::format("the {} (estimator {}) for {}", util::name_of(k_estimator_phrases, estimator),
                      util::name_of(stats::k_estimator_names, estimator), metrics_of(analysis, estimator)));
    }
    lines.push_back(fmt::format("change, interval: candidate / baseline − 1 with its interval, from {}{}",
                                fmt::join(parts, "; "), k_paired));
  }
  if (auto levels = interval_levels(analysis, family_confidence); !levels.empty()) {
    lines.push_back(std::move(levels));
  }
  return lines;
}

std::string verdict_label(const MetricResult& result) {
  auto text = result.has_ratio || result.zero_side ? to_string(result.verdict) : std::string("n/a");
  // Open, but worse than its threshold: not called inconclusive beside a settled regression.
  if (result.likely_regression && result.settled_by == SettledBy::none && is_undecided(result.verdict)) {
    text = "likely regression (open)";
  }
  if (result.spec.gating == Gating::report_only) {
    text += " (info)";
  }
  return text;
}

std::string change_label(const MetricResult& result) {
  if (result.zero_side) {
    const bool baseline_zero = *result.zero_side == Side::baseline;
    return zero_change_text(*result.zero_side,
                            baseline_zero ? result.candidate_median : result.baseline_median,
                            result.spec.unit);
  }
  if (result.estimate.status == stats::EstimateStatus::insufficient_data) {
    return "n/a";
  }
  return util::format_percent(result.change);
}

std::string change_label(const SavedMetric& metric) {
  if (metric.read_zero) {
    const bool baseline_zero = *metric.read_zero == Side::baseline;
    const auto other = baseline_zero ? metric.candidate_median : metric.baseline_median;
    return zero_change_text(*metric.read_zero, other.value_or(0.0), metric.unit.value_or(""));
  }
  return metric.change ? util::format_percent(*metric.change) : "n/a";
}

std::string signs_text(std::size_t beyond, std::size_t rounds, Direction direction, double bound) {
  const bool higher_is_worse = direction != Direction::higher_is_better;
  return fmt::format("{} of {} rounds {} {}", beyond, rounds, higher_is_worse ? ">" : "<",
                     util::format_percent(higher_is_worse ? bound : -bound));
}

std::string interval_words(const stats::Interval& ci) {
  return fmt::format("[{}, {}]", util::format_percent(ci.lo), util::format_percent(ci.hi));
}

std::string signs_test_text(std::size_t beyond, std::size_t rounds, Direction direction, double bound) {
  return "sign test: " + signs_text(beyond, rounds, direction, bound);
}

std::string estimator_phrase(Estimator estimator) {
  return std::string(util::name_of(k_estimator_phrases, estimator));
}

}  // namespace perfduel
