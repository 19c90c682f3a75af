// The sub-commands of `perfduel`, one row each: the name, the help `perfduel --help` lists,
// and the function that adds the options.
#include "cli/commands.hpp"

#include <array>
#include <string>
#include <string_view>

namespace perfduel::cli {

namespace {

struct Subcommand {
  std::string_view name;
  std::string_view help;
  void (*add_options)(CLI::App& subcommand, int& exit_code);
};

// In the order of `perfduel --help`.
constexpr std::array k_subcommands{
    Subcommand{"compare",
               "Run the baseline and the candidate alternately until every gated "
               "metric's confidence interval is narrower "
               "than its threshold, then give the verdict.",
               add_compare_options},
    Subcommand{
        "analyze",
        "Re-compute the verdict of a report written by compare --json from its saved runs, without running "
        "anything; with --config or the setting options, re-decide with other statistics settings.",
        add_analyze_options},
    Subcommand{
        "calibrate",
        "Measure each gated metric's noise per round (the program against itself, or saved reports) and "
        "write per-benchmark thresholds the configured budget can settle, as a YAML fragment.",
        add_calibrate_options},
    Subcommand{
        "record",
        "Append a compare report (or plain measurements) to the history database for `perfduel trend`.",
        add_record_options},
    Subcommand{
        "trend",
        "Group a series into trends by minimum description length (FD.io CSIT jumpavg) and report changes. "
        "Exit code 1 when the last group is a regression.",
        add_trend_options},
    Subcommand{
        "doctor",
        "Check whether this machine is fit to benchmark: CPU governor, turbo, load, pinning, real-time "
        "priority, perf counters, ASLR, isolated CPUs, SMT, swap. Each finding comes with the fix to type.",
        add_doctor_options},
    Subcommand{"summary",
               "One table of every gate's verdict from the JSON reports that `ctest -L perf` wrote "
               "(add_perf_gate: <build>/perfduel/reports).",
               add_summary_options},
    Subcommand{
        "shard",
        "This CI runner's share of the perf gates, as a `ctest -R` regex: reads `ctest -N "
        "--show-only=json-v1` "
        "on stdin, gives every K-th gate (sorted by name) to runner K of N; their .baseline fixtures follow. "
        "Prints nothing for a runner without a gate.",
        add_shard_options},
    Subcommand{
        "bisect",
        "Find the first commit between --good and --bad that made the benchmark worse by more than the gated "
        "metrics' thresholds, judging each probe by a duel against --good (docs/bisect.md).",
        add_bisect_options},
};

}  // namespace

void add_subcommands(CLI::App& app, int& exit_code) {
  for (const Subcommand& row : k_subcommands) {
    row.add_options(*app.add_subcommand(std::string(row.name), std::string(row.help)), exit_code);
  }
}

}  // namespace perfduel::cli
