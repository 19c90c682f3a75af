#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "config/config.hpp"
#include "stats/estimate.hpp"

// How many rounds: the rounds a budget allows, and the rounds a metric would need to settle at
// the rate so far (what futility and the report's projection judge).
namespace perfduel {

struct MetricResult;

// The whole rounds the budget of `config` allows at `seconds_per_round`: max_rounds, or fewer
// when max_seconds runs out first. Whole rounds, rounded down, since the duel stops before a
// round that would end beyond max_seconds. max_rounds when `seconds_per_round` is not a positive
// number (unknown, or rounds that took no measurable time) or max_seconds is infinite; 0 when
// max_seconds is 0. The one rule for the duel's futility check, calibration's aim and the
// report's projection.
double budget_rounds(const Config& config, double seconds_per_round);

// The measured rounds after which a metric would settle if its spread stayed as it is, from its
// interval after `rounds` rounds (log-ratio space, as stats::Estimate): an interval's width
// shrinks as 1/√n, so the width rule needs rounds × (width / ln(1 + threshold))²; a confidence
// sequence that lies off the band's edge by a gap needs its radius to shrink below it, about
// rounds × (radius / gap)² (a little optimistic: the radius shrinks slightly slower than 1/√n).
// The fewer of the two. `stopping_width` is the width rule's (ratio space, as
// MetricResult::stopping_width); `sequence` the sequence in log-ratio space, if any.
double projected_rounds(std::size_t rounds, double stopping_width, const MetricSpec& spec,
                        const std::optional<stats::Interval>& sequence);

// The width rule's part of projected_rounds: rounds × (ln(1 + stopping_width) / ln(1 + threshold))²,
// at least `rounds`; NaN without a finite width or a positive threshold.
double rounds_for_width(std::size_t rounds, double stopping_width, double threshold);

// The fewest projected rounds of the gated metrics of `metrics` still open; NaN when none is
// open or one has no projection yet (Analysis::fewest_open_projected_rounds).
double fewest_open_projected_rounds(std::span<const MetricResult> metrics);

}  // namespace perfduel
