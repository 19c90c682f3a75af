#include "history/postgres_store.hpp"

#include <array>

#include <fmt/core.h>

#include "history/schema.hpp"
#include "history/statements.hpp"
#include "history/transaction.hpp"
#include "machine/facts.hpp"

namespace perfduel::history {

namespace {

// Serialises schema creation and migration between runners opening the database at once.
constexpr const char* k_schema_lock = "SELECT pg_advisory_xact_lock(1346652209)";  // "PDH1"

// Identity columns (PostgreSQL 10) and INSERT ... ON CONFLICT (9.5).
constexpr int k_minimum_server_version = 100000;

// Appended to k_insert_record: a concurrent insert of the same run key waits for the other
// transaction and then does nothing, so the unique index decides and two retries of one job
// never both add a record. SQLite, which gained RETURNING only in 3.35, looks the key up
// first instead, under its write lock.
constexpr const char* k_unless_recorded = " ON CONFLICT (run_key) DO NOTHING RETURNING id";

// Row `row` of a result, for decode_series_row.
class PgRow final : public ResultRow {
 public:
  PgRow(const PgResult& result, int row) : m_result(result), m_row(row) {}
  std::string text(int column) const override { return std::string(m_result.text(m_row, column)); }
  std::optional<std::string> optional_text(int column) const override {
    return m_result.optional_text(m_row, column);
  }
  double number(int column) const override { return m_result.number(m_row, column); }
  std::optional<double> optional_number(int column) const override {
    return m_result.optional_number(m_row, column);
  }
  std::int64_t integer(int column) const override { return m_result.integer(m_row, column); }

 private:
  const PgResult& m_result;
  int m_row;
};

// Parameters as libpq takes them, every one as text (NULL: none), for encode_record_row and
// encode_measurement_row: numbers as pg_number writes them.
class TextParameters final : public RowParameters {
 public:
  explicit TextParameters(std::size_t count) : m_values(count) {}
  void text(int index, const std::optional<std::string>& value) override { at(index) = value; }
  void number(int index, const std::optional<double>& value) override { at(index) = pg_number(value); }
  void integer(int index, std::int64_t value) override { at(index) = std::to_string(value); }
  std::span<const std::optional<std::string>> values() const { return m_values; }

 private:
  std::optional<std::string>& at(int index) { return m_values.at(static_cast<std::size_t>(index - 1)); }
  std::vector<std::optional<std::string>> m_values;
};

// Statements as libpq takes them (statements.hpp).
std::string postgres_sql(std::string_view statement) {
  return render_statement(statement, Dialect::postgresql);
}

// The schema version, or none when perfduel.schema_version does not exist.
util::Expected<std::optional<std::int64_t>> read_version(PgConnection& connection) {
  // A query of the catalog, not to_regclass(): that consults the session's catalog cache,
  // which still says "no such table" after waiting for the lock while another session created
  // it; a query reads the catalog with a fresh snapshot.
  auto exists = connection.execute(
      "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = "
      "c.relnamespace WHERE n.nspname = 'perfduel' AND c.relname = 'schema_version')");
  if (!exists) {
    return util::fail<std::optional<std::int64_t>>(exists.error());
  }
  if (exists->text(0, 0) != "t") {
    return std::optional<std::int64_t>{};
  }
  auto version = connection.execute("SELECT max(version) FROM perfduel.schema_version");
  if (!version) {
    return util::fail<std::optional<std::int64_t>>(version.error());
  }
  return std::optional<std::int64_t>{version->is_null(0, 0) ? 0 : version->integer(0, 0)};
}

// Creates the schema perfduel with its version table at version 0, in a database whose schema
// perfduel holds nothing; the error says what is in the way, or why it could not be created.
util::Expected<Done> create_schema(PgConnection& connection) {
  auto tables = connection.execute(
      "SELECT string_agg(tablename, ', ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'perfduel'");
  if (!tables) {
    return util::fail<Done>(tables.error());
  }
  if (!tables->is_null(0, 0)) {
    return util::fail<Done>(fmt::format(
        "not a perfduel history database (its schema perfduel holds other tables: {}); pass another "
        "database with --db",
        tables->text(0, 0)));
  }
  if (auto created = connection.execute("CREATE SCHEMA IF NOT EXISTS perfduel; "
                                        "CREATE TABLE perfduel.schema_version (version INTEGER NOT NULL); "
                                        "INSERT INTO perfduel.schema_version VALUES (0)");
      !created) {
    return util::fail<Done>("cannot create the history schema: " + created.error());
  }
  return Done{};
}

// Schema 1 to 2, as for SQLite: records made from a report get the current machine key.
util::Expected<Done> rekey_machines(PgConnection& connection) {
  auto rows = connection.execute(postgres_sql(k_report_machines));
  if (!rows) {
    return util::fail<Done>(rows.error());
  }
  for (int row = 0; row < rows->rows(); ++row) {
    if (auto current = migrate_legacy_description(rows->text(row, 1))) {
      const std::array<std::optional<std::string>, 3> params{current->description, current->id,
                                                             std::string(rows->text(row, 0))};
      if (auto done = connection.execute(postgres_sql(k_rekey_machine), params); !done) {
        return util::fail<Done>(done.error());
      }
    }
  }
  return Done{};
}

}  // namespace

std::string PostgresStore::located(const std::string& message) const {
  return fmt::format("{}: {}", m_name, message);
}

util::Expected<PostgresStore> PostgresStore::open(const std::string& uri, CreateFile create) {
  const std::string name = redact_location(uri);
  auto connected = PgConnection::connect(uri);
  if (!connected) {
    return util::fail<PostgresStore>(
        fmt::format("{}: cannot connect to the history database: {}", name, connected.error()));
  }
  PostgresStore store(name, std::move(connected.value()));
  PgConnection& connection = store.m_connection;
  if (connection.server_version() < k_minimum_server_version) {
    return util::fail<PostgresStore>(store.located(fmt::format(
        "PostgreSQL {} is too old for the history (10 or newer needed)", connection.server_version())));
  }
  // Every statement names the tables unqualified; they live in the schema perfduel.
  if (auto session = connection.execute("SET search_path TO perfduel; SET client_min_messages TO warning");
      !session) {
    return util::fail<PostgresStore>(store.located(session.error()));
  }
  auto version = read_version(connection);
  if (!version) {
    return util::fail<PostgresStore>(store.located(version.error()));
  }
  if (*version && **version > k_schema_version) {
    return util::fail<PostgresStore>(
        store.located(fmt::format("history schema version {} is newer than this perfduel understands ({}); "
                                  "upgrade perfduel",
                                  **version, k_schema_version)));
  }
  if (!*version || **version < k_schema_version) {
    if (auto prepared = store.prepare_schema(create); !prepared) {
      return util::fail<PostgresStore>(prepared.error());
    }
  }
  return store;
}

util::Expected<Done> PostgresStore::prepare_schema(CreateFile create) {
  Transaction transaction(m_connection);
  if (auto begun = transaction.begin(); !begun) {
    return util::fail<Done>(located(begun.error()));
  }
  if (auto locked = m_connection.execute(k_schema_lock); !locked) {
    return util::fail<Done>(located(locked.error()));
  }
  // Decided again under the lock: another runner may have created or migrated it meanwhile.
  auto version = read_version(m_connection);
  if (!version) {
    return util::fail<Done>(located(version.error()));
  }
  std::int64_t from = 0;
  if (*version) {
    from = **version;
  } else {
    if (create == CreateFile::no) {
      return util::fail<Done>(
          located("no perfduel history in this database (record results with `perfduel record` first, or "
                  "pass --db)"));
    }
    if (auto created = create_schema(m_connection); !created) {
      return util::fail<Done>(located(created.error()));
    }
  }
  if (from >= k_schema_version) {
    return transaction.commit();
  }
  for (const MigrationStep& step : migration_steps()) {
    if (step.version <= from) {
      continue;
    }
    if (!step.sql.empty()) {
      if (auto done = m_connection.execute(render_sql(step.sql, Dialect::postgresql)); !done) {
        return util::fail<Done>(located("cannot migrate the history schema: " + done.error()));
      }
    }
    if (step.action == StepAction::rekey_machines) {
      if (auto done = rekey_machines(m_connection); !done) {
        return util::fail<Done>(located("cannot migrate the history schema: " + done.error()));
      }
    }
  }
  if (auto set =
          m_connection.execute(fmt::format("UPDATE schema_version SET version = {}", k_schema_version));
      !set) {
    return util::fail<Done>(located(set.error()));
  }
  if (auto committed = transaction.commit(); !committed) {
    return util::fail<Done>(located(committed.error()));
  }
  return Done{};
}

util::Expected<AppendResult> PostgresStore::append(const Record& record) {
  Transaction transaction(m_connection);
  if (auto begun = transaction.begin(); !begun) {
    return util::fail<AppendResult>(located(begun.error()));
  }
  TextParameters record_params(10);
  encode_record_row(record_params, record);
  auto inserted =
      m_connection.execute(postgres_sql(k_insert_record) + k_unless_recorded, record_params.values());
  if (!inserted) {
    return util::fail<AppendResult>(located(inserted.error()));
  }
  if (inserted->rows() == 0) {
    const std::array<std::optional<std::string>, 1> key{record.run_key};
    auto found = m_connection.execute(postgres_sql(k_find_record), key);
    if (!found) {
      return util::fail<AppendResult>(located(found.error()));
    }
    if (found->rows() == 0) {
      return util::fail<AppendResult>(located("a record with this run key vanished while recording"));
    }
    return AppendResult{found->integer(0, 0), Appended::already_recorded};
  }
  const std::int64_t record_id = inserted->integer(0, 0);
  for (const Measurement& m : record.measurements) {
    TextParameters params(11);
    encode_measurement_row(params, record_id, m);
    if (auto done = m_connection.execute(postgres_sql(k_insert_measurement), params.values()); !done) {
      return util::fail<AppendResult>(located(done.error()));
    }
  }
  if (auto committed = transaction.commit(); !committed) {
    return util::fail<AppendResult>(located(committed.error()));
  }
  return AppendResult{record_id, Appended::added};
}

util::Expected<std::vector<std::string>> PostgresStore::metrics(const std::optional<std::string>& branch) {
  const std::array<std::optional<std::string>, 1> params{branch};
  auto rows = m_connection.execute(postgres_sql(k_metrics), params);
  if (!rows) {
    return util::fail<std::vector<std::string>>(located(rows.error()));
  }
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(rows->rows()));
  for (int row = 0; row < rows->rows(); ++row) {
    names.emplace_back(rows->text(row, 0));
  }
  return names;
}

util::Expected<std::vector<SeriesPoint>> PostgresStore::series(const std::string& metric,
                                                               const std::optional<std::string>& branch) {
  const std::array<std::optional<std::string>, 2> params{metric, branch};
  auto rows = m_connection.execute(postgres_sql(k_series), params);
  if (!rows) {
    return util::fail<std::vector<SeriesPoint>>(located(rows.error()));
  }
  std::vector<SeriesPoint> points;
  points.reserve(static_cast<std::size_t>(rows->rows()));
  for (int row = 0; row < rows->rows(); ++row) {
    points.push_back(decode_series_row(PgRow(*rows, row), metric));
  }
  return points;
}

util::Expected<std::int64_t> PostgresStore::record_count() {
  auto count = m_connection.execute(postgres_sql(k_record_count));
  if (!count) {
    return util::fail<std::int64_t>(located(count.error()));
  }
  return count->integer(0, 0);
}

}  // namespace perfduel::history
