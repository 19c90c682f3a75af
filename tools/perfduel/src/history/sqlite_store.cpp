#include "history/sqlite_store.hpp"

#include <chrono>
#include <thread>

#include <fmt/core.h>

#include "history/schema.hpp"
#include "history/statements.hpp"
#include "history/transaction.hpp"
#include "machine/facts.hpp"

namespace perfduel::history {

namespace {

// Statements as SQLite takes them (statements.hpp).
std::string sqlite_sql(std::string_view statement) {
  return render_statement(statement, Dialect::sqlite);
}

// WAL lets readers work while a writer appends; it is a property of the file, kept once set.
// The switch needs the file to itself, and SQLite does not wait on its busy handler for that:
// when several processes open a new file at once, the others' reads make it fail at once with
// SQLITE_BUSY. So it is tried again until one process has switched (the others then see
// "wal" and skip it), for as long as any other lock is waited for.
util::Expected<Done> switch_to_wal(Database& database) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(k_busy_timeout_ms);
  for (;;) {
    {
      // Scoped: an unfinished statement would keep a read open and block the switch below.
      auto mode = database.prepare("PRAGMA journal_mode");
      if (!mode) {
        return util::fail<Done>(mode.error());
      }
      if (auto row = mode.value().step(); row && *row && mode.value().column_text(0) == "wal") {
        return Done{};
      }
    }
    auto switched = database.execute("PRAGMA journal_mode = WAL");
    if (switched || database.error_code() != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline) {
      return switched;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Schema 1 to 2: one machine fingerprint. Records made from a report described the machine
// with uname's three kernel words, records made with --metric with the release alone, so
// one machine had two ids; re-key the report ones to the current formula. Runs inside the
// caller's write transaction.
util::Expected<Done> migrate_machine_ids(Database& database) {
  auto select = database.prepare(sqlite_sql(k_report_machines));
  if (!select) {
    return util::Expected<Done>::failure(select.error());
  }
  std::vector<std::pair<std::int64_t, Fingerprint>> changes;
  Statement& query = select.value();
  for (auto row = query.step(); row && *row; row = query.step()) {
    if (auto current = migrate_legacy_description(query.column_text(1))) {
      changes.emplace_back(query.column_int64(0), std::move(*current));
    }
  }
  auto update = database.prepare(sqlite_sql(k_rekey_machine));
  if (!update) {
    return util::Expected<Done>::failure(update.error());
  }
  for (const auto& [id, fingerprint] : changes) {
    Statement& statement = update.value();
    statement.reset();
    statement.bind(1, std::string_view(fingerprint.description));
    statement.bind(2, std::string_view(fingerprint.id));
    statement.bind(3, id);
    if (auto done = statement.step(); !done) {
      return util::Expected<Done>::failure(done.error());
    }
  }
  return Done{};
}

std::optional<std::string> optional_text(const Statement& statement, int index) {
  if (statement.column_is_null(index)) {
    return std::nullopt;
  }
  return statement.column_text(index);
}

// The current row of a stepped statement, for decode_series_row.
class StatementRow final : public ResultRow {
 public:
  explicit StatementRow(const Statement& statement) : m_statement(statement) {}
  std::string text(int column) const override { return m_statement.column_text(column); }
  std::optional<std::string> optional_text(int column) const override {
    return history::optional_text(m_statement, column);
  }
  double number(int column) const override { return m_statement.column_double(column); }
  std::optional<double> optional_number(int column) const override {
    return m_statement.column_optional_double(column);
  }
  std::int64_t integer(int column) const override { return m_statement.column_int64(column); }

 private:
  const Statement& m_statement;
};

// The bindings of `statement`, for encode_record_row and encode_measurement_row.
class StatementParameters final : public RowParameters {
 public:
  explicit StatementParameters(Statement& statement) : m_statement(statement) {}
  void text(int index, const std::optional<std::string>& value) override { m_statement.bind(index, value); }
  void number(int index, const std::optional<double>& value) override { m_statement.bind(index, value); }
  void integer(int index, std::int64_t value) override { m_statement.bind(index, value); }

 private:
  Statement& m_statement;
};

}  // namespace

util::Expected<Done> SqliteStore::migrate(std::int64_t from) {
  for (const MigrationStep& step : migration_steps()) {
    if (step.version <= from) {
      continue;
    }
    if (!step.sql.empty()) {
      if (auto done = m_database.execute(render_sql(step.sql, Dialect::sqlite)); !done) {
        return done;
      }
    }
    if (step.action == StepAction::rekey_machines) {
      if (auto done = migrate_machine_ids(m_database); !done) {
        return done;
      }
    }
  }
  return m_database.execute(fmt::format("PRAGMA user_version = {}", k_schema_version));
}

std::string SqliteStore::located(const std::string& message) const {
  return fmt::format("{}: {}", m_path.string(), message);
}

namespace {

// Why the file `name` holding a foreign SQLite database is not a history database: its
// application id `id`, else the tables it holds.
std::string foreign_database(Database& database, const std::string& name, std::int64_t id) {
  auto statement = database.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  std::string tables;
  if (statement) {
    Statement& query = statement.value();
    for (auto row = query.step(); row && *row; row = query.step()) {
      tables += (tables.empty() ? "" : ", ") + query.column_text(0);
    }
  }
  if (id != 0) {
    return fmt::format(
        "{}: not a perfduel history database (SQLite application id {:#x}); pass another file with --db",
        name, id);
  }
  return fmt::format(
      "{}: not a perfduel history database (it holds other tables: {}); pass another file with --db", name,
      tables);
}

}  // namespace

util::Expected<std::int64_t> SqliteStore::read_in(Transaction<Database>& transaction,
                                                  std::string_view pragma) {
  if (auto begun = transaction.begin(); !begun) {
    return util::fail<std::int64_t>(located(begun.error()));
  }
  auto value = m_database.query_int(pragma);
  if (!value) {
    return util::fail<std::int64_t>(located(value.error()));
  }
  return value;
}

util::Expected<Done> SqliteStore::claim_file() {
  const std::string name = m_path.string();
  Database& database = m_database;
  // The first read fails on a file that is not SQLite at all.
  auto application_id = database.query_int("PRAGMA application_id");
  if (!application_id) {
    return util::fail<Done>(
        fmt::format("{}: not a perfduel history database (SQLite: {})", name, application_id.error()));
  }
  if (*application_id != 0 && *application_id != k_application_id) {
    return util::fail<Done>(foreign_database(database, name, *application_id));
  }
  if (*application_id != 0) {
    return Done{};
  }
  // Not ours yet: an empty file, or one another process is initialising right now, or a
  // foreign one. Only a read inside the write transaction sees a consistent answer (two
  // separate reads could straddle the other process's commit), so decide there.
  Transaction transaction(database);
  auto id_now = read_in(transaction, "PRAGMA application_id");
  if (!id_now) {
    return util::fail<Done>(id_now.error());
  }
  if (*id_now == 0) {
    auto tables_now = database.query_int(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    if (tables_now && *tables_now > 0) {
      return util::fail<Done>(foreign_database(database, name, 0));
    }
    if (auto marked = database.execute(fmt::format("PRAGMA application_id = {}", k_application_id));
        !marked) {
      return util::fail<Done>(located("cannot create the history schema: " + marked.error()));
    }
    if (auto created = migrate(0); !created) {
      return util::fail<Done>(located("cannot create the history schema: " + created.error()));
    }
  }
  if (auto committed = transaction.commit(); !committed) {
    return util::fail<Done>(located(committed.error()));
  }
  return Done{};
}

util::Expected<Done> SqliteStore::upgrade_schema() {
  Database& database = m_database;
  auto version = database.query_int("PRAGMA user_version");
  if (!version) {
    return util::fail<Done>(located(version.error()));
  }
  if (*version > k_schema_version) {
    return util::fail<Done>(fmt::format(
        "{}: history schema version {} is newer than this perfduel understands ({}); upgrade perfduel",
        m_path.string(), *version, k_schema_version));
  }
  if (*version == k_schema_version) {
    return Done{};
  }
  // Decided again inside the write transaction: another process may have migrated meanwhile.
  Transaction transaction(database);
  auto version_now = read_in(transaction, "PRAGMA user_version");
  if (!version_now) {
    return util::fail<Done>(version_now.error());
  }
  if (*version_now < k_schema_version) {
    if (auto migrated = migrate(*version_now); !migrated) {
      return util::fail<Done>(located("cannot migrate the history schema: " + migrated.error()));
    }
  }
  if (auto committed = transaction.commit(); !committed) {
    return util::fail<Done>(located(committed.error()));
  }
  return Done{};
}

util::Expected<Done> SqliteStore::configure_connection() {
  if (auto wal = switch_to_wal(m_database); !wal) {
    return util::fail<Done>(located("cannot switch to WAL mode: " + wal.error()));
  }
  if (auto settings = m_database.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL");
      !settings) {
    return util::fail<Done>(located(settings.error()));
  }
  return Done{};
}

util::Expected<SqliteStore> SqliteStore::open(const std::filesystem::path& path, CreateFile create) {
  const std::string name = path.string();
  std::error_code error;
  if (create == CreateFile::no && !std::filesystem::exists(path, error)) {
    return util::fail<SqliteStore>(fmt::format(
        "{}: no such history database (record results with `perfduel record` first, or pass --db)", name));
  }
  auto opened = Database::open(path, create);
  if (!opened) {
    return util::fail<SqliteStore>(
        fmt::format("{}: cannot open the history database: {}", name, opened.error()));
  }
  SqliteStore store(path, std::move(opened.value()));
  store.m_database.set_busy_timeout(k_busy_timeout_ms);
  if (auto claimed = store.claim_file(); !claimed) {
    return util::fail<SqliteStore>(claimed.error());
  }
  if (auto upgraded = store.upgrade_schema(); !upgraded) {
    return util::fail<SqliteStore>(upgraded.error());
  }
  if (auto configured = store.configure_connection(); !configured) {
    return util::fail<SqliteStore>(configured.error());
  }
  return store;
}

util::Expected<AppendResult> SqliteStore::append(const Record& record) {
  Transaction transaction(m_database);
  if (auto begun = transaction.begin(); !begun) {
    return util::fail<AppendResult>(located(begun.error()));
  }
  if (record.run_key) {
    // Inside the write transaction, so no other writer can add the key between this look
    // and the insert; the unique index is the second line of defence.
    auto find = m_database.prepare(sqlite_sql(k_find_record));
    if (!find) {
      return util::fail<AppendResult>(located(find.error()));
    }
    Statement& query = find.value();
    query.bind(1, std::string_view(*record.run_key));
    auto row = query.step();
    if (!row) {
      return util::fail<AppendResult>(located(row.error()));
    }
    if (*row) {
      return AppendResult{query.column_int64(0), Appended::already_recorded};
    }
  }
  auto insert_record = m_database.prepare(sqlite_sql(k_insert_record));
  if (!insert_record) {
    return util::fail<AppendResult>(located(insert_record.error()));
  }
  Statement& record_statement = insert_record.value();
  StatementParameters record_parameters(record_statement);
  encode_record_row(record_parameters, record);
  if (auto done = record_statement.step(); !done) {
    return util::fail<AppendResult>(located(done.error()));
  }
  const std::int64_t record_id = m_database.last_insert_rowid();

  auto insert_measurement = m_database.prepare(sqlite_sql(k_insert_measurement));
  if (!insert_measurement) {
    return util::fail<AppendResult>(located(insert_measurement.error()));
  }
  Statement& s = insert_measurement.value();
  for (const Measurement& m : record.measurements) {
    s.reset();
    StatementParameters parameters(s);
    encode_measurement_row(parameters, record_id, m);
    if (auto done = s.step(); !done) {
      return util::fail<AppendResult>(located(done.error()));
    }
  }
  if (auto committed = transaction.commit(); !committed) {
    return util::fail<AppendResult>(located(committed.error()));
  }
  return AppendResult{record_id, Appended::added};
}

util::Expected<std::vector<std::string>> SqliteStore::metrics(const std::optional<std::string>& branch) {
  auto statement = m_database.prepare(sqlite_sql(k_metrics));
  if (!statement) {
    return util::fail<std::vector<std::string>>(located(statement.error()));
  }
  Statement& query = statement.value();
  query.bind(1, branch);
  std::vector<std::string> names;
  while (true) {
    auto row = query.step();
    if (!row) {
      return util::fail<std::vector<std::string>>(located(row.error()));
    }
    if (!*row) {
      break;
    }
    names.push_back(query.column_text(0));
  }
  return names;
}

util::Expected<std::vector<SeriesPoint>> SqliteStore::series(const std::string& metric,
                                                             const std::optional<std::string>& branch) {
  auto statement = m_database.prepare(sqlite_sql(k_series));
  if (!statement) {
    return util::fail<std::vector<SeriesPoint>>(located(statement.error()));
  }
  Statement& query = statement.value();
  query.bind(1, std::string_view(metric));
  query.bind(2, branch);
  std::vector<SeriesPoint> points;
  while (true) {
    auto row = query.step();
    if (!row) {
      return util::fail<std::vector<SeriesPoint>>(located(row.error()));
    }
    if (!*row) {
      break;
    }
    points.push_back(decode_series_row(StatementRow(query), metric));
  }
  return points;
}

util::Expected<std::int64_t> SqliteStore::record_count() {
  auto count = m_database.query_int(sqlite_sql(k_record_count));
  if (!count) {
    return util::fail<std::int64_t>(located(count.error()));
  }
  return count;
}

}  // namespace perfduel::history
