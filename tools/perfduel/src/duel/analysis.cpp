#include "duel/analysis.hpp"

#include <limits>
#include <string>
#include <vector>

#include "duel/judging.hpp"
#include "duel/levels.hpp"
#include "duel/metric_plan.hpp"
#include "duel/notes.hpp"
#include "duel/paired_rounds.hpp"
#include "duel/projection.hpp"
#include "duel/zero_readings.hpp"

namespace perfduel {

Analysis analyze_identical(const Config& config) {
  Analysis analysis;
  std::vector<GatedMetric> gated;
  for (const MetricSpec& spec : config.metrics) {
    MetricResult result;
    result.spec = spec;
    result.estimator = spec.estimator;
    result.confidence = 1.0;  // identical programs: a certainty, not an estimate
    result.baseline_median = std::numeric_limits<double>::quiet_NaN();
    result.candidate_median = std::numeric_limits<double>::quiet_NaN();
    result.estimate.status = stats::EstimateStatus::ok;
    result.estimate.p_value = 1.0;
    result.width_reached = true;
    result.enough_rounds = true;
    const Settlement settlement = settle_identical();
    result.verdict = settlement.verdict;
    result.settled_by = settlement.settled_by;
    if (spec.gating == Gating::gated) {
      gated.push_back(gated_metric(settlement, true));
    }
    analysis.metrics.push_back(std::move(result));
  }
  const OverallVerdict overall = overall_verdict(gated, true, Finality::final);
  analysis.verdict = overall.verdict;
  analysis.can_stop = overall.can_stop;
  analysis.stop = DuelEnd::identical;
  return analysis;
}

Analysis analyze(const Config& config, std::span<const RunRecord> runs, Finality finality) {
  Analysis analysis;
  auto series = pair_rounds(config.metrics.size(), runs);
  analysis.measured_rounds = static_cast<int>(series.rounds.size());
  if (config.detect_warmup) {
    const WarmupDrop dropped = drop_detected_warmup(config, series);
    if (dropped.rounds > 0) {
      note_warmup(dropped.rounds, dropped.where, dropped.shift, analysis.notes);
    }
    analysis.dropped_rounds = static_cast<int>(dropped.rounds);
  }
  // Planning: the rounds and the estimator of each metric, and the levels of its intervals.
  const RoundPlan rounds = plan_rounds(config, series);
  const LevelPlan levels = plan_levels(config);

  // Judging: each metric on its own; the gated ones together under Holm and overall, below.
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    analysis.metrics.push_back(judge_metric(config, levels, rounds.metrics[m], series, m, finality));
  }

  // The notes, in the order a reader needs them: the levels, each metric as judged on its own,
  // Holm's decisions, and at the end the summary of the undecided and the duet's.
  note_levels(config, levels, analysis.notes);
  for (std::size_t m = 0; m < config.metrics.size(); ++m) {
    const MetricResult& result = analysis.metrics[m];
    const Readings& readings = rounds.metrics[m].readings;
    note_metric(config, result,
                result.has_ratio && readings.any_zero()
                    ? zero_counts(readings, series.rounds.size(), result.spec.unit)
                    : std::string(),
                finality, analysis.notes);
    note_varying_count(result.spec, series.baseline[m], series.candidate[m], analysis.notes);
  }
  if (config.correction == Correction::holm) {
    apply_holm(config, levels, analysis, finality);
  }
  analysis.fewest_open_projected_rounds = fewest_open_projected_rounds(analysis.metrics);
  if (finality == Finality::final) {
    summarize_undecided(analysis);
    note_cpu_effects(config, runs, analysis, analysis.notes);
    note_duet_interference(config, runs, analysis.notes);
  }
  judge_overall(analysis, rounds.enough_rounds, finality);
  mark_likely_regressions(analysis);
  return analysis;
}

}  // namespace perfduel
