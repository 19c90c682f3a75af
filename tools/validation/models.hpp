// The per-model tables: every method on every noise model, the wide-threshold gate and the
// family-wise error with several metrics.
#pragma once

#include <cstddef>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "gates.hpp"
#include "options.hpp"

namespace perfduel::validation {

// The methods each model's table compares: perfduel's modes, then the two it replaces.
enum class Method { gate_hybrid, gate_mean, gate_median, gate_min, gate_anytime, welch_random, a_then_b };

// The short name of `method` (--methods).
std::string method_key(Method method);

// The name of `method` in the tables.
std::string method_name(Method method);

// The CSV of every default-mode A/A gate (--trace), and the lock its writers take.
extern std::mutex g_trace_mutex;
extern std::ofstream g_trace;

// What the targets table needs of one model's table.
struct ModelSummary {
  std::string name;
  double default_false_alarm = 0;
  long default_false_alarms = 0;  // count, for the binomial bound of the exit status
  long aa_gates = 0;
  double default_rounds_aa = 0;
  double welch_rounds_aa = 0;
  double width_rounds_5t = 0;
  double anytime_rounds_5t = 0;
  // Mean rounds of the default against the better of width-only and anytime, worst δ.
  double worst_rounds_ratio = 0;
  std::string worst_rounds_delta;
};

// Prints the table of model `index` of k_models for the methods `options` selects; its figures
// for the targets table.
ModelSummary validate_model(std::size_t index, const Options& options);

// A wall-time gate with a very wide threshold (1000 %), min_rounds 15, on A/A noise, analysed
// after every round as the driver does: read as a time (the metric's source) it honours
// min_rounds and keeps its error rate; read as a count (what the 3-round shortcut for counted
// metrics does with runs within T/100), three rounds decide it.
struct WideRow {
  std::string model;
  Tally as_time;
  Tally as_count;
};

// Prints the wide-threshold table for the models `options` selects; its rows.
std::vector<WideRow> validate_wide(const Options& options);

// Family-wise false alarms with four gated metrics on identical programs.
struct FamilyRate {
  std::string rule;
  long alarms = 0;
  long gates = 0;
};

// Prints the family-wise table (`options.gates` A/A gates per rule); its rows.
std::vector<FamilyRate> validate_family(const Options& options);

}  // namespace perfduel::validation
