#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "history/store.hpp"
#include "trend/compliance.hpp"
#include "trend/jumpavg.hpp"
#include "trend/series_input.hpp"

// `perfduel trend` below its command line: the history's points (or a series file) made into
// the series to trend (by metric, machine, gate configuration and, for the dashboard, branch),
// each grouped into trends and summarised. The command parses options into a TrendRequest,
// the report/ files present the TrendResults.
namespace perfduel::trend {

// One series to trend, with what is known of each run (commit, time).
struct TrendSeries {
  std::string name;
  // The gate configuration hash when the metric's records came under several and this series
  // is one of them (`perfduel trend` trends each apart).
  std::optional<std::string> config;
  std::optional<std::string> unit;
  stats::Direction direction = stats::Direction::lower_is_better;
  std::string direction_source;  // why this direction
  Series runs;
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
  // The add_perf_gate that measured the series, when the user named it (`trend --gate`):
  // history keeps each record's configuration hash, not its gate's name.
  std::optional<std::string> gate;
};

// A series with its grouping and the compliance summary of its last group.
struct TrendResult {
  TrendSeries series;
  Grouping grouping;
  Compliance compliance;
};

// The windows, in runs, of the trend change and the anomaly counts.
struct TrendWindows {
  std::size_t long_window = 180;
  std::size_t short_window = 14;
};

// Whether the series of one metric are split by branch and machine (the dashboard's filters
// choose among them) or trended across them.
enum class SplitByPlace { no, yes };

// What to trend: the history at `database` (or the series file `input`), with the filters and
// choices of `perfduel trend`'s options.
struct TrendRequest {
  std::string database;                       // history location (history_location()), without `input`
  std::optional<std::string> input;           // a series file instead of the history
  std::vector<std::string> metrics;           // empty: every recorded metric
  std::optional<std::string> branch;          // only records of this branch
  std::optional<std::string> machine;         // id (or a prefix of it), or "this"
  std::optional<std::string> config;          // configuration hash (or a prefix of it)
  std::optional<std::string> gate;            // the gate that measured the records, for bisect commands
  std::optional<stats::Direction> direction;  // given by the user, else recorded, else lower
  bool samples = false;                       // each record's samples as a run instead of its median
  SplitByPlace split = SplitByPlace::no;
};

// The series of a request, where they came from, and what the user should know of them.
struct CollectedSeries {
  std::vector<TrendSeries> series;
  std::string source;  // the history's display name, or the input file
  // Notes on mixed series, one per text with the metrics it is about: "max_rss, wall_time were
  // measured on several machines: ...".
  std::vector<std::string> notes;
};

// The series `request` asks for. Throws perfduel::Error naming the database (or file) when a
// metric, machine or configuration has no records, or the history cannot be read.
CollectedSeries collect_series(const TrendRequest& request);

// Groups `series` with `grouping` (its direction each series' own) and summarises its last
// group over `windows`, every series apart, one per CPU at a time. Throws perfduel::Error
// naming the series when one is empty or cannot be grouped.
std::vector<TrendResult> analyse_series(std::vector<TrendSeries> series, const GroupingOptions& grouping,
                                        const TrendWindows& windows);

// The series' name as shown: the metric, and "@config" when it is one configuration of several.
std::string series_title(const TrendSeries& series);

// The commits between the last run of the group before `group` and the first run of `group`
// (good, bad): where a change of group came in, for `perfduel bisect`. Nothing when the runs
// have no commits or `group` is the first.
std::optional<std::pair<std::string, std::string>> group_commit_range(const TrendSeries& series,
                                                                      const Group& group);

// How many records after a change is confirmed (its new level held k_min_held_runs runs)
// `perfduel record` alerts on it: a record that moves the cut by a run or two still alerts, and
// an old change does not alert again.
inline constexpr std::size_t k_alert_runs = k_min_held_runs;

// The change in the newest runs of `grouping`, for `perfduel record`'s alert: its last group
// when that is a regression with evidence (a `segments` change the sheriff rule kept) that has
// held at least k_min_held_runs and fewer than k_min_held_runs + k_alert_runs runs. Nothing
// otherwise.
const Group* newest_regression(const Grouping& grouping);

// The series of `metric` in `store` measured on `machine_id` under `config_hash` (the gate that
// was just recorded), trended with the default options; nothing when it has no records.
// Throws perfduel::Error when the history cannot be read or the series cannot be grouped.
std::optional<TrendResult> gate_series_trend(history::HistoryStore& store, const std::string& metric,
                                             const std::optional<std::string>& branch,
                                             const std::string& machine_id,
                                             const std::optional<std::string>& config_hash);

}  // namespace perfduel::trend
