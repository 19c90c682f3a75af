#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "report_format/json_report.hpp"
#include "report_format/saved_report.hpp"

// `perfduel analyze`: a duel re-decided from the runs a report saved, without running anything.
namespace perfduel {

// A configuration file given for a re-analysis: its path and its text, whole or some of its keys.
struct GivenConfigFile {
  std::string path;
  std::string text;
};

// One setting given for a re-analysis: the configuration key `key` of the metric `metric` (empty:
// of every metric) set to `value`, as the option `option` gave it.
struct GivenSetting {
  std::string key;
  std::string metric;
  std::string value;
  std::string option;
};

// What a re-analysis decides with: the configuration and what it says of itself.
struct ReanalysisSettings {
  Config config;
  Reanalysis reanalysis;
};

// The settings of a re-analysis of `saved` (the file `report`): its configuration with
// `config_file`, when given, and then `settings` laid over it in order; the Reanalysis names
// `report`, where the settings came from (the file, then each option once), what they changed and
// the budget keys ignored. Throws perfduel::Error on a setting the configuration refuses.
ReanalysisSettings reanalysis_settings(const SavedReport& saved, const std::string& report,
                                       const std::optional<GivenConfigFile>& config_file,
                                       const std::vector<GivenSetting>& settings);

// The duel `saved` recorded, re-decided under `config` (the report's settings, or others laid
// over them, as `reanalysis` says): its runs, benchmarks, programs and explanations as saved,
// its analysis and end decided again (identical programs stay no change without a run), the
// duel's own notes kept only when no setting changed, and first among the analysis's notes one
// saying that this is a re-analysis, of which report and with which settings.
DuelOutcome reanalyze(const SavedReport& saved, const Config& config, const Reanalysis& reanalysis);

// What the reports of the re-analysis `outcome` (reanalyze) show: `saved`'s environment and
// pinning, started now, the exit code of its end and verdict by `config`. The summary points at
// `config` and `outcome`, which must outlive it.
RunSummary reanalysis_summary(const SavedReport& saved, const Config& config, const DuelOutcome& outcome,
                              Reanalysis reanalysis);

}  // namespace perfduel
