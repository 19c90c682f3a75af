#pragma once

#include <string>

#include "history/postgres.hpp"
#include "history/store.hpp"

// The history on a PostgreSQL server, shared by a fleet of CI runners. The tables live in
// the schema `perfduel` of the database the URI names (so they never clash with another
// application's), with the schema version in perfduel.schema_version. Every write is one
// transaction; creating and migrating the schema is serialised by an advisory lock.
namespace perfduel::history {

class PostgresStore final : public HistoryStore {
 public:
  // Connects to `uri` and opens (with `create`, creating) the history schema, migrating an
  // older one. Fails, naming the database with its password hidden, when the server cannot
  // be reached, the schema `perfduel` holds another application's tables, or the history
  // schema is newer than this perfduel.
  static util::Expected<PostgresStore> open(const std::string& uri, CreateFile create);

  util::Expected<AppendResult> append(const Record& record) override;
  util::Expected<std::vector<std::string>> metrics(const std::optional<std::string>& branch) override;
  util::Expected<std::vector<SeriesPoint>> series(const std::string& metric,
                                                  const std::optional<std::string>& branch) override;
  util::Expected<std::int64_t> record_count() override;
  std::string display_name() const override { return m_name; }

 private:
  PostgresStore(std::string name, PgConnection connection)
      : m_name(std::move(name)), m_connection(std::move(connection)) {}

  // Prefixes `message` with the database name.
  std::string located(const std::string& message) const;

  // Creates or migrates the schema inside one transaction under the advisory lock.
  util::Expected<Done> prepare_schema(CreateFile create);

  std::string m_name;  // the URI with its password hidden
  PgConnection m_connection;
};

}  // namespace perfduel::history
