#pragma once

#include "util/name_table.hpp"

namespace perfduel::stats {

// Which way is better for a metric: latency and memory are `lower_is_better`, throughput is
// `higher_is_better`.
enum class Direction { lower_is_better, higher_is_better };

// Names as written in configurations, reports and history: "lower", "higher".
constexpr util::NameTable<Direction, 2> k_direction_names{
    {{Direction::lower_is_better, "lower"}, {Direction::higher_is_better, "higher"}}};

}  // namespace perfduel::stats
