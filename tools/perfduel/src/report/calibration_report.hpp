#pragma once

#include <string>

#include "duel/calibration.hpp"

// What `perfduel calibrate` prints and writes: a table of each gated metric's noise and thresholds,
// and the YAML fragment of per-benchmark overrides to paste under `metrics:`.
namespace perfduel {

// The table: per gated metric its σ per round, the configured threshold and the rounds it needs,
// the proposed threshold and tolerance and their rounds; above it, where the noise came from
// (`source`, e.g. "30 rounds of ./bench against itself") and the budget.
std::string format_calibration(const Calibration& calibration, const std::string& source);

// The fragment: one entry per loosened metric of a benchmark pattern (Google Benchmark, Catch2),
// named as the pattern names it ("sort/BM_Sort/64") and reading the same benchmark and field with
// the pattern's estimator and direction, so that it overrides the pattern for that benchmark
// (duel/metric_expansion.hpp); a comment per entry with its σ and rounds. Metrics that are not a
// pattern's (wall_time, a regex) are comments saying what to set in their own entry, and the kept
// ones a comment each. Every line is indented by two spaces, to go under `metrics:`.
std::string format_calibration_fragment(const Calibration& calibration, const std::string& source);

}  // namespace perfduel
