#include "cli/history_options.hpp"

#include <fmt/core.h>

#include "history/store.hpp"

namespace perfduel::cli {

std::optional<stats::Direction> direction_of(const DirectionFlags& flags) {
  if (flags.higher_is_better) {
    return stats::Direction::higher_is_better;
  }
  if (flags.lower_is_better) {
    return stats::Direction::lower_is_better;
  }
  return std::nullopt;
}

CLI::Option* add_database_option(CLI::App& command, std::optional<std::string>& db) {
  return command.add_option("--db", db,
                            fmt::format("History database: a SQLite file or a postgresql:// URI (default: "
                                        "$PERFDUEL_HISTORY, else ./{})",
                                        history::k_default_path));
}

void add_direction_flags(CLI::App& command, DirectionFlags& flags, const std::string& higher_help,
                         const std::string& lower_help) {
  auto* higher = command.add_flag("--higher-is-better", flags.higher_is_better, higher_help);
  auto* lower = command.add_flag("--lower-is-better", flags.lower_is_better, lower_help);
  higher->excludes(lower);
}

}  // namespace perfduel::cli
