#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "exit_codes.hpp"
#include "machine/pinning.hpp"
#include "report_format/environment.hpp"
#include "report_format/saved_report.hpp"
#include "util/name_table.hpp"

namespace perfduel {

// What `analyze` re-decided: the report whose runs it used and the settings it used instead.
struct Reanalysis {
  std::string report;                 // the report's file
  std::vector<std::string> settings;  // where the settings came from: files and options, in order
  std::vector<std::string> changes;   // settings_changes(report's, used)
  std::vector<std::string> ignored;   // budget keys given, ignored (they only bounded the duel)
};

// Everything a compare run knows at its end, the input of every report format.
struct RunSummary {
  const Config* config = nullptr;
  const DuelOutcome* outcome = nullptr;
  Environment environment;
  Pinning pinning;      // the CPUs of the measured rounds and why
  std::string started;  // ISO 8601 UTC
  ExitCode exit_code = ExitCode::pass;
  std::optional<Reanalysis> reanalysis;  // set by `analyze`
};

// The overall verdict word of a finished duel: the analysis verdict, or "error" /
// "interrupted" when the duel did not run to its end.
std::string overall_verdict(const DuelOutcome& outcome);

// The full JSON report: verdict, per-metric results, every note (duel_report_notes), the
// effective config, the environment and every run's raw values, enough for `perfduel analyze` to
// re-decide. Its field names are report_format/report_fields.hpp's; report_format/saved_report.hpp reads it.
nlohmann::ordered_json report_to_json(const RunSummary& summary);

// Whether a table shows `result`'s sign sequence instead of its interval: a regression the
// sign sequence settled while the interval did not yet show it (interval_shows), which beside
// "regression" would read as a contradiction.
bool shows_signs(const MetricResult& result);

}  // namespace perfduel
