#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "trend/jumpavg.hpp"
#include "util/expected.hpp"

// The FD.io CSIT trend summary of a grouped series: where the metric is now, how long it
// has been there, how far it is from the best of the recent past, and how many step
// changes happened lately.
namespace perfduel::trend {

// The windows, counted in runs back from the last one: `long_window` (180) and
// `short_window` (14), and the metric's `direction`.
struct ComplianceOptions {
  std::size_t long_window = 180;
  std::size_t short_window = 14;
  Direction direction = Direction::higher_is_better;
};

struct Compliance {
  double last_trend = 0.0;   // the last group's value at its last run (its average for a level)
  std::size_t runs = 0;      // runs in the last group
  std::int64_t samples = 0;  // samples in the last group
  Change last_change = Change::normal;
  // The best (max, or min when lower is better) trend of the runs between `long_window`
  // and `short_window` runs ago, and the relative change of the last trend against it;
  // none while the series is shorter than the short window.
  std::optional<double> reference_trend;
  std::optional<double> trend_change;
  std::size_t regressions = 0;  // groups starting within the short window
  std::size_t progressions = 0;
};

// The trend at every run of `grouping`: its group's average, or its line's value there.
std::vector<double> trend_per_run(const Grouping& grouping);

// The change at every run of `grouping`: the group's class at its first run, normal elsewhere.
std::vector<Change> change_per_run(const Grouping& grouping);

// The summary of `grouping` with `options`. Fails when the series is empty or the short
// window is not shorter than the long one.
util::Expected<Compliance> compliance(const Grouping& grouping, const ComplianceOptions& options);

}  // namespace perfduel::trend
