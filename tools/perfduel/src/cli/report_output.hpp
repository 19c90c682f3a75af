#pragma once

#include <string>

#include <CLI/App.hpp>

#include "report_format/json_report.hpp"

namespace perfduel::cli {

// Where the reports of a compare or analyze run go, besides the table on stdout.
struct ReportOutputs {
  std::string json;      // --json FILE
  std::string markdown;  // --markdown FILE
  std::string svg;       // --svg FILE
  std::string html;      // --html FILE
  bool ctest_measurements = false;
  bool verbose = false;  // --verbose: every note in the table, not only the key ones
};

// Adds --json, --markdown, --svg, --html, --ctest-measurements and --verbose to `command`, filling
// `outputs`.
void add_output_options(CLI::App& command, ReportOutputs& outputs);

// Fails (exit 2, naming the option and file) when a report file could not be written: its
// directory is missing or not writable, or it is a directory. Checked before a duel starts,
// so a typo does not cost a whole duel.
void check_output_paths(const ReportOutputs& outputs);

// Prints the table (and CTest measurements if asked) on stdout and writes the files.
void write_outputs(const RunSummary& summary, const ReportOutputs& outputs);

}  // namespace perfduel::cli
