#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <sqlite3.h>

#include "history/store.hpp"
#include "util/expected.hpp"

// A small RAII layer over the SQLite C API: a connection, prepared statements, and errors
// as messages rather than result codes.
namespace perfduel::history {

class Statement {
 public:
  // Binds `value` to the 1-based parameter `index`; none binds NULL.
  void bind(int index, double value);
  void bind(int index, std::int64_t value);
  void bind(int index, std::string_view value);
  void bind(int index, const std::optional<double>& value);
  void bind(int index, const std::optional<std::string>& value);

  // Makes the statement ready to run again with new bindings.
  void reset();

  // Runs the statement one step: true when a row is ready, false when done.
  util::Expected<bool> step();

  // Column `index` (0-based) of the current row.
  double column_double(int index) const;
  std::int64_t column_int64(int index) const;
  std::string column_text(int index) const;
  std::optional<double> column_optional_double(int index) const;
  bool column_is_null(int index) const;

 private:
  friend class Database;
  struct Finalizer {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
  };
  Statement(sqlite3* database, sqlite3_stmt* statement) : m_database(database), m_statement(statement) {}

  sqlite3* m_database;
  std::unique_ptr<sqlite3_stmt, Finalizer> m_statement;
};

class Database {
 public:
  // Opens `path` for reading and writing; `create` says whether a missing file is created.
  static util::Expected<Database> open(const std::filesystem::path& path, CreateFile create);

  // Runs `sql` (one or more statements, no results).
  util::Expected<Done> execute(std::string_view sql);

  // Compiles `sql`.
  util::Expected<Statement> prepare(std::string_view sql);

  // Runs `sql`, which yields one integer (a PRAGMA, a count).
  util::Expected<std::int64_t> query_int(std::string_view sql);

  // Begins a write transaction. IMMEDIATE takes the write lock now (waiting up to the busy
  // timeout), so two writers never both read and then fail to upgrade.
  util::Expected<Done> begin_transaction() { return execute("BEGIN IMMEDIATE"); }
  util::Expected<Done> commit_transaction() { return execute("COMMIT"); }
  // Rolls back the open transaction; there is nothing more to do when that fails.
  void rollback_transaction() { (void)execute("ROLLBACK"); }
  // Whether a transaction is open; one whose COMMIT failed with SQLITE_BUSY still is.
  bool in_transaction() const { return sqlite3_get_autocommit(m_database.get()) == 0; }

  // Waits up to `milliseconds` for another connection's lock instead of failing at once.
  void set_busy_timeout(int milliseconds);

  std::int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(m_database.get()); }

  // The message of the last failure on this connection.
  std::string error_message() const { return sqlite3_errmsg(m_database.get()); }

  // The primary result code of the last failure on this connection (SQLITE_BUSY, ...).
  int error_code() const { return sqlite3_errcode(m_database.get()) & 0xff; }

 private:
  struct Closer {
    void operator()(sqlite3* database) const { sqlite3_close_v2(database); }
  };
  explicit Database(sqlite3* database) : m_database(database) {}

  std::unique_ptr<sqlite3, Closer> m_database;
};

}  // namespace perfduel::history
