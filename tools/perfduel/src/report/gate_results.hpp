#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "report_format/saved_report.hpp"

// What each gate of a CI run ended with, read from the reports `ctest -L perf` left.
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

}  // namespace perfduel
