#include "duel/judging.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "duel/notes.hpp"
#include "duel/settling.hpp"
#include "duel/verdict.hpp"
#include "duel/zero_readings.hpp"
#include "error.hpp"
#include "stats/descriptive.hpp"

namespace perfduel {

namespace {

// Estimates and judges metric `m`, whose values have a ratio, from its paired series with the
// CPUs' difference taken out (order duet).
MetricResult judge_with_ratio(const Config& config, const MetricPlan& plan, const Levels& levels,
                              const PairedSeries& series, std::size_t m, bool enough_rounds) {
  const auto& a = series.baseline[m];
  // A deterministic metric's sequence may start with its minimum rounds; any other's needs
  // k_sequence_burn_in_rounds, however low min_rounds is set.
  const int burn_in_rounds =
      plan.deterministic ? plan.min_rounds : std::max(plan.min_rounds, k_sequence_burn_in_rounds);
  const auto corrected = correct_cpu_effect(plan.estimator, a, series.candidate[m], series.assignment);
  MetricResult result = analyze_metric(config, config.metrics[m], plan.estimator, levels, a,
                                       corrected.candidate, burn_in_rounds, enough_rounds);
  if (corrected.effect) {
    constexpr double k_z95 = 1.959964;
    result.cpu_effect = std::expm1(corrected.effect->effect);
    result.cpu_effect_ci = {std::expm1(corrected.effect->effect - k_z95 * corrected.effect->standard_error),
                            std::expm1(corrected.effect->effect + k_z95 * corrected.effect->standard_error)};
  }
  return result;
}

// Metric `m`, a count of allocations that read 0 on every run of one side (plan.zero_side) and
// above 0 on every run of the other: no ratio, but a certain change, a regression from 0 or an
// improvement to 0 by its direction, settled once it has its minimum rounds (a count's three
// when the other side's runs agree). "0 → 3 allocs/iter (new allocations in its loop)".
MetricResult judge_from_zero(const Config& config, const MetricPlan& plan, const Levels& levels,
                             const PairedSeries& series, std::size_t m, bool enough_rounds) {
  const MetricSpec& spec = config.metrics[m];
  const Side zero_side = *plan.zero_side;
  const auto& counted = zero_side == Side::baseline ? series.candidate[m] : series.baseline[m];
  const double median = stats::median(counted);
  MetricResult result;
  result.spec = spec;
  result.estimator = plan.estimator;
  result.confidence = levels.interval;
  result.has_ratio = false;
  result.zero_side = zero_side;
  result.baseline_median = zero_side == Side::baseline ? 0.0 : median;
  result.candidate_median = zero_side == Side::baseline ? median : 0.0;
  result.change = std::numeric_limits<double>::quiet_NaN();
  const bool in_loop = spec.framework != BenchmarkFramework::none;
  const char* what = zero_side == Side::baseline
                         ? (in_loop ? "new allocations in its loop" : "new allocations")
                         : (in_loop ? "no allocation left in its loop" : "no allocation left");
  result.estimate.note = fmt::format("{} ({})", zero_change_text(zero_side, median, spec.unit), what);
  if (enough_rounds) {
    result.verdict = verdict_of_side(spec.direction, zero_side == Side::baseline);
    result.settled_by = SettledBy::count_of_zero;
  }
  return result;
}

// Metric `m`, whose values have no ratio (a 0 beyond the zero rule, or an invalid value): a
// gated one is refused (Error, see analyze); a report-only one is shown without a ratio, since
// report-only metrics such as the system time of a short program are often exactly zero.
MetricResult judge_without_ratio(const Config& config, const MetricPlan& plan, const Levels& levels,
                                 const PairedSeries& series, std::size_t m) {
  const MetricSpec& spec = config.metrics[m];
  const bool gated = spec.gating == Gating::gated;
  const Readings& read = plan.readings;
  const std::size_t rounds = series.rounds.size();
  if (gated && !read.invalid && zeros_allowed(spec)) {
    throw Error(fmt::format("metric \"{}\": {}: most runs are below its resolution ({}). Make "
                            "each run longer (repeat the work inside the benchmark), or gate another "
                            "metric (wall_time, counted instructions)",
                            spec.name, zero_counts(read, rounds, spec.unit), resolution_of(spec, read)),
                ExitCode::usage);
  }
  const auto where = first_unusable(series, m, read.invalid ? Unusable::invalid : Unusable::non_positive);
  if (gated) {
    throw Error(
        fmt::format("metric \"{}\": {}; a ratio needs positive values (is the metric read "
                    "correctly?{})",
                    spec.name, where, read.invalid ? "" : " if 0 is a valid reading, set \"zeros: allowed\""),
        ExitCode::benchmark_failed);
  }
  MetricResult result;
  result.spec = spec;
  result.estimator = plan.estimator;
  result.confidence = levels.interval;
  result.has_ratio = false;
  result.estimate.note =
      read.invalid || !zeros_allowed(spec)
          ? fmt::format("no ratio: {}", where)
          : fmt::format("no ratio: {}, below its resolution", zero_counts(read, rounds, spec.unit));
  return result;
}

}  // namespace

// Judges metric `m` at the levels `level_plan` gives it; at the end (`finality`) with each side's
// median and its final verdict.
MetricResult judge_metric(const Config& config, const LevelPlan& level_plan, const MetricPlan& plan,
                          const PairedSeries& series, std::size_t m, Finality finality) {
  const MetricSpec& spec = config.metrics[m];
  const auto& a = series.baseline[m];
  const auto& b = series.candidate[m];
  const Levels levels = levels_of(level_plan, spec, plan.estimator);
  const bool enough_rounds = static_cast<int>(series.rounds.size()) >= plan.min_rounds;
  const bool usable_zeros = zeros_allowed(spec) && !mostly_zero(plan.readings, series.rounds.size());
  MetricResult result = plan.zero_side ? judge_from_zero(config, plan, levels, series, m, enough_rounds)
                        : !plan.readings.invalid && (!plan.readings.any_zero() || usable_zeros)
                            ? judge_with_ratio(config, plan, levels, series, m, enough_rounds)
                            : judge_without_ratio(config, plan, levels, series, m);
  result.estimate.rounds = a.size();
  result.min_rounds = plan.min_rounds;
  result.enough_rounds = enough_rounds;
  if (finality == Finality::final) {  // for the report only; sorting every round would cost O(n log n) each
    result.baseline_median = a.empty() ? 0.0 : stats::median(a);
    result.candidate_median = b.empty() ? 0.0 : stats::median(b);
    result.verdict = final_verdict(result.verdict, result.estimate.status == stats::EstimateStatus::unstable);
  }
  return result;
}

// Holm's step-down as the decision rule over the gated metrics (holm_step_down): each estimate's
// p-value tests "inside the tolerance band". The intervals stay at the Bonferroni level (Holm
// has no simultaneous intervals), so a metric can be a regression by Holm while its shown
// interval still touches the band; the note says which. Anytime mode keeps Bonferroni: the
// p-values of fixed-sample tests are not valid under continuous monitoring.
void apply_holm(const Config& config, const LevelPlan& plan, Analysis& analysis, Finality finality) {
  if (config.stopping == Stopping::anytime) {
    note_holm_declined(analysis.notes);
    return;
  }
  std::vector<HolmMetric> family;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      family.push_back({result.estimate.status == stats::EstimateStatus::ok, result.estimate.p_value,
                        Settlement{result.verdict, result.settled_by}, result.estimate.center > 0,
                        result.spec.direction, result.width_reached && result.enough_rounds});
    }
  }
  const auto decisions = holm_step_down(family, plan.holm_alpha, finality);
  std::size_t i = 0;
  for (auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      result.verdict = decisions[i++].verdict;
    }
  }
  note_holm(analysis.metrics, decisions, config.confidence, analysis.notes);
}

// Marks the gated metrics that are not regressions but look like one (MetricResult::
// likely_regression): a change worse than the tolerance (where a regression's interval must
// lie), and an interval wholly on the worse side of no change, so that an unchanged metric is
// called so with chance α/2 at most, not whenever its noise puts the estimate beyond the band.
// Counts the open metrics whose change alone is worse than the tolerance
// (Analysis::open_likely_regressions): those the duel may go on for, to settle them either way.
void mark_likely_regressions(Analysis& analysis) {
  analysis.open_likely_regressions = 0;
  for (auto& result : analysis.metrics) {
    if (result.spec.gating != Gating::gated || !result.has_ratio || result.verdict == Verdict::regression ||
        result.estimate.status != stats::EstimateStatus::ok || !std::isfinite(result.change)) {
      continue;
    }
    const bool lower_is_better = result.spec.direction == Direction::lower_is_better;
    const double ratio = 1 + result.change;
    const bool beyond_band = (lower_is_better ? ratio : 1 / ratio) - 1 > result.spec.tolerance;
    const bool worse_for_sure = lower_is_better ? result.ci.lo > 0 : result.ci.hi < 0;
    result.likely_regression = beyond_band && worse_for_sure;
    if (beyond_band && result.settled_by == SettledBy::none) {
      ++analysis.open_likely_regressions;
    }
  }
}

// The overall verdict of `analysis`'s gated metrics (overall_verdict); `enough_rounds`: every
// gated metric has its minimum rounds.
void judge_overall(Analysis& analysis, bool enough_rounds, Finality finality) {
  std::vector<GatedMetric> gated;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      gated.push_back(gated_metric({result.verdict, result.settled_by},
                                   result.estimate.status == stats::EstimateStatus::ok));
    }
  }
  const OverallVerdict overall = overall_verdict(gated, enough_rounds, finality);
  analysis.verdict = overall.verdict;
  analysis.can_stop = overall.can_stop;
  analysis.stop = overall.end;
}

}  // namespace perfduel
