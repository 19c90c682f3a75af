#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/paired_rounds.hpp"

// Readings that have no log: a metric that may read 0 at its resolution (zeros_allowed), the
// zero rule that refuses one measured below it, and the messages about unusable values.
namespace perfduel {

// Readings of one metric's paired series that are not positive.
struct Readings {
  std::size_t zeros_baseline = 0;
  std::size_t zeros_candidate = 0;
  bool invalid = false;  // a negative or non-finite value: a fault whatever the metric
  double smallest_positive = std::numeric_limits<double>::infinity();
  bool any_zero() const { return zeros_baseline + zeros_candidate > 0; }
};

// The readings of one metric's paired series: the baseline's `a`, the candidate's `b`.
Readings readings_of(const std::vector<double>& a, const std::vector<double>& b);

// Whether the zero rule refuses the metric of `readings` after `rounds` paired rounds: either
// side's share of zeros is above ½ at k_zero_rule_confidence.
bool mostly_zero(const Readings& readings, std::size_t rounds);

// "7 of 12 baseline and 1 of 12 candidate runs read 0 s": the zeros of `readings` over `rounds`,
// 0 written in `unit`.
std::string zero_counts(const Readings& readings, std::size_t rounds, const std::string& unit);

// What limits the resolution of `spec`, with the smallest reading above 0 of `readings`, for the
// zero rule's message.
std::string resolution_of(const MetricSpec& spec, const Readings& readings);

// A count's change from or to nothing: `metric` (one that counts allocations, whose 0 is a count,
// not a reading below its resolution) read 0 on every one of `rounds` runs of one side and above 0
// on every run of the other. The side that read 0, or nothing.
std::optional<Side> zero_side_of(const MetricSpec& metric, const Readings& readings, std::size_t rounds);

// "0 → 3 allocs/iter" (`zero_side` baseline) or "1020 B/iter → 0" (candidate): the change of a
// count from or to nothing, `other` the median of the side that did not read 0, in `unit`.
std::string zero_change_text(Side zero_side, double other, const std::string& unit);

// Which values the error message looks for.
enum class Unusable {
  non_positive,  // zero, negative or not finite
  invalid,       // negative or not finite (zeros are allowed)
};

// The first round of `series` whose value of metric `metric` is `unusable`, for the error message.
std::string first_unusable(const PairedSeries& series, std::size_t metric, Unusable unusable);

}  // namespace perfduel
