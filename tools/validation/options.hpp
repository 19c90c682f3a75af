// The command line of perfduel_validate, as the sections read it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace perfduel::validation {

// What to run and how much of it.
struct Options {
  long gates = 10000;           // A/A gates per model and method
  long detection_gates = 2000;  // gates per model, method and δ
  std::vector<std::string> models;
  std::string perfduel;  // path of the driver for the real-process part; empty: skip
  std::string drift_program;
  double real_seconds = 150;
  int real_rounds = 4000;
  int real_repeats = 2;
  std::vector<std::string> methods;   // short names (method_key); empty: all
  std::vector<std::string> sections;  // models, family, drift, zeros, wide, suite; empty: all
  std::string trace;                  // CSV of every default-mode A/A gate, for diagnosis
};

// Whether `name` is among `chosen` (an empty list chooses everything).
inline bool selected(const std::vector<std::string>& chosen, const std::string& name) {
  return chosen.empty() || std::find(chosen.begin(), chosen.end(), name) != chosen.end();
}

}  // namespace perfduel::validation
