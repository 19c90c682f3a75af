#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "trend/compliance.hpp"
#include "trend/jumpavg.hpp"
#include "trend/series_input.hpp"

namespace perfduel {

// One series `perfduel trend` analyses, with what is known of each run (commit, time).
struct TrendSeries {
  std::string name;
  // The gate configuration hash when the metric's records came under several and this series
  // is one of them (`perfduel trend` trends each apart).
  std::optional<std::string> config;
  std::optional<std::string> unit;
  stats::Direction direction = stats::Direction::lower_is_better;
  std::string direction_source;  // why this direction
  trend::Series runs;
  std::vector<std::string> labels;  // per run, may be empty
  // The commit each run measured (history records have it), for the range a regression group
  // came in by; per run, may be empty, an entry may be nothing.
  std::vector<std::optional<std::string>> commits;
  // When each run was recorded (history records have it), per run, may be empty.
  std::vector<std::string> recorded_at;
  // The branch and machine every run of the series was recorded on, when the series was split
  // by them (`trend --html` trends each branch and machine apart).
  std::optional<std::string> branch;
  std::optional<std::string> machine;
};

// A series with its grouping and the compliance summary of its last group.
// The series' name as shown: the metric, and "@config" when it is one configuration of several.
std::string series_title(const TrendSeries& series);

// The significance of the change that starts `group`: "12.3 bits" (what its cut saves in
// description length; 1 bit is odds of 2:1, 10 bits about 1000:1); empty for the first group.
std::string significance_text(const trend::Group& group);

struct TrendResult {
  TrendSeries series;
  trend::Grouping grouping;
  trend::Compliance compliance;
};

// The windows, in runs, of the trend change and the anomaly counts.
struct TrendWindows {
  std::size_t long_window = 180;
  std::size_t short_window = 14;
};

// "lower is better" or "higher is better" for `direction`.
std::string_view direction_text(stats::Direction direction);

// The commits between the last run of the group before `group` and the first run of `group`
// (good, bad): where a change of group came in, for `perfduel bisect`. Nothing when the runs
// have no commits or `group` is the first.
std::optional<std::pair<std::string, std::string>> group_commit_range(const TrendSeries& series,
                                                                      const trend::Group& group);

// The command that finds the commit of a change of group: "perfduel bisect --gate <gate>
// --good GOOD --bad BAD" over group_commit_range (commits cut to 10 characters); nothing when
// the range is unknown or both ends are one commit.
std::optional<std::string> bisect_command(const TrendSeries& series, const trend::Group& group);

// The trend report for a terminal: one line per metric (last trend, runs, trend change,
// regressions, progressions, last group), then each metric's changes of group; under a
// regression, the commit range it came in by and the `perfduel bisect` command that finds it.
std::string format_trend_report(const std::vector<TrendResult>& results, const TrendWindows& windows);

// Groups and compliance as JSON: the one metric's object, or {"metrics": [...]} for several.
nlohmann::json trend_to_json(const std::vector<TrendResult>& results, const TrendWindows& windows);

}  // namespace perfduel
