#include "trend/compliance.hpp"

#include <algorithm>

#include <fmt/core.h>

namespace perfduel::trend {

std::vector<double> trend_per_run(const Grouping& grouping) {
  std::vector<double> trend;
  for (const Group& group : grouping.groups) {
    if (group.slope == 0.0 && !group.fit_average) {
      trend.insert(trend.end(), group.runs, group.stats.avg);
      continue;
    }
    for (std::size_t run = 0; run < group.runs; ++run) {
      trend.push_back(level_at(group, static_cast<double>(run)));
    }
  }
  return trend;
}

std::vector<Change> change_per_run(const Grouping& grouping) {
  std::vector<Change> changes;
  for (const Group& group : grouping.groups) {
    changes.push_back(group.change);
    changes.insert(changes.end(), group.runs - 1, Change::normal);
  }
  return changes;
}

util::Expected<Compliance> compliance(const Grouping& grouping, const ComplianceOptions& options) {
  if (options.short_window == 0 || options.short_window >= options.long_window) {
    return util::Expected<Compliance>::failure(
        fmt::format("the short window ({}) must be at least 1 and shorter than the long window ({})",
                    options.short_window, options.long_window));
  }
  if (grouping.groups.empty()) {
    return util::Expected<Compliance>::failure("the series is empty");
  }
  Compliance result;
  const Group& last = grouping.groups.back();
  result.last_trend = level_at_end(last);
  result.runs = last.runs;
  result.samples = last.stats.size;
  result.last_change = last.change;

  const std::vector<double> trend = trend_per_run(grouping);
  const std::size_t count = trend.size();
  // As CSIT: trend[count − long, count − short), clipped at the first run.
  if (count > options.short_window) {
    const std::size_t end = count - options.short_window;
    const std::size_t begin = count > options.long_window ? count - options.long_window : 0;
    const auto window_begin = trend.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto window_end = trend.begin() + static_cast<std::ptrdiff_t>(end);
    const double best = options.direction == Direction::higher_is_better
                            ? *std::max_element(window_begin, window_end)
                            : *std::min_element(window_begin, window_end);
    result.reference_trend = best;
    if (best != 0.0) {
      result.trend_change = (result.last_trend - best) / best;
    }
  }

  const std::vector<Change> changes = change_per_run(grouping);
  const std::size_t window_start = count > options.short_window ? count - options.short_window : 0;
  for (std::size_t i = window_start; i < count; ++i) {
    result.regressions += changes[i] == Change::regression ? 1 : 0;
    result.progressions += changes[i] == Change::progression ? 1 : 0;
  }
  return result;
}

}  // namespace perfduel::trend
