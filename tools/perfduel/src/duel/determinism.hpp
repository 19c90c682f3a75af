#pragma once

#include <span>

#include "config/config.hpp"

// Whether a metric's runs are deterministic: such a metric may settle after fewer rounds than
// min_rounds (k_deterministic_min_rounds, duel/analysis.hpp).
namespace perfduel {

// What makes a metric's runs deterministic enough for k_deterministic_min_rounds.
enum class Determinism {
  counted,        // a count from the PMU or Valgrind: each side's runs within T/100 of each other
  bit_identical,  // neither a time nor counted: each side's runs identical to the bit
  never,          // a time, measured or parsed: never deterministic, however wide its threshold
};

// The determinism `metric` may claim, by its source: counted for sources counter and valgrind;
// never for wall, user and system time, a Catch2 mean, a Google Benchmark time or rate field
// (real_time, cpu_time, bytes_per_second, items_per_second) and a regex or JSON value whose unit
// is a time (s, ms, us, µs, ns, min, h); bit_identical otherwise (max RSS, a score or counter
// the program prints).
Determinism determinism_of(const MetricSpec& metric);

// Whether every value of `baseline` and, separately, of `candidate` lies within a relative span
// of `span` (max / min − 1; 0: identical to the bit), as counted instructions do; false for
// fewer than two values per side or a value that is not positive. See metric_plan.cpp for why such
// a metric may settle after fewer rounds.
bool is_deterministic(std::span<const double> baseline, std::span<const double> candidate, double span);

// Whether the runs so far make `metric` deterministic: is_deterministic within T/100 for a
// counted metric, within 0 for a bit_identical one, never for a time (determinism_of).
bool is_deterministic(const MetricSpec& metric, std::span<const double> baseline,
                      std::span<const double> candidate);

}  // namespace perfduel
