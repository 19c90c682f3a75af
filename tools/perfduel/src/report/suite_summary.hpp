#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report_format/saved_report.hpp"

namespace perfduel {

// One gated metric of a gate, as its JSON report recorded it.
struct GateMetricRow {
  std::string metric;
  std::string change;               // "+3.10 %", or "n/a"
  std::string interval;             // "[+1.00 %, +5.20 %]", or "n/a"
  std::string verdict;              // the metric's own verdict word
  std::optional<double> threshold;  // its interval must be narrower than this to settle
  std::optional<double> tolerance;  // changes within ±this count as no change
};

// What one gate ended with: read from its JSON report, or from the Markdown note that
// `compare --skip-if` leaves when there was nothing to compare against.
struct GateResult {
  std::string name;     // the report's file name without extension (add_perf_gate's NAME)
  std::string verdict;  // regression, improvement, no-change, inconclusive, error, interrupted, skipped
  std::string reason;   // why it ended, for inconclusive, skipped and error
  int rounds = 0;
  double seconds = 0;
  std::vector<GateMetricRow> metrics;  // gated metrics only
  // Its two sides ran identical programs: no change without a run (the reason says what was
  // compared, with the fingerprint).
  bool identical = false;
  // The JSON report it was read from; empty for a skip note (the HTML page draws the duel
  // from it).
  std::filesystem::path report;
};

// Reads the gate results in `paths`: JSON reports (through load_report_lenient), or directories
// whose *.json reports (and skip notes, *.md without a JSON beside them) are read in name
// order. Throws perfduel::Error naming the file that cannot be read, or the directory that
// holds no report.
std::vector<GateResult> read_gate_results(const std::vector<std::filesystem::path>& paths);

// The gate result of the report `report`, named `name`; `origin` names it in messages. Throws
// perfduel::Error when it is not a perfduel report (no "verdict" or no "metrics").
GateResult gate_result(const SavedReport& report, const std::string& name, const std::string& origin);

// The outcome of `gates` in a few words, the worst news first, as the pull-request comment's
// heading says it: "regression in 1 of 3 gates", "no regression in 3 gates (1 improved)".
std::string suite_headline(const std::vector<GateResult>& gates);

// One failed or undecided gate in plain words: how it ended, after how many rounds, why, and
// for an inconclusive one each gated metric still open with what it lacks (the comment's line,
// without Markdown).
std::string undecided_text(const GateResult& gate);

// Every gate as one terminal table (gate, verdict, metric, change, interval, rounds, time),
// then why the undecided ones ended and which ran identical programs, then a count per outcome.
std::string format_suite_table(const std::vector<GateResult>& gates);

// The same as GitHub-flavoured Markdown, for a job summary.
std::string format_suite_markdown(const std::vector<GateResult>& gates);

// The first line of the pull-request comment body, hidden when rendered: a CI job looks for
// it among a pull request's comments to update its own comment instead of adding one per push.
inline constexpr std::string_view k_comment_marker = "<!-- perfduel-summary -->";

// GitHub refuses a comment longer than 65,536 characters; kept a margin below it.
inline constexpr std::size_t k_comment_limit = 60000;

// A Markdown body for one pull-request (or merge-request) comment that every push updates:
// `k_comment_marker`, a heading with the outcome (and how many gates ran identical programs), the
// regressed metrics first (gate, metric,
// change, interval), then the gates that failed to run, then the undecided ones, each with why
// and what is still open, and every gate's row folded in <details>. Kept under
// `k_comment_limit` characters by leaving out the folded table when it would not fit.
// `page_url`, when given, is linked under the heading: the run's HTML page (`summary --html`).
std::string format_suite_comment(const std::vector<GateResult>& gates, std::string_view page_url = {});

// 1 when a gate regressed or failed (error, interrupted), else 77 when one is inconclusive or
// skipped, else 0: the compare exit codes of the worst gate.
int suite_exit_code(const std::vector<GateResult>& gates);

}  // namespace perfduel
