// The suite table: 13 benchmarks of one binary gated as one entry (docs/validation.md, "Suites").
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "options.hpp"

namespace perfduel::validation {

// One row of the table: the noise and the change the suites are simulated under.
struct SuiteCase {
  std::string name;
  double delta = 0;   // the true change of benchmark 0
  double spread = 1;  // scale of every σ_k (1: the model in suites.cpp)
  Estimator estimator = Estimator::mean;
  bool uncorrected_pass = true;  // false: no change needs the Bonferroni interval too (before)
};

// The counts of one case's suites.
struct SuiteTally {
  long gates = 0;
  long passes = 0;             // no change or improvement
  long alarms = 0;             // any benchmark a regression or an improvement
  long benchmark0_passed = 0;  // benchmark 0 judged no change
  long within_60 = 0;          // passed within 60 rounds
  std::vector<int> rounds;
};

// One printed row: the case and its counts.
struct SuiteRow {
  SuiteCase c;
  SuiteTally tally;
};

// Prints the suite table (half of `options.detection_gates` gates per case); its rows.
std::vector<SuiteRow> validate_suites(const Options& options);

}  // namespace perfduel::validation
