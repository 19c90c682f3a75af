#pragma once

#include <optional>
#include <string>

#include <CLI/App.hpp>

#include "stats/direction.hpp"

namespace perfduel::cli {

// --higher-is-better and --lower-is-better, of which a command line gives at most one.
struct DirectionFlags {
  bool higher_is_better = false;
  bool lower_is_better = false;
};

// The direction `flags` ask for; none when neither flag was given.
std::optional<stats::Direction> direction_of(const DirectionFlags& flags);

// Adds --db, the history database (history_location), to `command`, stored in `db`.
CLI::Option* add_database_option(CLI::App& command, std::optional<std::string>& db);

// Adds the two direction flags to `command`, stored in `flags`, with help texts `higher_help`
// and `lower_help`; each excludes the other.
void add_direction_flags(CLI::App& command, DirectionFlags& flags, const std::string& higher_help,
                         const std::string& lower_help);

}  // namespace perfduel::cli
