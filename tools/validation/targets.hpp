// The targets table: each section's figures against the targets docs/validation.md sets.
#pragma once

#include <vector>

#include "drift.hpp"
#include "models.hpp"
#include "suites.hpp"

namespace perfduel::validation {

// What the sections found (empty for a section not run).
struct Results {
  std::vector<ModelSummary> summaries;
  std::vector<FamilyRate> family;
  std::vector<DriftAccuracy> accuracy;
  std::vector<DriftRounds> drift_rounds;
  std::vector<WideRow> wide;
  std::vector<SuiteRow> suites;
};

// Prints the targets table of `results`; whether a false-alarm target is missed beyond binomial
// noise (the exit status).
bool print_targets(const Results& results);

}  // namespace perfduel::validation
