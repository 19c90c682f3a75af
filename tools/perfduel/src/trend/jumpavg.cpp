#include "trend/jumpavg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/core.h>

#include "trend/bit_model.hpp"
#include "trend/segmentation.hpp"

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

double level_at(const Group& group, double offset) {
  return group.fit_average.value_or(group.stats.avg) + group.slope * (offset - group.slope_origin);
}

double level_at_start(const Group& group) {
  return level_at(group, 0.0);
}

double level_at_end(const Group& group) {
  return level_at(group, static_cast<double>(group.runs) - 1);
}

namespace {

// Marks each group against the one before it: the step from where the previous group ends
// to where this one starts (for levels, their averages). The reference compares the stored
// averages exactly: equal is normal, and the first group is always normal.
void classify_changes(std::vector<Group>& groups, Direction direction) {
  for (std::size_t i = 1; i < groups.size(); ++i) {
    const double previous = level_at_end(groups[i - 1]);
    const double now = level_at_start(groups[i]);
    if (now == previous) {
      groups[i].change = Change::normal;
    } else {
      const bool went_up = now > previous;
      const bool better = direction == Direction::higher_is_better ? went_up : !went_up;
      groups[i].change = better ? Change::progression : Change::regression;
    }
  }
}

// The bits a jumpavg partition saves by each cut: its bits with the two groups around the
// cut joined (which also moves the next group's reference average) less its bits as is.
void add_jumpavg_gains(std::vector<Group>& groups, double max_value, double unit) {
  const auto bits_of = [&](const RunStats& stats, const RunStats* before) {
    return group_bits(stats, max_value, unit, before ? std::optional<double>(before->avg) : std::nullopt);
  };
  for (std::size_t i = 1; i < groups.size(); ++i) {
    const RunStats* before = i >= 2 ? &groups[i - 2].stats : nullptr;
    const std::array<RunStats, 2> pair{groups[i - 1].stats, groups[i].stats};
    const RunStats joined = merge_runs(pair);
    double apart = groups[i - 1].bits + groups[i].bits;
    double together = bits_of(joined, before);
    if (i + 1 < groups.size()) {
      apart += groups[i + 1].bits;
      together += bits_of(groups[i + 1].stats, &joined);
    }
    groups[i].gain_bits = together - apart;
  }
}

// The `segments` grouping of `runs` (segmentation.hpp).
Grouping segment_grouping(std::span<const RunStats> runs, double max_value, const GroupingOptions& options) {
  Grouping result;
  result.method = Method::segments;
  SegmentationOptions segmentation;
  if (options.min_magnitude) {
    // A magnitude given is the whole rule: every step of at least that size is shown.
    segmentation.min_magnitude = *options.min_magnitude;
    segmentation.changes = ChangeRule::all;
  } else if (!options.counted) {
    segmentation.min_magnitude = k_default_min_magnitude;
    segmentation.exact_steps_kept = true;
  }
  result.groups = segment_runs(runs, segmentation, result.shape);
  result.max_value = max_value;
  for (const Group& group : result.groups) {
    result.total_bits += group.bits;
  }
  classify_changes(result.groups, options.direction);
  return result;
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
  if (options.min_magnitude && (!std::isfinite(*options.min_magnitude) || *options.min_magnitude < 0.0)) {
    return util::Expected<Grouping>::failure(
        fmt::format("invalid minimum magnitude {}: it must be 0 or more", *options.min_magnitude));
  }
  Grouping result;
  result.method = options.method;
  if (runs.empty()) {
    return result;
  }
  if (options.method == Method::segments) {
    return segment_grouping(runs, max_value, options);
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
    Group group;
    group.runs = runs.size();
    group.stats = merge_runs(runs);
    result.groups.push_back(group);
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
  add_jumpavg_gains(result.groups, max_value, unit);
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
