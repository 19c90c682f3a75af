#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "stats/direction.hpp"
#include "trend/change_evidence.hpp"
#include "util/expected.hpp"
#include "util/name_table.hpp"

// Minimum-description-length grouping of a series, after FD.io CSIT's `jumpavg` library
// (BitCountingStats, BitCountingGroupList, classify). A series is split into groups that
// each look like independent samples of one normal distribution; the partition with the
// fewest bits wins. The arithmetic follows the reference step by step, so the grouping is
// the reference's, including which of two equally short partitions is chosen.
namespace perfduel::trend {

// Count, population average and population standard deviation of some samples: a single
// value, a run that must stay in one group, or a whole group.
struct RunStats {
  std::int64_t size = 0;
  double avg = 0.0;
  double stdev = 0.0;
};

// Which way is better; the reference's convention is throughput, `higher_is_better`.
using stats::Direction;

// How a group's average moved against the previous group's.
enum class Change { normal, regression, progression };

constexpr util::NameTable<Change, 3> k_change_names{
    {{Change::normal, "normal"}, {Change::regression, "regression"}, {Change::progression, "progression"}}};

// "normal", "regression" or "progression" (k_change_names).
std::string_view to_string(Change change);

// Stats of `samples`, merged one by one with the reference's Welford update (so that the
// last bits agree with it, not only the first fifteen digits).
RunStats summarize(std::span<const double> samples);

// Stats of `runs` merged in order, as the reference's AvgStdevStats.for_runs.
RunStats merge_runs(std::span<const RunStats> runs);

// The description length in bits of one group with `stats`, values measured in `unit`,
// the largest value of the whole series `max_value`, and the average of the group before
// it `previous_avg` (none for the first group).
double group_bits(const RunStats& stats, double max_value, double unit, std::optional<double> previous_avg);

// One group of the partition: `start` is the index of its first run in the input, `runs`
// the number of runs in it.
struct Group {
  std::size_t start = 0;
  std::size_t runs = 0;
  RunStats stats;
  double bits = 0.0;
  Change change = Change::normal;
  // A line's slope per run, and the run (counted from `start`, fractional) where the line
  // passes through `stats.avg`; 0 for a level (every jumpavg group).
  double slope = 0.0;
  double slope_origin = 0.0;
  // The fitted value at `slope_origin` when it is not `stats.avg`: segments fits each group
  // with its outliers set aside, and reports the fit (the statistics stay the raw ones).
  std::optional<double> fit_average;
  // What the cut before this group saves, in bits, over joining it to the group before: the
  // change's significance. None for the first group.
  std::optional<double> gain_bits;
  // The change's evidence as a sheriff weighs it (change_evidence.hpp): its rank test, its
  // step against the noise near it, how long it has held. `segments` only; none for the first
  // group.
  std::optional<ChangeEvidence> evidence;
};

// The group's fitted value at its first run, at its last run, and at run `offset` of it.
double level_at(const Group& group, double offset);
double level_at_start(const Group& group);
double level_at_end(const Group& group);

// What one segment is: a level (the mean of its samples) or a line over the run index.
enum class SegmentShape { level, line };

constexpr util::NameTable<SegmentShape, 2> k_segment_shape_names{
    {{SegmentShape::level, "level"}, {SegmentShape::line, "line"}}};

// How a series is grouped: `segments`, least-squares levels or lines with a cost per cut
// (segmentation.hpp, the default), or `jumpavg`, FD.io CSIT's bit-counting model exactly.
enum class Method { segments, jumpavg };

constexpr util::NameTable<Method, 2> k_method_names{
    {{Method::segments, "segments"}, {Method::jumpavg, "jumpavg"}}};

// The winning partition.
struct Grouping {
  std::vector<Group> groups;
  Method method = Method::segments;
  SegmentShape shape = SegmentShape::level;  // segments: lines for a drifting series
  double unit = 0.0;                         // the resolution used (given, or max_value / 8191)
  double max_value = 0.0;                    // the largest sample
  double total_bits = 0.0;
};

// Choices of the caller (jumpavg): the resolution `unit` (none: the largest value with 13
// significant bits, max / 8191, as the reference) and the `direction` of the metric.
// `method` and, for `segments`, the hiding of steps smaller than `min_magnitude` (relative;
// 0 keeps all; none: the default below). `unit` applies to jumpavg only. `counted`: the
// series is known to count (its unit is a count, config/metric_units.hpp).
struct GroupingOptions {
  std::optional<double> unit;
  Direction direction = Direction::higher_is_better;
  Method method = Method::segments;
  std::optional<double> min_magnitude = std::nullopt;
  bool counted = false;
};

// The smallest step `segments` shows when no min_magnitude is given: 2 %, Perfherder's
// default alert threshold (treeherder's PERFHERDER_REGRESSION_THRESHOLD), as a measured
// series of a CI machine steps by a percent or so with no change of the code. Not for a
// counted series (`counted`, or one whose segments fit it exactly: runs of one level agree
// to the last digit): its every step is real, and all are shown.
inline constexpr double k_default_min_magnitude = 0.02;

// Groups `runs` (each summarised, e.g. by `summarize`) whose largest sample is
// `max_value`, with `options`. A series of zeros only is one group. Fails on a non-positive
// maximum otherwise, a non-finite value, an empty run or a bad unit.
util::Expected<Grouping> group_runs(std::span<const RunStats> runs, double max_value,
                                    const GroupingOptions& options);

// Groups `runs`, each a list of samples that stays in one group, with `options`.
util::Expected<Grouping> group_runs(std::span<const std::vector<double>> runs,
                                    const GroupingOptions& options);

// Groups single `values`, with `options`.
util::Expected<Grouping> group_values(std::span<const double> values, const GroupingOptions& options);

}  // namespace perfduel::trend
