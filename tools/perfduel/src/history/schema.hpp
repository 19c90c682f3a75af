#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

// The one definition of the history schema, for every store: a list of versioned migration
// steps. A new database runs them all in order; an older one runs the steps above its
// version, inside one write transaction, when it is opened.
namespace perfduel::history {

// The schema version this perfduel writes (SQLite: PRAGMA user_version; PostgreSQL: the
// table perfduel.schema_version).
constexpr int k_schema_version = 3;

// The SQL dialect a step is rendered for.
enum class Dialect { sqlite, postgresql };

// What a step does besides its SQL.
enum class StepAction {
  none,
  // Schema 1 to 2: re-key machines of records made from a report (`migrate_legacy_description`).
  rekey_machines,
};

struct MigrationStep {
  int version = 0;       // the version the database has after the step
  std::string_view sql;  // DDL with {id_column}, {id_type} and {real} placeholders
  StepAction action = StepAction::none;
};

// Every step, oldest first; the last one's version is k_schema_version.
std::span<const MigrationStep> migration_steps();

// `sql` of a step with its placeholders filled in for `dialect`.
std::string render_sql(std::string_view sql, Dialect dialect);

}  // namespace perfduel::history

namespace perfduel::history {

// A measurement's raw samples as both stores keep them: a JSON array of numbers.
std::string encode_samples(const std::vector<double>& samples);

// The samples of `text` (encode_samples); numbers only, empty for anything else.
std::vector<double> decode_samples(std::string_view text);

}  // namespace perfduel::history
