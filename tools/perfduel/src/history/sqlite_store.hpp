#pragma once

#include <filesystem>
#include <string_view>

#include "history/sqlite.hpp"
#include "history/store.hpp"
#include "history/transaction.hpp"

// The history in one SQLite file, no server. Several CI jobs may record into the same file
// at once: WAL journal, a busy timeout, and every write in one IMMEDIATE transaction, so none
// is lost.
namespace perfduel::history {

// PRAGMA application_id marks the file as perfduel's ("PDH1").
constexpr std::int32_t k_application_id = 0x50444831;

// How long a writer waits for another one's lock before giving up.
constexpr int k_busy_timeout_ms = 60'000;

class SqliteStore final : public HistoryStore {
 public:
  // Opens (with `create`, creating) the history file `path`, creating the schema in an empty
  // file and migrating an older one. Fails, naming the file, when it is not SQLite, holds
  // another application's tables, or has a newer schema.
  static util::Expected<SqliteStore> open(const std::filesystem::path& path, CreateFile create);

  util::Expected<AppendResult> append(const Record& record) override;
  util::Expected<std::vector<std::string>> metrics(const std::optional<std::string>& branch) override;
  util::Expected<std::vector<SeriesPoint>> series(const std::string& metric,
                                                  const std::optional<std::string>& branch) override;
  util::Expected<std::int64_t> record_count() override;
  std::string display_name() const override { return m_path.string(); }

  const std::filesystem::path& path() const { return m_path; }

 private:
  SqliteStore(std::filesystem::path path, Database database)
      : m_path(std::move(path)), m_database(std::move(database)) {}

  // Prefixes `message` with the file name.
  std::string located(const std::string& message) const;

  // Runs the migration steps above `from` (a version below k_schema_version) inside the
  // caller's write transaction, then sets the version.
  util::Expected<Done> migrate(std::int64_t from);

  // Begins `transaction` and reads the integer `pragma` inside it, where no other process can
  // change it before this one acts on it.
  util::Expected<std::int64_t> read_in(Transaction<Database>& transaction, std::string_view pragma);

  // Steps of open, each failing with the whole message open gives:
  // checks the application id, and marks and creates the schema in a file that is not ours yet;
  util::Expected<Done> claim_file();
  // migrates an older schema and refuses a newer one;
  util::Expected<Done> upgrade_schema();
  // switches to WAL and sets the connection's pragmas.
  util::Expected<Done> configure_connection();

  std::filesystem::path m_path;
  Database m_database;
};

}  // namespace perfduel::history
