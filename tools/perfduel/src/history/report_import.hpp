#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "history/store.hpp"
#include "report_format/saved_report.hpp"
#include "util/expected.hpp"

namespace perfduel::history {

// The idempotency key of `report`: "report-" and the FNV-1a hash of its JSON text. A report
// holds its start time, seed and every raw sample, so two runs never share a key, while
// recording the same report file again (a retried CI job) finds the first record.
std::string report_run_key(const SavedReport& report);

// A 12-hex-digit hash of the report's gate configuration (SavedReport::gate_settings: metrics,
// thresholds, budget, the benchmark's file name and arguments), or none without one. Build-tree
// paths are left out, so runners with different workspaces share a hash.
std::optional<std::string> report_config_hash(const SavedReport& report);

// The parts of a `perfduel compare --json` report that history keeps: per metric the
// candidate's median (the value to trend), its raw samples (measured rounds, warm-up
// dropped), the baseline median, change, CI and verdict; the overall verdict, the
// perfduel version, the start time, the machine from "environment", the run key and the
// configuration hash. Commit and branch are left for the caller. Errors name `source`.
util::Expected<Record> record_from_report(const SavedReport& report, std::string_view source);

// Why `report` has nothing to record, or nothing when it has: a duel between identical programs
// measured nothing (its metrics have no medians), so it adds no point to any series.
std::optional<std::string> nothing_measured(const SavedReport& report);

}  // namespace perfduel::history
