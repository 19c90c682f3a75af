#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <libpq-fe.h>

#include "history/store.hpp"
#include "util/expected.hpp"

// A small RAII layer over libpq: a connection, results, and errors as messages. Parameters
// and values travel as text, NULL as none.
namespace perfduel::history {

class PgResult {
 public:
  int rows() const { return PQntuples(m_result.get()); }
  bool is_null(int row, int column) const { return PQgetisnull(m_result.get(), row, column) != 0; }
  // The text of (`row`, `column`), empty for NULL.
  std::string_view text(int row, int column) const {
    return {PQgetvalue(m_result.get(), row, column),
            static_cast<std::size_t>(PQgetlength(m_result.get(), row, column))};
  }
  std::optional<std::string> optional_text(int row, int column) const;
  // (`row`, `column`) read as a number; 0 for anything else.
  double number(int row, int column) const;
  std::optional<double> optional_number(int row, int column) const;
  std::int64_t integer(int row, int column) const;

 private:
  friend class PgConnection;
  struct Clearer {
    void operator()(PGresult* result) const { PQclear(result); }
  };
  explicit PgResult(PGresult* result) : m_result(result) {}

  std::unique_ptr<PGresult, Clearer> m_result;
};

class PgConnection {
 public:
  // Connects with the libpq URI `uri`; what it leaves out libpq takes from its environment
  // (PGHOST, PGUSER, PGPASSWORD, ~/.pgpass, ...). Sessions name themselves "perfduel" unless
  // the URI or PGAPPNAME says otherwise. The error is libpq's, which never holds a password.
  static util::Expected<PgConnection> connect(const std::string& uri);

  // Runs `sql` (one or more statements when there are no `params`).
  util::Expected<PgResult> execute(std::string_view sql);
  util::Expected<PgResult> execute(std::string_view sql, std::span<const std::optional<std::string>> params);

  // Begins, commits and rolls back a transaction (a failure to roll back leaves nothing more
  // to do).
  util::Expected<Done> begin_transaction();
  util::Expected<Done> commit_transaction();
  void rollback_transaction();
  // Whether a transaction is open; a failed COMMIT ends it too.
  bool in_transaction() const;

  // The server's version as a number, e.g. 150018.
  int server_version() const { return PQserverVersion(m_connection.get()); }

 private:
  struct Finisher {
    void operator()(PGconn* connection) const { PQfinish(connection); }
  };
  explicit PgConnection(PGconn* connection) : m_connection(connection) {}

  util::Expected<PgResult> checked(PGresult* result);

  std::unique_ptr<PGconn, Finisher> m_connection;
};

// `value` as a text parameter that reads back as the same double.
std::string pg_number(double value);
std::optional<std::string> pg_number(const std::optional<double>& value);

}  // namespace perfduel::history
