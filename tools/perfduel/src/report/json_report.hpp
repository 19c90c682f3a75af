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

// The full JSON report: verdict, per-metric results, notes, the effective config, the
// environment and every run's raw values, enough for `perfduel analyze` to re-decide.
nlohmann::ordered_json report_to_json(const RunSummary& summary);

// Writes `json` to `path` atomically (a temporary file renamed into place), so a reader or
// an interrupted run never sees half a report. Throws perfduel::Error naming the file.
void write_json_file(const std::filesystem::path& path, const nlohmann::ordered_json& json);

// A saved report read back: its configuration and runs, and the verdict it recorded.
struct SavedReport {
  Config config;
  std::vector<RunRecord> runs;
  SuiteChanges suite;  // benchmarks a pattern found on one side only
  std::string verdict;
  DuelEnd end = DuelEnd::decided;
  std::string failure;
  double elapsed_seconds = 0;
  std::uint64_t seed = 0;
  Environment environment;  // of the machine the runs were made on
  Pinning pinning;
  ProgramComparison programs;  // what the two sides were found to run ("programs")
  // The notes the duel made while it ran ("duel_notes", DuelOutcome::notes), as key notes.
  std::vector<Note> duel_notes;
};

// The JSON of the report file `path` (written by `compare --json`), the one reader behind
// `analyze`, `record` and `summary`. Throws perfduel::Error naming `path` when it is unreadable
// or not JSON.
nlohmann::ordered_json read_report_json(const std::filesystem::path& path);

// The configuration, runs and verdict of the report `json`; `origin` names it in messages.
// Throws perfduel::Error on a missing section, an unknown "end" or "side", or a malformed run.
SavedReport report_from_json(const nlohmann::ordered_json& json, const std::string& origin);

// read_report_json, then report_from_json.
SavedReport load_report(const std::filesystem::path& path);

// Current time as ISO 8601 UTC, e.g. 2026-11-21T10:00:00Z.
std::string now_iso8601();

}  // namespace perfduel
