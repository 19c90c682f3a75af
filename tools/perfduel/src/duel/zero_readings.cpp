#include "duel/zero_readings.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "config/metric_units.hpp"
#include "stats/descriptive.hpp"
#include "util/text.hpp"

namespace perfduel {

// ---- Metrics that may read 0 at their resolution (zeros_allowed). ----
//
// The mean log-ratio has no value once a run reads 0, so such a metric is estimated as the
// ratio of the two sides' means (stats/ratio.hpp) from the first 0 on. Only then: while every
// run is positive the mean log-ratio stays, since it is the validated default, is robust to
// the occasional slow run that dominates an arithmetic mean, and is what a user who never
// sees a 0 expects. The switch is a function of the runs, so re-analysing a report repeats it.
// Both estimate the same change for a multiplicative slow-down; on identical programs both
// centre on 0.
//
// The zero rule: a metric most of whose runs read 0 is measured below its resolution; its
// mean is then known only through the few runs that happened to catch a tick, and its
// interval would say little about the program. So a gated metric is refused, ending the duel
// with exit code 2 (a configuration that cannot work: the runs are too short for the metric),
// once the runs show that more than half of one side's readings are 0: the one-sided 99.9 %
// lower bound of that side's share of zeros (stats::proportion_lower_bound) lies above ½.
// That is after 10 rounds when every run reads 0, about 20 when nine in ten do. A bound
// rather than the plain share, since the rule is looked at after every round: "more than half
// of the runs so far", looked at from round 10 to 150, refuses 8.7 % of sound metrics whose
// runs read 0 one time in four (a lucky early streak on one of two sides); the bound refuses
// none at up to 30 % zeros, 0.01 % at 40 %, 2 % at 50 %, 63 % at 60 % and all at 90 %
// (docs/validation.md, "Zero readings"). Before k_zero_rule_rounds, a metric that has read 0
// cannot settle. A report-only metric is shown without a ratio instead.

Readings readings_of(const std::vector<double>& a, const std::vector<double>& b) {
  Readings readings;
  for (const auto* side : {&a, &b}) {
    for (const double value : *side) {
      if (value == 0) {
        ++(side == &a ? readings.zeros_baseline : readings.zeros_candidate);
      } else if (value > 0 && std::isfinite(value)) {
        readings.smallest_positive = std::min(readings.smallest_positive, value);
      } else {
        readings.invalid = true;
      }
    }
  }
  return readings;
}

// Whether the zero rule refuses the metric: either side's share of zeros over `rounds` is
// above ½ at k_zero_rule_confidence.
bool mostly_zero(const Readings& readings, std::size_t rounds) {
  const std::size_t zeros = std::max(readings.zeros_baseline, readings.zeros_candidate);
  return rounds >= static_cast<std::size_t>(k_zero_rule_rounds) &&
         stats::proportion_lower_bound(zeros, rounds, k_zero_rule_confidence) > 0.5;
}

namespace {

std::string format_reading(double value, const std::string& unit) {
  if (unit == k_unit_seconds) {
    return util::format_seconds(value);
  }
  return unit.empty() ? fmt::format("{:.6g}", value) : fmt::format("{:.6g} {}", value, unit);
}

}  // namespace

// "7 of 12 baseline and 1 of 12 candidate runs read 0 s".
std::string zero_counts(const Readings& readings, std::size_t rounds, const std::string& unit) {
  return fmt::format("{} of {} baseline and {} of {} candidate runs read {}", readings.zeros_baseline, rounds,
                     readings.zeros_candidate, rounds, format_reading(0, unit));
}

// A count of allocations that read 0 on one side only has no ratio, but its change is certain:
// each run of one side made none, each run of the other made some. Only counts whose 0 is a
// count (allocations, bytes and peak heap, never read below a resolution) qualify; a time or a
// cache miss that reads 0 is a reading at its resolution, for the zero rule.
std::optional<Side> zero_side_of(const MetricSpec& metric, const Readings& readings, std::size_t rounds) {
  const bool counts_allocations =
      (metric.source == MetricSource::valgrind || metric.source == MetricSource::heap) &&
      is_allocation_event(metric.event);
  if (!counts_allocations || readings.invalid || rounds == 0) {
    return std::nullopt;
  }
  if (readings.zeros_baseline == rounds && readings.zeros_candidate == 0) {
    return Side::baseline;
  }
  if (readings.zeros_candidate == rounds && readings.zeros_baseline == 0) {
    return Side::candidate;
  }
  return std::nullopt;
}

std::string zero_change_text(Side zero_side, double other, const std::string& unit) {
  const std::string value = format_reading(other, unit);
  return zero_side == Side::baseline ? "0 → " + value : value + " → 0";
}

// What limits the resolution of `spec`, for the zero rule's message.
std::string resolution_of(const MetricSpec& spec, const Readings& readings) {
  std::string what;
  switch (spec.source) {
    case MetricSource::user_time:
    case MetricSource::system_time:
      what =
          "the kernel splits each run's CPU time between user and system time per scheduler tick (1–10 ms)";
      break;
    case MetricSource::counter:
    case MetricSource::valgrind:
    case MetricSource::heap:
      what = "a count of events: most runs cause none";
      break;
    default:
      what = "a value the program reports";
      break;
  }
  if (std::isfinite(readings.smallest_positive)) {
    what += fmt::format("; the smallest reading above 0 was {}",
                        format_reading(readings.smallest_positive, spec.unit));
  }
  return what;
}

// The first round whose value is `unusable`, for the error message.
std::string first_unusable(const PairedSeries& series, std::size_t metric, Unusable unusable) {
  for (std::size_t i = 0; i < series.rounds.size(); ++i) {
    for (const auto* side : {&series.baseline, &series.candidate}) {
      const double value = (*side)[metric][i];
      if (!(value > 0 || (value == 0 && unusable == Unusable::invalid)) || !std::isfinite(value)) {
        return fmt::format(
            "{} value {} in round {}",
            util::name_of(k_side_names, side == &series.baseline ? Side::baseline : Side::candidate), value,
            series.rounds[i] + 1);
      }
    }
  }
  return "a non-positive value";
}

}  // namespace perfduel
