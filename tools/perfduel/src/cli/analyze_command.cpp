#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report_format/reanalysis.hpp"
#include "util/file.hpp"

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

// The settings of `options`, each value of a per-metric option split into METRIC=VALUE.
std::vector<GivenSetting> given_settings(const AnalyzeOptions& options) {
  std::vector<GivenSetting> given;
  for (const auto& setting : options.settings) {
    for (const auto& value : setting.values) {
      const auto equals = value.rfind('=');
      const bool one_metric = setting.per_metric && equals != std::string::npos;
      given.push_back({setting.key, one_metric ? value.substr(0, equals) : "",
                       one_metric ? value.substr(equals + 1) : value, setting.option});
    }
  }
  return given;
}

int run_analyze(const AnalyzeOptions& options) {
  check_output_paths(options.outputs);
  const auto saved = load_report_strict(options.report);
  std::optional<GivenConfigFile> config_file;
  if (!options.config_path.empty()) {
    config_file = GivenConfigFile{options.config_path, read_config_text(options.config_path)};
  }
  auto [config, reanalysis] =
      reanalysis_settings(saved, options.report, config_file, given_settings(options));
  const DuelOutcome outcome = reanalyze(saved, config, reanalysis);
  const RunSummary summary = reanalysis_summary(saved, config, outcome, std::move(reanalysis));
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
