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
#include "report/environment.hpp"
#include "report/saved_report.hpp"
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
// re-decide. Its field names are report/report_fields.hpp's; report/saved_report.hpp reads it.
nlohmann::ordered_json report_to_json(const RunSummary& summary);

// Writes `json` to `path` atomically (a temporary file renamed into place), so a reader or
// an interrupted run never sees half a report. Throws perfduel::Error naming the file.
void write_json_file(const std::filesystem::path& path, const nlohmann::ordered_json& json);

// Current time as ISO 8601 UTC, e.g. 2026-11-21T10:00:00Z.
std::string now_iso8601();

}  // namespace perfduel
