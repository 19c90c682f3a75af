#include "trend/jumpavg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/core.h>

#include "trend/bit_model.hpp"

namespace perfduel::trend {

std::string_view to_string(Change change) {
  return util::name_of(k_change_names, change);
}

RunStats merge_runs(std::span<const RunStats> runs) {
  Accumulator accumulator;
  for (const RunStats& run : runs) {
    accumulator.add(run);
  }
  return accumulator.stats();
}

RunStats summarize(std::span<const double> samples) {
  Accumulator accumulator;
  for (const double sample : samples) {
    accumulator.add(RunStats{1, sample, 0.0});
  }
  return accumulator.stats();
}

double group_bits(const RunStats& stats, double max_value, double unit, std::optional<double> previous_avg) {
  if (stats.size < 1) {
    return 0.0;
  }
  const BitModel model(max_value, unit, stats.size);
  if (!previous_avg) {
    return model.first_group_bits(stats);
  }
  const PreviousAverage previous = model.previous_average(*previous_avg);
  return model.later_group_bits(stats, previous);
}

namespace {

// Marks each group against the one before it. The reference compares the stored
// averages exactly: equal is normal, and the first group is always normal.
void classify_changes(std::vector<Group>& groups, Direction direction) {
  if (groups.empty()) {
    return;
  }
  double previous = groups.front().stats.avg;
  for (Group& group : groups) {
    const double avg = group.stats.avg;
    if (avg == previous) {
      group.change = Change::normal;
    } else {
      const bool went_up = avg > previous;
      const bool better = direction == Direction::higher_is_better ? went_up : !went_up;
      group.change = better ? Change::progression : Change::regression;
    }
    previous = avg;
  }
}

}  // namespace

util::Expected<Grouping> group_runs(std::span<const RunStats> runs, double max_value,
                                    const GroupingOptions& options) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].size < 1) {
      return util::Expected<Grouping>::failure(fmt::format("run {} has no samples", i));
    }
    if (!std::isfinite(runs[i].avg) || !std::isfinite(runs[i].stdev)) {
      return util::Expected<Grouping>::failure(fmt::format("run {} is not a finite number", i));
    }
  }
  Grouping result;
  if (runs.empty()) {
    return result;
  }
  // The reference treats a zero unit as "not given".
  const bool unit_given = options.unit && *options.unit != 0.0;
  if (unit_given && (!std::isfinite(*options.unit) || *options.unit < 0.0)) {
    return util::Expected<Grouping>::failure(
        fmt::format("invalid unit {}: it must be a positive number", *options.unit));
  }
  if (max_value == 0.0 &&
      std::ranges::all_of(runs, [](const RunStats& r) { return r.avg == 0.0 && r.stdev == 0.0; })) {
    // Zeros only (a program that spends no measurable system time): one group and no change.
    // The bit model needs a positive maximum, and there is nothing to describe.
    result.unit = unit_given ? *options.unit : 0.0;
    result.groups.push_back(Group{0, runs.size(), merge_runs(runs), 0.0, Change::normal});
    return result;
  }
  if (!std::isfinite(max_value) || max_value <= 0.0) {
    return util::Expected<Grouping>::failure(fmt::format(
        "the largest value is {}, but trend grouping needs a positive maximum (values are durations, "
        "sizes or rates)",
        max_value));
  }
  // 12 significant bits past the leading one, as the reference: max / (2^13 - 1).
  const double unit = unit_given ? *options.unit : max_value / 8191.0;
  result.unit = unit;
  result.max_value = max_value;
  result.groups = partition(runs, max_value, unit);
  for (const Group& group : result.groups) {
    result.total_bits += group.bits;
  }
  classify_changes(result.groups, options.direction);
  return result;
}

util::Expected<Grouping> group_runs(std::span<const std::vector<double>> runs,
                                    const GroupingOptions& options) {
  std::vector<RunStats> stats;
  stats.reserve(runs.size());
  // The reference starts its maximum at zero, so an all-negative series fails below.
  double max_value = 0.0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const double sample : runs[i]) {
      if (!std::isfinite(sample)) {
        return util::Expected<Grouping>::failure(fmt::format("run {} holds a value that is not finite", i));
      }
      max_value = std::max(max_value, sample);
    }
    stats.push_back(summarize(runs[i]));
  }
  return group_runs(stats, max_value, options);
}

util::Expected<Grouping> group_values(std::span<const double> values, const GroupingOptions& options) {
  std::vector<RunStats> stats;
  stats.reserve(values.size());
  double max_value = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      return util::Expected<Grouping>::failure(fmt::format("value {} is not finite", i));
    }
    max_value = std::max(max_value, values[i]);
    stats.push_back(RunStats{1, values[i], 0.0});
  }
  return group_runs(stats, max_value, options);
}

}  // namespace perfduel::trend
