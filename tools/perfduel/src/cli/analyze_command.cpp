#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "duel/analysis.hpp"
#include "error.hpp"
#include "report/json_report.hpp"

namespace perfduel::cli {

namespace {

struct AnalyzeOptions {
  std::string report;
  ReportOutputs outputs;
};

int run_analyze(const AnalyzeOptions& options) {
  const auto saved = load_report(options.report);
  DuelOutcome outcome;
  outcome.metrics = saved.config.metrics;
  outcome.suite = saved.suite;
  outcome.runs = saved.runs;
  outcome.end = saved.end;
  outcome.failure = saved.failure;
  outcome.elapsed_seconds = saved.elapsed_seconds;
  outcome.seed = saved.seed;
  outcome.analysis = analyze(saved.config, outcome.runs, Finality::final);

  RunSummary summary;
  summary.config = &saved.config;
  summary.outcome = &outcome;
  summary.started = now_iso8601();
  summary.environment = saved.environment;
  summary.pinning = saved.pinning;
  summary.exit_code = exit_code_for(outcome.end, outcome.analysis.verdict, saved.config.on_inconclusive);
  write_outputs(summary, options.outputs);
  return to_int(summary.exit_code);
}

}  // namespace

void add_analyze_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<AnalyzeOptions>();
  auto* command = app.add_subcommand(
      "analyze", "Re-compute the verdict of a report written by compare --json, without running anything.");
  command->add_option("report", options->report, "the JSON report")->required()->check(CLI::ExistingFile);
  add_output_options(*command, options->outputs);
  command->callback([options, &exit_code] { exit_code = run_analyze(*options); });
}

}  // namespace perfduel::cli
