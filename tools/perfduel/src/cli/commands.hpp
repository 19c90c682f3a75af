#pragma once

#include <CLI/App.hpp>

namespace perfduel::cli {

// Adds every sub-command of `k_subcommands` (commands.cpp) to `app`, in its order. A
// sub-command's callback runs it and stores the process exit code in `exit_code`; failures
// are thrown as perfduel::Error.
void add_subcommands(CLI::App& app, int& exit_code);

// Each adds a sub-command's options to `subcommand` and binds its run (compare_command.cpp, ...).

// `compare`: the duel between a baseline and a candidate command.
void add_compare_options(CLI::App& subcommand, int& exit_code);

// `analyze`: re-computes the verdict of a saved JSON report from its runs without running
// anything, with the report's settings or with other decision settings (--config, --threshold, ...).
void add_analyze_options(CLI::App& subcommand, int& exit_code);

// `calibrate`: measures each gated metric's noise (an A/A duel, or saved reports) and proposes
// thresholds the budget can settle, as a YAML fragment.
void add_calibrate_options(CLI::App& subcommand, int& exit_code);

// `record`: appends a report or plain measurements to the history database.
void add_record_options(CLI::App& subcommand, int& exit_code);

// `trend`: groups a history series into trends and reports changes.
void add_trend_options(CLI::App& subcommand, int& exit_code);

// `doctor`: checks whether this machine is fit to benchmark.
void add_doctor_options(CLI::App& subcommand, int& exit_code);

// `summary`: one table of every gate's verdict, read from their JSON reports.
void add_summary_options(CLI::App& subcommand, int& exit_code);

// `shard`: a CI runner's share of the perf gates, as a `ctest -R` regex.
void add_shard_options(CLI::App& subcommand, int& exit_code);

// `bisect`: the first commit between a good and a bad one that made the benchmark worse, each
// probe judged by a duel.
void add_bisect_options(CLI::App& subcommand, int& exit_code);

}  // namespace perfduel::cli
