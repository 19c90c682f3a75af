// `perfduel record`: appends a compare report, or plain measurements, to the history database.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "cli/history_options.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "history/provenance.hpp"
#include "history/recording.hpp"
#include "history/report_import.hpp"
#include "history/store.hpp"
#include "report/trend_output.hpp"
#include "report_format/saved_report.hpp"
#include "trend/history_trend.hpp"

namespace perfduel::cli {

namespace {

struct RecordOptions {
  std::optional<std::string> db;
  history::GivenProvenance provenance;
  std::optional<std::string> report;
  std::optional<std::string> metric;
  std::vector<double> values;
  std::optional<std::string> unit;
  DirectionFlags direction;
};

history::Record read_report(const SavedReport& report, const std::string& path) {
  auto record = history::record_from_report(report, path);
  if (!record) {
    throw Error(record.error());
  }
  return std::move(record.value());
}

// An alert for each metric of `record` whose gate history (this machine, this configuration,
// this branch) has a regression in its newest runs that the trend's sheriff rule confirmed
// (trend::newest_regression): one line each, empty when there is none.
std::string newest_change_alerts(history::HistoryStore& history, const history::Record& record) {
  std::string alerts;
  for (const history::Measurement& m : record.measurements) {
    const auto trended =
        trend::gate_series_trend(history, m.metric, record.branch, record.machine_id, record.config_hash);
    if (!trended) {
      continue;
    }
    const trend::Group* change = trend::newest_regression(trended->grouping);
    if (change == nullptr) {
      continue;
    }
    const auto& groups = trended->grouping.groups;
    const double before = trend::level_at_end(groups[groups.size() - 2]);
    const double after = trend::level_at_start(*change);
    alerts += fmt::format("alert: {} regressed at run {} of its history ({:.6g} -> {:.6g}, {:+.1f}%): {}\n",
                          m.metric, change->start, before, after,
                          before != 0.0 ? 100.0 * (after - before) / before : 0.0,
                          evidence_text(*change->evidence));
    if (const auto command = bisect_command(trended->series, *change)) {
      alerts += fmt::format("  {}\n", *command);
    }
  }
  return alerts;
}

int run_record(const RecordOptions& options) {
  if (options.report && options.metric) {
    throw Error("give either a report file or --metric with --value, not both");
  }
  if (!options.report && !options.metric) {
    throw Error(
        "nothing to record: give a compare report (perfduel record REPORT.json) or --metric NAME --value V");
  }
  if (options.metric && options.values.empty()) {
    throw Error(fmt::format("--metric {} needs at least one --value", *options.metric));
  }
  if (!options.metric && !options.values.empty()) {
    throw Error("--value needs --metric NAME");
  }
  if (options.provenance.time && !history::is_iso_time(*options.provenance.time)) {
    throw Error(fmt::format("--time \"{}\": write an ISO 8601 time such as 2026-11-21T10:00:00Z",
                            *options.provenance.time));
  }

  const auto report = options.report ? load_report_lenient(*options.report) : SavedReport();
  if (const auto why = history::nothing_measured(report)) {
    // Not an error: a CI job records every gate's report, and most pull requests change no program.
    fmt::print("nothing recorded from {}: {}\n", *options.report, *why);
    return 0;
  }
  history::Record record = options.report
                               ? read_report(report, *options.report)
                               : history::record_of_values(*options.metric, options.values, options.unit,
                                                           direction_of(options.direction));
  history::fill_provenance(record, options.provenance);

  auto store = history::open_history_store(history::history_location(options.db), history::CreateFile::yes);
  if (!store) {
    throw Error(store.error());
  }
  history::HistoryStore& history = *store.value();
  auto appended = history.append(record);
  if (!appended) {
    throw Error(appended.error());
  }
  if (appended->status == history::Appended::already_recorded) {
    // A retried job: the first attempt's record stands, and the job succeeds.
    fmt::print("already recorded as #{} in {} (run id {}); nothing added\n", appended->id,
               history.display_name(), record.run_key.value_or(""));
  } else {
    fmt::print("recorded #{} in {}: {} metric{}, commit {}, branch {}, {}, machine {} ({}){}\n", appended->id,
               history.display_name(), record.measurements.size(), record.measurements.size() == 1 ? "" : "s",
               record.commit ? record.commit->substr(0, 12) : "(none)", record.branch.value_or("(none)"),
               record.recorded_at, record.machine_id, record.machine,
               record.config_hash ? fmt::format(", config {}", *record.config_hash) : "");
    fmt::print("{}", newest_change_alerts(history, record));
  }
  return 0;
}

}  // namespace

void add_record_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<RecordOptions>(subcommand, exit_code, run_record);
  command->add_option("report", options->report, "A report written by `perfduel compare --json`")
      ->check(CLI::ExistingFile);
  add_database_option(*command, options->db);
  command->add_option("--commit", options->provenance.commit,
                      "Commit measured (default: git rev-parse HEAD)");
  command->add_option("--branch", options->provenance.branch,
                      "Branch measured (default: git rev-parse --abbrev-ref HEAD)");
  command->add_option("--time", options->provenance.time,
                      "When it was measured, ISO 8601 (default: the report's start, else now)");
  command->add_option("--machine", options->provenance.machine,
                      "Machine measured, as free text (default: the report's environment, else this "
                      "machine as \"host | CPU model | kernel release\")");
  command->add_option("--run-id", options->provenance.run_id,
                      "Idempotency key: a second record with the same id adds nothing (default for a "
                      "report: a hash of the report and the commit; none for --metric)");
  command->add_option("--config-hash", options->provenance.config_hash,
                      "Gate configuration the values were measured under, for `trend --config` (default "
                      "for a report: a hash of its \"config\")");
  command->add_option("--metric", options->metric,
                      "Record plain measurements of this metric instead of a report");
  command->add_option("--value", options->values, "A measurement of --metric (repeat for a run of several)");
  command->add_option("--unit", options->unit, "Unit of the --value measurements (e.g. s, bytes)");
  add_direction_flags(*command, options->direction, "For --metric: higher is better",
                      "For --metric: lower is better");
  command->footer(exit_codes_help(k_record_exit_code_table));
}

}  // namespace perfduel::cli
