#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "duel/analysis.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report_format/json_report.hpp"
#include "util/file.hpp"
#include "util/json_file.hpp"

namespace perfduel::cli {

namespace {

// A setting from the command line: `key` as in the configuration, from option `option`.
struct SettingOption {
  const char* option;
  const char* key;
  bool per_metric;  // takes METRIC=VALUE as well as VALUE (every metric)
  std::vector<std::string> values;
};

struct AnalyzeOptions {
  std::string report;
  std::string config_path;
  std::vector<SettingOption> settings{{"--threshold", "threshold", true, {}},
                                      {"--tolerance", "tolerance", true, {}},
                                      {"--estimator", "estimator", true, {}},
                                      {"--confidence", "confidence", false, {}},
                                      {"--stopping", "stopping", false, {}}};
  ReportOutputs outputs;
};

// The text of the --config file; the message is load_config's, for the same file given to compare.
std::string read_config_text(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) {
    throw Error(fmt::format("{}: cannot read the configuration file", path));
  }
  return std::move(text).value();
}

int run_analyze(const AnalyzeOptions& options) {
  check_output_paths(options.outputs);
  auto saved = load_report(options.report);
  Config config = saved.config;
  Reanalysis reanalysis;
  reanalysis.report = options.report;
  if (!options.config_path.empty()) {
    reanalysis.ignored =
        apply_reanalysis_settings(config, read_config_text(options.config_path), options.config_path);
    reanalysis.settings.push_back(options.config_path);
  }
  for (const auto& setting : options.settings) {
    for (const auto& value : setting.values) {
      const auto equals = value.rfind('=');
      const bool one_metric = setting.per_metric && equals != std::string::npos;
      apply_reanalysis_setting(config, setting.key, one_metric ? value.substr(0, equals) : "",
                               one_metric ? value.substr(equals + 1) : value, setting.option);
    }
    if (!setting.values.empty()) {
      reanalysis.settings.emplace_back(setting.option);
    }
  }
  reanalysis.changes = settings_changes(saved.config, config);

  DuelOutcome outcome;
  outcome.metrics = config.metrics;
  outcome.suite = saved.suite;
  outcome.runs = saved.runs;
  outcome.failure = saved.failure.value_or("");
  outcome.elapsed_seconds = saved.elapsed_seconds;
  outcome.seed = saved.seed;
  outcome.programs = saved.programs;
  outcome.explanations = saved.explanations;  // what the profiles showed holds under any settings
  outcome.explain_seconds = saved.explain_seconds;
  if (reanalysis.changes.empty()) {
    // What the duel noted while it ran holds for the same settings; with others it would not.
    outcome.notes = saved.duel_notes;
  }
  // Identical programs were no change without a run, and stay so under any settings.
  outcome.analysis = saved.end == DuelEnd::identical ? analyze_identical(config)
                                                     : analyze(config, outcome.runs, Finality::final);
  outcome.end = reanalysis_end(saved.end, outcome.analysis.can_stop, outcome.analysis.stop);
  // First among the notes: what this is, so that nobody takes it for the duel's own verdict.
  std::string note = fmt::format("re-analysis of {} with {}", options.report,
                                 reanalysis.settings.empty()
                                     ? std::string("the report's settings")
                                     : fmt::format("settings from {}", fmt::join(reanalysis.settings, ", ")));
  if (!reanalysis.settings.empty()) {
    note += reanalysis.changes.empty() ? ": none differs from the report's"
                                       : fmt::format(": {}", fmt::join(reanalysis.changes, "; "));
  }
  if (!reanalysis.ignored.empty()) {
    note += fmt::format("; ignored: {} (a budget bounded the duel, not its analysis)",
                        fmt::join(reanalysis.ignored, ", "));
  }
  outcome.analysis.notes.insert(outcome.analysis.notes.begin(), Note{NoteWeight::key, note});

  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  summary.started = util::now_iso8601();
  summary.environment = saved.environment;
  summary.pinning = saved.pinning;
  summary.exit_code = exit_code_for(outcome.end, outcome.analysis.verdict, config.on_inconclusive);
  summary.reanalysis = std::move(reanalysis);
  write_outputs(summary, options.outputs);
  return to_int(summary.exit_code);
}

}  // namespace

void add_analyze_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<AnalyzeOptions>(subcommand, exit_code, run_analyze);
  command->add_option("report", options->report, "the JSON report")->required()->check(CLI::ExistingFile);
  command
      ->add_option("-c,--config", options->config_path,
                   "settings to re-decide with: a configuration file, whole or some of its keys (what made "
                   "the runs, such as commands and metric sources, cannot change)")
      ->check(CLI::ExistingFile);
  for (auto& setting : options->settings) {
    const std::string what =
        setting.per_metric
            ? fmt::format("{0} of every metric, or METRIC=VALUE the {0} of one (repeatable)", setting.key)
            : fmt::format("{}, as in the configuration", setting.key);
    command->add_option(setting.option, setting.values, what)
        ->expected(1)
        ->allow_extra_args(false)  // one value per --option; a report named after it stays positional
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  add_output_options(*command, options->outputs);
  // A report that ended in a failed run or an interruption ends so again: 3 and 130 as well.
  command->footer(fmt::format(
      "Exit codes as for compare: {}. The report's own settings apply where no option says otherwise; "
      "options apply after --config.",
      exit_code_names()));
}

}  // namespace perfduel::cli
