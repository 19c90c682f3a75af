#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "history/sqlite.hpp"
#include "util/expected.hpp"

// The history database: one SQLite file, no server. Every `perfduel record` appends one
// record (commit, branch, time, machine) with one measurement per metric. Several CI jobs
// may record into the same file at once: WAL journal, a busy timeout, and every write in
// one IMMEDIATE transaction, so none is lost.
namespace perfduel::history {

// Schema version kept in PRAGMA user_version; PRAGMA application_id marks the file as ours.
constexpr int k_schema_version = 2;
constexpr std::int32_t k_application_id = 0x50444831;  // "PDH1"

// The database path when neither --db nor PERFDUEL_HISTORY says otherwise.
constexpr const char* k_default_path = "perfduel-history.sqlite";

// The database path: `option` (--db) if given, else $PERFDUEL_HISTORY if set, else
// k_default_path in the current directory.
std::filesystem::path history_path(const std::optional<std::string>& option);

// How long a writer waits for another one's lock before giving up.
constexpr int k_busy_timeout_ms = 60'000;

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
  std::vector<Measurement> measurements;
};

// One point of a metric's series, oldest first.
struct SeriesPoint {
  std::int64_t record_id = 0;
  std::string recorded_at;
  std::optional<std::string> commit;
  std::optional<std::string> branch;
  std::string machine_id;
  Measurement measurement;
};

class HistoryStore {
 public:
  // Opens (with `create`, creating) the history database `path`, creating the schema in an
  // empty file. Fails, naming the file, when it is not SQLite, holds another application's
  // tables, or has a newer schema.
  static util::Expected<HistoryStore> open(const std::filesystem::path& path, CreateFile create);

  // Appends `record` with its measurements in one transaction; returns its id.
  util::Expected<std::int64_t> append(const Record& record);

  // The metric names recorded (on `branch`, when given), sorted.
  util::Expected<std::vector<std::string>> metrics(const std::optional<std::string>& branch);

  // The series of `metric` (on `branch`, when given), ordered by time, then by record id.
  util::Expected<std::vector<SeriesPoint>> series(const std::string& metric,
                                                  const std::optional<std::string>& branch);

  // How many records the database holds.
  util::Expected<std::int64_t> record_count();

  const std::filesystem::path& path() const { return m_path; }

 private:
  HistoryStore(std::filesystem::path path, Database database)
      : m_path(std::move(path)), m_database(std::move(database)) {}

  // Prefixes `message` with the file name.
  std::string located(const std::string& message) const;

  std::filesystem::path m_path;
  Database m_database;
};

}  // namespace perfduel::history
