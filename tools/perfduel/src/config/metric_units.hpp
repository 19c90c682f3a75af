#pragma once

namespace perfduel {

// The units perfduel gives the metrics it knows (config/parse.cpp); the reports scale values
// in these units (report/units.hpp). Any other unit is the configuration's own, shown as written.
inline constexpr const char* k_unit_seconds = "s";
inline constexpr const char* k_unit_bytes = "B";
inline constexpr const char* k_unit_bytes_per_second = "B/s";
inline constexpr const char* k_unit_items_per_second = "items/s";

}  // namespace perfduel
