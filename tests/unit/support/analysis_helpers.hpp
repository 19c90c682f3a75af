#pragma once

// Small helpers for the tests of perfduel::analyze.

#include <algorithm>
#include <string>
#include <vector>

#include "duel/analysis.hpp"

namespace perfduel::testing {

// Measured rounds 0..n−1 of one metric.
inline std::vector<RunRecord> runs_of(const std::vector<double>& baseline,
                                      const std::vector<double>& candidate) {
  std::vector<RunRecord> runs;
  for (std::size_t round = 0; round < baseline.size(); ++round) {
    runs.push_back({static_cast<int>(round), Side::baseline, false, {baseline[round]}});
    runs.push_back({static_cast<int>(round), Side::candidate, false, {candidate[round]}});
  }
  return runs;
}

// Whether one of the analysis's notes contains `text`.
inline bool has_note(const Analysis& analysis, const std::string& text) {
  return std::any_of(analysis.notes.begin(), analysis.notes.end(),
                     [&](const Note& note) { return note.text.find(text) != std::string::npos; });
}

}  // namespace perfduel::testing
