#pragma once

#include <cstddef>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/levels.hpp"
#include "duel/metric_plan.hpp"
#include "duel/paired_rounds.hpp"

// Judging the metrics of an analysis: each on its own (through duel/settling.hpp), then the gated
// ones together under Holm's step-down and the overall verdict (duel/verdict.hpp).
namespace perfduel {

// Judges metric `m` of `config`, planned as `plan`, from its paired `series` at the levels
// `level_plan` gives it; at the end (`finality`) with each side's median and its final verdict.
// Throws perfduel::Error for a gated metric whose values have no ratio (see analyze), but for a
// count of allocations from or to 0 (MetricPlan::zero_side), which is judged without one.
MetricResult judge_metric(const Config& config, const LevelPlan& level_plan, const MetricPlan& plan,
                          const PairedSeries& series, std::size_t m, Finality finality);

// Holm's step-down over the gated metrics of `analysis` at the level `plan` gives, as the
// decision rule of `config` (Correction::holm); its notes into `analysis`.
void apply_holm(const Config& config, const LevelPlan& plan, Analysis& analysis, Finality finality);

// Marks the gated metrics of `analysis` that look like regressions (MetricResult::
// likely_regression) and counts the open ones (Analysis::open_likely_regressions).
void mark_likely_regressions(Analysis& analysis);

// The overall verdict of `analysis`'s gated metrics; `enough_rounds`: every gated metric has its
// minimum rounds; `finality`: whether the duel has ended.
void judge_overall(Analysis& analysis, bool enough_rounds, Finality finality);

}  // namespace perfduel
