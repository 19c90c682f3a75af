#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "machine/pinning.hpp"
#include "report_format/environment.hpp"

// A JSON report (`perfduel compare --json`) read back: the one reader of the report file, beside
// its one writer (report_format/json_report.hpp); both take the field names from
// report_format/report_fields.hpp. Every other reader (`analyze`, `summary`, the HTML page, `record`,
// `bisect`) reads a SavedReport.
namespace perfduel {

// The sign sequence's evidence for a regression it settled, as a report recorded it ("signs").
struct SavedSigns {
  std::size_t beyond = 0;  // rounds beyond `by_more_than`
  std::size_t rounds = 0;
  double by_more_than = 0;  // the bound, a relative change
  bool shown_instead_of_interval = false;
};

// One metric's result as a report recorded it ("metrics"); what a report does not say (an older
// one, or a value it had none of) is empty.
struct SavedMetric {
  std::optional<std::string> name;
  std::optional<std::string> unit;
  std::optional<std::string> direction;  // as written: "lower" or "higher"
  bool gated = false;
  std::optional<double> baseline_median;
  std::optional<double> candidate_median;
  std::optional<double> change;  // none without an estimate
  std::optional<stats::Interval> ci;
  std::optional<double> confidence;
  std::optional<double> threshold;
  std::optional<double> tolerance;
  std::optional<std::string> verdict;
  bool likely_regression = false;
  std::optional<std::string> settled_by;  // which rule settled it; none while open
  std::optional<SavedSigns> signs;        // when the sign sequence settled it
  std::optional<Side> read_zero;          // a count from or to 0: the side that read 0 (zero_side)
  int rounds = 0;
  std::string estimator;
  // A max_rss at or below the driver's own peak: not the programs' memory (at_driver_floor).
  bool at_driver_floor = false;
};

// A saved report read back: what it recorded of the duel's results, and its configuration and
// runs, enough for `analyze` to re-decide.
struct SavedReport {
  Config config;  // read by report_from_json_strict only
  // Each run; its values in the order of `value_names`.
  std::vector<RunRecord> runs;
  // The metric of each run value: the configuration's metrics (report_from_json_strict), or the names
  // in "metrics" (report_from_json_lenient; a value a run lacks is NaN).
  std::vector<std::string> value_names;
  SuiteChanges suite;  // benchmarks a pattern found on one side only
  std::optional<std::string> verdict;
  DuelEnd end = DuelEnd::decided;
  std::string end_name = "decided";    // "end" as written; a report before it has none
  std::optional<std::string> failure;  // "error": why the duel failed
  double elapsed_seconds = 0;
  int measured_rounds = 0;
  std::uint64_t seed = 0;
  std::string started;  // ISO 8601 UTC, as written
  std::optional<std::string> perfduel_version;
  std::vector<std::string> baseline_command;
  std::vector<std::string> candidate_command;
  Environment environment;  // of the machine the runs were made on
  Pinning pinning;
  ProgramComparison programs;  // what the two sides were found to run ("programs")
  // The notes the duel made while it ran ("duel_notes", DuelOutcome::notes), as key notes.
  std::vector<Note> duel_notes;
  std::vector<std::string> notes;  // every note of the report (duel_report_notes)
  // The changes attributed to functions ("explanations", DuelOutcome::explanations).
  std::vector<Explanation> explanations;
  double explain_seconds = 0;  // what the timed explanations' counted runs took
  std::vector<SavedMetric> metrics;
  bool has_metrics = false;  // it has a "metrics" array: written by compare --json
  // The "config" section (the YAML file's keys) dumped without where the build tree is (the
  // programs' directory, the working directory), which differs between runners: what identifies
  // the gate's settings. None without a "config" object.
  std::optional<std::string> gate_settings;
  std::string text;  // the whole report, dumped compactly: what identifies one run of a gate
};

// The JSON of the report file `path` (written by `compare --json`). Throws perfduel::Error naming
// `path` when it is unreadable or not JSON.
nlohmann::ordered_json read_report_json(const std::filesystem::path& path);

// The configuration, runs and results of the report `json`, for a re-analysis; `origin` names it
// in messages. Throws perfduel::Error on a missing section, an unknown "end" or "side", or a
// malformed run.
SavedReport report_from_json_strict(const nlohmann::ordered_json& json, const std::string& origin);

// What the report `json` recorded, leniently: a section it lacks or a value of another type is
// left empty (older reports, a report of a failed duel), its configuration is not parsed, and
// an unknown "end" is kept in `end_name` only. Never throws.
SavedReport report_from_json_lenient(const nlohmann::ordered_json& json);

// read_report_json, then report_from_json_strict.
SavedReport load_report_strict(const std::filesystem::path& path);

// read_report_json, then report_from_json_lenient.
SavedReport load_report_lenient(const std::filesystem::path& path);

// The recorded value of the metric `metric` in `run`, NaN when it has none.
double run_value(const SavedReport& report, const RunRecord& run, const std::string& metric);

}  // namespace perfduel
