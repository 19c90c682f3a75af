#include "trend/change_evidence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/rank_sum.hpp"

namespace perfduel::trend {

namespace {

// 1.4826: the median absolute deviation of a normal sample is 0.6745 of its standard deviation.
constexpr double k_mad_to_sd = 1.4826;

// |x − median(x)| of each value of `x`, appended to `deviations`.
void add_deviations(std::span<const double> x, std::vector<double>& deviations) {
  const double centre = stats::median(x);
  for (const double value : x) {
    deviations.push_back(std::fabs(value - centre));
  }
}

double ratio(double step, double base) {
  if (step == 0.0) {
    return 0.0;
  }
  return base != 0.0 ? step / base : std::numeric_limits<double>::infinity();
}

}  // namespace

ChangeEvidence weigh_change(std::span<const double> before, std::span<const double> after,
                            std::size_t places) {
  ChangeEvidence e;
  e.runs_before = before.size();
  e.held_runs = after.size();
  if (before.empty() || after.empty()) {
    return e;
  }
  const auto near_before = before.last(std::min(before.size(), k_test_window));
  const auto near_after = after.first(std::min(after.size(), k_test_window));
  const stats::RankSumTest test = stats::rank_sum_test(near_before, near_after);
  e.p_value = std::min(1.0, test.p_value * static_cast<double>(std::max<std::size_t>(places, 1)));
  const double level_before = stats::median(near_before);
  e.step = stats::median(near_after) - level_before;
  e.relative_step = std::fabs(ratio(e.step, std::fabs(level_before)));
  // The noise near the cut, each side around its own median, so the step itself is not noise.
  std::vector<double> deviations;
  add_deviations(before.last(std::min(before.size(), k_noise_window)), deviations);
  add_deviations(after.first(std::min(after.size(), k_noise_window)), deviations);
  e.noise = k_mad_to_sd * stats::median(deviations);
  e.step_in_noise = std::fabs(ratio(e.step, e.noise));
  return e;
}

bool accepted(const ChangeEvidence& evidence, double min_magnitude) {
  return evidence.p_value <= k_change_alpha && evidence.runs_before >= k_min_held_runs &&
         evidence.held_runs >= k_min_held_runs && evidence.step_in_noise >= k_min_step_in_noise &&
         evidence.relative_step >= min_magnitude;
}

}  // namespace perfduel::trend
