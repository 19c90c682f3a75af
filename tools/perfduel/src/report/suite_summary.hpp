#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfduel {

// One gated metric of a gate, as its JSON report recorded it.
struct GateMetricRow {
  std::string metric;
  std::string change;    // "+3.10 %", or "n/a"
  std::string interval;  // "[+1.00 %, +5.20 %]", or "n/a"
  std::string verdict;   // the metric's own verdict word
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
};

// Reads the gate results in `paths`: JSON reports, or directories whose *.json reports (and
// skip notes, *.md without a JSON beside them) are read in name order. Throws perfduel::Error
// naming the file that cannot be read, or the directory that holds no report.
std::vector<GateResult> read_gate_results(const std::vector<std::filesystem::path>& paths);

// Every gate as one terminal table (gate, verdict, metric, change, interval, rounds, time),
// then why the undecided ones ended, then a count per outcome.
std::string format_suite_table(const std::vector<GateResult>& gates);

// The same as GitHub-flavoured Markdown, for a job summary.
std::string format_suite_markdown(const std::vector<GateResult>& gates);

// 1 when a gate regressed or failed (error, interrupted), else 77 when one is inconclusive or
// skipped, else 0: the compare exit codes of the worst gate.
int suite_exit_code(const std::vector<GateResult>& gates);

}  // namespace perfduel
