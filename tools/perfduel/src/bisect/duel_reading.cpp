#include "bisect/duel_reading.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "duel/verdict.hpp"
#include "duel/zero_readings.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

// One gated metric of the report at the cut θ (its tolerance).
struct MetricAtCut {
  std::string name;
  std::optional<double> change;
  std::optional<double> low;
  std::optional<double> high;
  double cut = 0;
  bool higher_is_better = false;
  Reading reading = Reading::unresolved;
  double worst = 0;             // how far the interval reaches to the worse side, as a worse-is-larger change
  std::string from_or_to_zero;  // a count from or to 0: "0 → 3 allocs" (no interval, certain)
};

MetricAtCut read_metric(const SavedMetric& metric) {
  MetricAtCut m;
  m.name = metric.name.value_or("?");
  m.cut = metric.tolerance.value_or(0.0);
  m.higher_is_better = metric.direction == "higher";
  m.change = metric.change;
  if (metric.ci) {
    m.low = metric.ci->lo;
    m.high = metric.ci->hi;
  }
  if (metric.read_zero) {
    // A count that read 0 on every run of one side only (SavedMetric::read_zero): certain without
    // an interval, and from 0 is worse for a lower-is-better count.
    const bool from_zero = *metric.read_zero == Side::baseline;
    const auto other = from_zero ? metric.candidate_median : metric.baseline_median;
    m.from_or_to_zero = zero_change_text(*metric.read_zero, other.value_or(0.0), metric.unit.value_or(""));
    m.reading = from_zero != m.higher_is_better ? Reading::bad : Reading::good;
    m.worst = m.reading == Reading::bad ? 1e300 : -1e300;
    return m;
  }
  if (!m.low || !m.high) {
    m.worst = -1e300;
    return m;
  }
  // Worse is up for lower-is-better metrics and down for higher-is-better ones; the cut is the
  // duel's tolerance band edge on that side, as the duel's own regression verdict uses it.
  if (m.higher_is_better) {
    m.reading = *m.high < -m.cut ? Reading::bad : *m.low >= -m.cut ? Reading::good : Reading::unresolved;
    m.worst = -*m.low;
  } else {
    m.reading = *m.low > m.cut ? Reading::bad : *m.high <= m.cut ? Reading::good : Reading::unresolved;
    m.worst = *m.high;
  }
  return m;
}

std::string interval_text(const MetricAtCut& m) {
  if (!m.from_or_to_zero.empty()) {
    return fmt::format("{} was {}", m.name, m.from_or_to_zero);
  }
  if (!m.low || !m.high) {
    // The confidence sequence gives none before 20 rounds of a value that varies.
    return fmt::format("{} had no interval yet", m.name);
  }
  return fmt::format("{} was {} [{}, {}]", m.name, m.change ? util::format_percent(*m.change) : "n/a",
                     util::format_percent(*m.low), util::format_percent(*m.high));
}

// The gated metric a reading shows: the worst bad one; when none is bad, the one nearest to being
// so (the least settled when unresolved).
const MetricAtCut* metric_to_show(const std::vector<MetricAtCut>& gated) {
  const MetricAtCut* shown = nullptr;
  for (const auto& m : gated) {
    if (m.reading == Reading::bad &&
        (shown == nullptr || shown->reading != Reading::bad || m.worst > shown->worst)) {
      shown = &m;
    }
  }
  if (shown != nullptr) {
    return shown;
  }
  for (const auto& m : gated) {
    const bool better =
        shown == nullptr || (m.reading != Reading::good && shown->reading == Reading::good) ||
        ((m.reading == Reading::good) == (shown->reading == Reading::good) && m.worst > shown->worst);
    if (better) {
      shown = &m;
    }
  }
  return shown;
}

}  // namespace

DuelReading read_duel_report(const SavedReport& report) {
  DuelReading reading;
  reading.rounds = report.measured_rounds;
  reading.seconds = report.elapsed_seconds;
  reading.end = report.end_name;
  const std::string verdict = report.verdict.value_or("");
  if (verdict == "interrupted" || reading.end == "interrupted") {
    reading.reading = Reading::interrupted;
    reading.reason = "interrupted";
    return reading;
  }
  if (verdict == "error" || report.failure) {
    reading.reading = Reading::failed;
    reading.reason = report.failure.value_or("a benchmark run failed");
    return reading;
  }
  std::vector<MetricAtCut> gated;
  for (const auto& metric : report.metrics) {
    if (metric.gated) {
      gated.push_back(read_metric(metric));
    }
  }
  if (gated.empty()) {
    reading.reading = Reading::unresolved;
    reading.reason = "the report has no gated metric";
    return reading;
  }
  const MetricAtCut* shown = metric_to_show(gated);
  const bool all_good = std::all_of(gated.begin(), gated.end(),
                                    [](const MetricAtCut& m) { return m.reading == Reading::good; });
  reading.reading = shown->reading == Reading::bad ? Reading::bad
                    : all_good                     ? Reading::good
                                                   : Reading::unresolved;
  reading.metric = shown->name;
  reading.change = shown->change;
  reading.low = shown->low;
  reading.high = shown->high;
  reading.cut = shown->cut;
  reading.higher_is_better = shown->higher_is_better;
  if (reading.reading == Reading::unresolved) {
    const auto end = duel_end_from_string(reading.end);
    std::string why = end ? end_reason(*end) : std::string();
    if (why.empty()) {
      why = "the duel ended without showing which side of the cut it is on";
    }
    reading.reason =
        fmt::format("{}; after {} {}, against the cut {}{}", why, util::counted(reading.rounds, "round"),
                    interval_text(*shown), shown->higher_is_better ? "-" : "+",
                    util::format_percent(shown->cut).substr(1));
  }
  return reading;
}

}  // namespace perfduel::bisect
