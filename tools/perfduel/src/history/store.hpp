#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

// The history database behind `perfduel record` and `perfduel trend`: every record (commit,
// branch, time, machine, gate configuration) with one measurement per metric. Two stores
// keep it with the same schema (history/schema.hpp) and the same guarantees: a SQLite file,
// the embedded default, and a PostgreSQL server for a fleet of CI runners.
namespace perfduel::history {

// The value of an Expected that carries no value.
struct Done {};

// Whether opening may create a missing database (file, or schema on a server).
enum class CreateFile { yes, no };

// The database file when neither --db nor PERFDUEL_HISTORY says otherwise.
constexpr const char* k_default_path = "perfduel-history.sqlite";

// The database: `option` (--db) if given, else $PERFDUEL_HISTORY if set, else
// k_default_path in the current directory. A file path, or a PostgreSQL URI.
std::string history_location(const std::optional<std::string>& option);

// Whether `location` names a PostgreSQL server: a `postgresql://` or `postgres://` URI.
bool is_postgres_location(std::string_view location);

// `location` fit to print: a password in a URI's user part or in a `password=` query
// parameter becomes "***". A file path is returned as it is.
std::string redact_location(std::string_view location);

// One metric of one record. `value` is what the trend follows (the candidate's median);
// `samples` the raw values behind it, so a record can also be trended as a run.
struct Measurement {
  std::string metric;
  std::optional<std::string> unit;
  std::optional<std::string> direction;  // "lower" or "higher" (which is better)
  double value = 0.0;
  std::vector<double> samples;
  std::optional<double> baseline;
  std::optional<double> change;
  std::optional<double> ci_low;
  std::optional<double> ci_high;
  std::optional<std::string> verdict;
};

struct Record {
  std::string recorded_at;  // ISO 8601, UTC
  std::optional<std::string> commit;
  std::optional<std::string> branch;
  std::string machine;     // "host | CPU model | kernel"
  std::string machine_id;  // a short hash of `machine`
  std::string source;      // "report" or "values"
  std::optional<std::string> verdict;
  std::optional<std::string> perfduel_version;
  // The idempotency key: a second append with the same key adds nothing. None never clashes.
  std::optional<std::string> run_key;
  // A short hash of the gate configuration measured under (report_import.hpp).
  std::optional<std::string> config_hash;
  std::vector<Measurement> measurements;
};

// One point of a metric's series, oldest first.
struct SeriesPoint {
  std::int64_t record_id = 0;
  std::string recorded_at;
  std::optional<std::string> commit;
  std::optional<std::string> branch;
  std::string machine_id;
  std::optional<std::string> config_hash;
  Measurement measurement;
};

// Whether an append added a record or found the one with its run key.
enum class Appended { added, already_recorded };

struct AppendResult {
  std::int64_t id = 0;
  Appended status = Appended::added;
};

class HistoryStore {
 public:
  HistoryStore() = default;
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;
  HistoryStore(HistoryStore&&) = default;
  HistoryStore& operator=(HistoryStore&&) = default;
  virtual ~HistoryStore() = default;

  // Appends `record` with its measurements in one transaction; returns its id. When a record
  // with the same run key exists, adds nothing and returns that record's id.
  virtual util::Expected<AppendResult> append(const Record& record) = 0;

  // The metric names recorded (on `branch`, when given), sorted by byte value.
  virtual util::Expected<std::vector<std::string>> metrics(const std::optional<std::string>& branch) = 0;

  // The series of `metric` (on `branch`, when given), ordered by time, then by record id.
  virtual util::Expected<std::vector<SeriesPoint>> series(const std::string& metric,
                                                          const std::optional<std::string>& branch) = 0;

  // How many records the database holds.
  virtual util::Expected<std::int64_t> record_count() = 0;

  // The database as messages name it (a password never shows).
  virtual std::string display_name() const = 0;
};

// Opens the history database at `location` (history_location()): a PostgreSQL server for a
// `postgresql://` URI, else a SQLite file. With `create`, a missing file or schema is
// created; an older schema is migrated. Errors name the database.
util::Expected<std::unique_ptr<HistoryStore>> open_history_store(const std::string& location,
                                                                 CreateFile create);

}  // namespace perfduel::history
