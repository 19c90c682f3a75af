#pragma once

#include <string_view>

namespace perfduel {

// The units perfduel gives the metrics it knows (config/parse.cpp); the reports scale values
// in these units (report/units.hpp). Any other unit is the configuration's own, shown as written.
inline constexpr const char* k_unit_seconds = "s";
inline constexpr const char* k_unit_bytes = "B";
inline constexpr const char* k_unit_bytes_per_second = "B/s";
inline constexpr const char* k_unit_items_per_second = "items/s";
// A benchmark's instructions or cycles per iteration as Valgrind counts them: deterministic.
inline constexpr const char* k_unit_instructions_per_iteration = "insn/iter";
inline constexpr const char* k_unit_cycles_per_iteration = "cycles/iter";
// A benchmark's heap allocations and the bytes they asked for per iteration: deterministic.
inline constexpr const char* k_unit_allocations_per_iteration = "allocs/iter";
inline constexpr const char* k_unit_bytes_per_iteration = "B/iter";
// A whole run's heap allocations (source heap): deterministic where the program is.
inline constexpr const char* k_unit_allocations = "allocs";

// Whether `unit` is one perfduel gives a counted metric, whose every step is real however
// small (trend/history_trend.cpp shows all of them by default).
constexpr bool is_count_unit(std::string_view unit) {
  return unit == k_unit_instructions_per_iteration || unit == k_unit_cycles_per_iteration ||
         unit == k_unit_allocations_per_iteration || unit == k_unit_bytes_per_iteration ||
         unit == k_unit_allocations;
}

// The metric that reads the program's code and data from its file (MetricSource::binary_size):
// named in the configuration, it is there; unnamed, it is not measured.
inline constexpr const char* k_binary_size_metric = "binary_size";

}  // namespace perfduel
