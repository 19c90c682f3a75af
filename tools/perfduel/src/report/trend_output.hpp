#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "trend/history_trend.hpp"

// What `perfduel trend` prints and writes as JSON: the table of every series, its changes of
// group with the commit range and the `perfduel bisect` command of each regression.
namespace perfduel {

// The significance of the change that starts `group`: "12.3 bits" (what its cut saves in
// description length; 1 bit is odds of 2:1, 10 bits about 1000:1) and, for `segments`, its
// evidence_text; empty for the first group.
std::string significance_text(const trend::Group& group);

// A change's evidence `e` as a sheriff reads it: "p 3e-09, 4.8× the noise, held 91 runs" (the
// rank test's p-value for the whole series, the step in robust deviations of the runs near it,
// the runs the new level has held).
std::string evidence_text(const trend::ChangeEvidence& e);

// `e` as JSON: {"p_value", "step_in_noise" (null when the noise is 0), "noise", "held_runs"}.
nlohmann::json evidence_json(const trend::ChangeEvidence& e);

// "lower is better" or "higher is better" for `direction`.
std::string_view direction_text(stats::Direction direction);

// What NAME is in a bisect command of a series whose gate is not known: history keeps each
// record's configuration hash, not the name of the gate that measured it.
inline constexpr std::string_view k_unknown_gate_note =
    "NAME: the add_perf_gate whose reports were recorded; history keeps no gate names, `perfduel trend "
    "--gate NAME` writes it in";

// The command that finds the commit of a change of group: "perfduel bisect --gate GATE --good
// GOOD --bad BAD" over group_commit_range (commits cut to 10 characters), GATE the series' gate
// or, when not known, NAME (k_unknown_gate_note); nothing when the range is unknown or both
// ends are one commit.
std::optional<std::string> bisect_command(const trend::TrendSeries& series, const trend::Group& group);

// The trend report for a terminal: one line per metric (last trend, runs, trend change,
// regressions, progressions, last group), then each metric's changes of group; under a
// regression, the commit range it came in by and the `perfduel bisect` command that finds it.
std::string format_trend_report(const std::vector<trend::TrendResult>& results,
                                const trend::TrendWindows& windows);

// Groups and compliance as JSON: the one metric's object, or {"metrics": [...]} for several.
nlohmann::json trend_to_json(const std::vector<trend::TrendResult>& results,
                             const trend::TrendWindows& windows);

}  // namespace perfduel
