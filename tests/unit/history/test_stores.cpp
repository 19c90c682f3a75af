#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "history/schema.hpp"
#include "history/sqlite_store.hpp"
#include "history/statements.hpp"
#include "history/store.hpp"
#include "machine/facts.hpp"

using namespace perfduel::history;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::random_device device;
    m_path = fs::temp_directory_path() /
             ("perfduel-history-test-" + std::to_string(::getpid()) + "-" + std::to_string(device()));
    fs::create_directories(m_path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  fs::path operator/(const std::string& name) const { return m_path / name; }

 private:
  fs::path m_path;
};

Record sample_record(const std::string& metric, double value, const std::string& time) {
  Record record;
  record.recorded_at = time;
  record.commit = "0123456789abcdef";
  record.branch = "main";
  record.machine = perfduel::machine_fingerprint("host", "CPU", "6.1").description;
  record.machine_id = perfduel::machine_fingerprint("host", "CPU", "6.1").id;
  record.source = "values";
  Measurement m;
  m.metric = metric;
  m.value = value;
  m.samples = {value, value * 1.01};
  m.direction = "lower";
  m.unit = "s";
  record.measurements.push_back(m);
  return record;
}

void run_sql(const fs::path& path, const char* sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace

TEST_CASE("a new history database: schema, WAL, round trip", "[history]") {
  TempDir dir;
  const fs::path path = dir / "h.sqlite";
  auto store = SqliteStore::open(path, CreateFile::yes);
  REQUIRE(store);
  REQUIRE(store.value().append(sample_record("wall_time", 1.0, "2026-11-02T00:00:00Z")));
  REQUIRE(store.value().append(sample_record("wall_time", 2.0, "2026-11-01T00:00:00Z")));
  Record two = sample_record("max_rss", 100.0, "2026-11-03T00:00:00Z");
  two.branch = "feature";
  REQUIRE(store.value().append(two));

  CHECK(*store.value().record_count() == 3);
  CHECK(*store.value().metrics(std::nullopt) == std::vector<std::string>{"max_rss", "wall_time"});
  CHECK(*store.value().metrics(std::string("main")) == std::vector<std::string>{"wall_time"});
  const auto series = store.value().series("wall_time", std::nullopt);
  REQUIRE(series);
  REQUIRE(series->size() == 2);
  // Ordered by time, not by insertion.
  CHECK((*series)[0].measurement.value == 2.0);
  CHECK((*series)[0].measurement.samples == std::vector<double>{2.0, 2.02});
  CHECK((*series)[0].measurement.direction == "lower");
  CHECK((*series)[1].commit == "0123456789abcdef");

  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))) == "wal");
  sqlite3_finalize(statement);
  REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  CHECK(sqlite3_column_int(statement, 0) == k_schema_version);
  sqlite3_finalize(statement);
  sqlite3_close(db);
}

TEST_CASE("several processes recording at once lose nothing", "[history]") {
  TempDir dir;
  const fs::path path = dir / "shared.sqlite";
  constexpr int k_processes = 6;
  constexpr int k_records = 25;
  std::vector<pid_t> children;
  for (int p = 0; p < k_processes; ++p) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Every child opens the still-missing file itself, so schema creation races too.
      // A failing child says why on stderr, which the test log keeps.
      auto store = SqliteStore::open(path, CreateFile::yes);
      if (!store) {
        std::fprintf(stderr, "child %d: %s\n", p, store.error().c_str());
        ::_exit(1);
      }
      for (int r = 0; r < k_records; ++r) {
        auto appended =
            store.value().append(sample_record("metric_" + std::to_string(p), r, "2026-11-01T00:00:00Z"));
        if (!appended) {
          std::fprintf(stderr, "child %d, record %d: %s\n", p, r, appended.error().c_str());
          ::_exit(1);
        }
      }
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  auto store = SqliteStore::open(path, CreateFile::no);
  REQUIRE(store);
  CHECK(*store.value().record_count() == k_processes * k_records);
  for (int p = 0; p < k_processes; ++p) {
    CHECK(store.value().series("metric_" + std::to_string(p), std::nullopt)->size() == k_records);
  }
}

TEST_CASE("history database errors name the file", "[history]") {
  TempDir dir;

  SECTION("a missing file is not created for reading") {
    const fs::path path = dir / "missing.sqlite";
    const auto store = SqliteStore::open(path, CreateFile::no);
    REQUIRE_FALSE(store);
    CHECK(store.error() ==
          path.string() +
              ": no such history database (record results with `perfduel record` first, or pass --db)");
    CHECK_FALSE(fs::exists(path));
  }

  SECTION("random bytes") {
    const fs::path path = dir / "corrupt.sqlite";
    std::mt19937 random(7);
    std::ofstream file(path, std::ios::binary);
    for (int i = 0; i < 8192; ++i) {
      file.put(static_cast<char>(random() & 0xFF));
    }
    file.close();
    const auto store = SqliteStore::open(path, CreateFile::yes);
    REQUIRE_FALSE(store);
    CHECK(store.error() ==
          path.string() + ": not a perfduel history database (SQLite: file is not a database)");
  }

  SECTION("another application's SQLite database") {
    const fs::path path = dir / "foreign.sqlite";
    run_sql(path, "CREATE TABLE users (id INTEGER); CREATE TABLE orders (id INTEGER);");
    const auto store = SqliteStore::open(path, CreateFile::yes);
    REQUIRE_FALSE(store);
    CHECK(store.error() ==
          path.string() +
              ": not a perfduel history database (it holds other tables: orders, users); pass "
              "another file with --db");
  }

  SECTION("a database marked by another application") {
    const fs::path path = dir / "marked.sqlite";
    run_sql(path, "PRAGMA application_id = 1234;");
    const auto store = SqliteStore::open(path, CreateFile::yes);
    REQUIRE_FALSE(store);
    CHECK(store.error() ==
          path.string() +
              ": not a perfduel history database (SQLite application id 0x4d2); pass another file "
              "with --db");
  }

  SECTION("a newer schema") {
    const fs::path path = dir / "newer.sqlite";
    REQUIRE(SqliteStore::open(path, CreateFile::yes));
    run_sql(path, "PRAGMA user_version = 99;");
    const auto store = SqliteStore::open(path, CreateFile::no);
    REQUIRE_FALSE(store);
    CHECK(store.error() ==
          path.string() +
              ": history schema version 99 is newer than this perfduel understands (3); upgrade "
              "perfduel");
  }
}

// A file as an older perfduel left it: the migration steps up to `version`, run by hand.
void make_old_database(const fs::path& path, int version) {
  std::string sql = "PRAGMA application_id = " + std::to_string(k_application_id) + ";";
  for (const MigrationStep& step : migration_steps()) {
    if (step.version <= version) {
      sql += render_sql(step.sql, Dialect::sqlite);
    }
  }
  sql += "PRAGMA user_version = " + std::to_string(version) + ";";
  run_sql(path, sql.c_str());
}

TEST_CASE("opening a schema 1 database re-keys machines recorded from reports", "[history]") {
  TempDir dir;
  const auto path = dir / "old.sqlite";
  make_old_database(path, 1);
  const std::string legacy = "vm | AMD EPYC | Linux 6.18.44-fc x86_64";  // the old report formula
  const std::string free_text = "ci-a | Linux 6.1 x86_64 | x";           // --machine text is left alone
  const std::string insert = "INSERT INTO records VALUES (1, '2026-11-01T00:00:00Z', 'c1', 'main', '" +
                             legacy + "', '" + perfduel::machine_id(legacy) +
                             "', 'report', NULL, NULL);"
                             "INSERT INTO records VALUES (2, '2026-11-02T00:00:00Z', 'c2', 'main', '" +
                             free_text + "', '" + perfduel::machine_id(free_text) +
                             "', 'report', NULL, NULL);"
                             "INSERT INTO measurements (record_id, metric, value, samples) VALUES "
                             "(1, 'wall_time', 1.0, '[1.0]'), (2, 'wall_time', 1.0, '[1.0]');";
  run_sql(path, insert.c_str());

  auto store = SqliteStore::open(path, CreateFile::no);
  REQUIRE(store);
  const auto series = store.value().series("wall_time", std::nullopt);
  REQUIRE(series);
  REQUIRE(series->size() == 2);
  CHECK((*series)[0].machine_id == perfduel::machine_fingerprint("vm", "AMD EPYC", "6.18.44-fc").id);
  CHECK((*series)[1].machine_id == perfduel::machine_id(free_text));
  CHECK_FALSE((*series)[0].config_hash);
  // Migrated through to the current schema: run keys work.
  auto record = sample_record("wall_time", 3.0, "2026-11-03T00:00:00Z");
  record.run_key = "job-1";
  CHECK(store.value().append(record)->status == Appended::added);
  CHECK(store.value().append(record)->status == Appended::already_recorded);
  CHECK(*store.value().record_count() == 3);
}

TEST_CASE("a schema 2 database gains run keys and configuration hashes", "[history]") {
  TempDir dir;
  const auto path = dir / "v2.sqlite";
  make_old_database(path, 2);
  run_sql(
      path,
      "INSERT INTO records VALUES (1, '2026-11-01T00:00:00Z', 'c1', 'main', 'm', 'id', 'values', NULL, "
      "NULL); INSERT INTO measurements (record_id, metric, value, samples) VALUES (1, 'x', 2.5, '[2.5]');");
  auto store = SqliteStore::open(path, CreateFile::no);
  REQUIRE(store);
  auto record = sample_record("x", 3.0, "2026-11-02T00:00:00Z");
  record.run_key = "report-1@c2";
  record.config_hash = "abcdef012345";
  const auto first = store.value().append(record);
  REQUIRE(first);
  CHECK(first->status == Appended::added);
  const auto series = store.value().series("x", std::nullopt);
  REQUIRE(series->size() == 2);
  CHECK((*series)[0].measurement.value == 2.5);
  CHECK((*series)[1].config_hash == "abcdef012345");

  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  CHECK(sqlite3_column_int(statement, 0) == k_schema_version);
  sqlite3_finalize(statement);
  sqlite3_close(raw);
}

TEST_CASE("a run key records once", "[history]") {
  TempDir dir;
  auto store = SqliteStore::open(dir / "h.sqlite", CreateFile::yes);
  REQUIRE(store);
  auto record = sample_record("wall_time", 1.0, "2026-11-01T00:00:00Z");
  record.run_key = "report-0123@abc";
  const auto first = store.value().append(record);
  REQUIRE(first);
  CHECK(first->status == Appended::added);
  record.measurements[0].value = 2.0;  // a retry measures nothing new: the first record stands
  const auto second = store.value().append(record);
  REQUIRE(second);
  CHECK(second->status == Appended::already_recorded);
  CHECK(second->id == first->id);
  CHECK(store.value().series("wall_time", std::nullopt)->at(0).measurement.value == 1.0);
  // Records without a key never clash.
  record.run_key.reset();
  CHECK(store.value().append(record)->status == Appended::added);
  CHECK(store.value().append(record)->status == Appended::added);
  CHECK(*store.value().record_count() == 3);
}

TEST_CASE("history locations: SQLite files and PostgreSQL URIs", "[history]") {
  CHECK(is_postgres_location("postgresql://db/perf"));
  CHECK(is_postgres_location("postgres://"));
  CHECK_FALSE(is_postgres_location("perfduel-history.sqlite"));
  CHECK_FALSE(is_postgres_location("postgresql.sqlite"));
  CHECK_FALSE(is_postgres_location("host=db dbname=perf"));

  CHECK(redact_location("history.sqlite") == "history.sqlite");
  CHECK(redact_location("postgresql://ci:s3cret@db:5432/perf") == "postgresql://ci:***@db:5432/perf");
  CHECK(redact_location("postgres://ci:p@ss:w@rd@db/perf") == "postgres://ci:***@db/perf");
  CHECK(redact_location("postgresql://ci@db/perf") == "postgresql://ci@db/perf");
  CHECK(redact_location("postgresql://ci:a/b@db/perf") == "postgresql://ci:***@db/perf");
  CHECK(redact_location("postgresql://db:5432/perf") == "postgresql://db:5432/perf");
  CHECK(redact_location("postgresql:///perf?host=/run/pg&password=s3cret&sslmode=require") ==
        "postgresql:///perf?host=/run/pg&password=***&sslmode=require");
  CHECK(redact_location("postgresql://u:one@db/perf?password=two") ==
        "postgresql://u:***@db/perf?password=***");
  CHECK(redact_location("postgresql://db?password=") == "postgresql://db?password=***");
}

TEST_CASE("an unreachable PostgreSQL server: the error hides the password", "[history]") {
  const auto store =
      open_history_store("postgresql://ci:s3cret-pw@127.0.0.1:1/perf?connect_timeout=5", CreateFile::yes);
  REQUIRE_FALSE(store);
  CHECK(store.error().starts_with(
      "postgresql://ci:***@127.0.0.1:1/perf?connect_timeout=5: cannot connect to the history database: "));
  CHECK(store.error().find("s3cret-pw") == std::string::npos);
  CHECK(store.error().find('\n') == std::string::npos);
}

TEST_CASE("one statement text for both stores: parameters and byte order per dialect", "[history]") {
  CHECK(render_statement(k_rekey_machine, Dialect::postgresql) ==
        "UPDATE records SET machine = $1, machine_id = $2 WHERE id = CAST($3 AS BIGINT)");
  CHECK(render_statement(k_rekey_machine, Dialect::sqlite) ==
        "UPDATE records SET machine = ?1, machine_id = ?2 WHERE id = CAST(?3 AS BIGINT)");
  // Parameters past 9 keep their number; a dollar in a literal or a quoted name is text.
  CHECK(
      render_statement(R"(SELECT '$1', "$2", $10 FROM t WHERE a = 'it''s $3' AND b = $3)", Dialect::sqlite) ==
      R"(SELECT '$1', "$2", ?10 FROM t WHERE a = 'it''s $3' AND b = ?3)");
  CHECK(render_statement("SELECT name FROM t ORDER BY name {byte_order}", Dialect::sqlite) ==
        "SELECT name FROM t ORDER BY name COLLATE BINARY");
  CHECK(render_statement("SELECT name FROM t ORDER BY name {byte_order}", Dialect::postgresql) ==
        R"(SELECT name FROM t ORDER BY name COLLATE "C")");
}

namespace {

// A row of k_series given as text, NULL as nothing: what both stores' rows look like to the
// decoder.
class TextRow final : public ResultRow {
 public:
  explicit TextRow(std::vector<std::optional<std::string>> columns) : m_columns(std::move(columns)) {}
  std::string text(int column) const override { return m_columns.at(column).value_or(""); }
  std::optional<std::string> optional_text(int column) const override { return m_columns.at(column); }
  double number(int column) const override { return std::stod(text(column)); }
  std::optional<double> optional_number(int column) const override {
    return m_columns.at(column) ? std::optional<double>(number(column)) : std::nullopt;
  }
  std::int64_t integer(int column) const override { return std::stoll(text(column)); }

 private:
  std::vector<std::optional<std::string>> m_columns;
};

}  // namespace

TEST_CASE("a series row is decoded once for both stores, NULLs as nothing", "[history]") {
  const SeriesPoint full =
      decode_series_row(TextRow({"7", "2026-11-01T00:00:00Z", "abc", "main", "m1", "s", "lower", "1.5",
                                 "[1.5,1.6]", "1.4", "0.07", "0.01", "0.12", "regression", "cfg123"}),
                        "wall_time");
  CHECK(full.record_id == 7);
  CHECK(full.recorded_at == "2026-11-01T00:00:00Z");
  CHECK(full.commit == "abc");
  CHECK(full.branch == "main");
  CHECK(full.machine_id == "m1");
  CHECK(full.measurement.metric == "wall_time");
  CHECK(full.measurement.unit == "s");
  CHECK(full.measurement.direction == "lower");
  CHECK(full.measurement.value == 1.5);
  CHECK(full.measurement.samples == std::vector<double>{1.5, 1.6});
  CHECK(full.measurement.baseline == 1.4);
  CHECK(full.measurement.change == 0.07);
  CHECK(full.measurement.ci_low == 0.01);
  CHECK(full.measurement.ci_high == 0.12);
  CHECK(full.measurement.verdict == "regression");
  CHECK(full.config_hash == "cfg123");
  const SeriesPoint sparse = decode_series_row(
      TextRow({"8", "2026-11-02T00:00:00Z", std::nullopt, std::nullopt, "m1", std::nullopt, std::nullopt, "2",
               "[]", std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt}),
      "x");
  CHECK_FALSE(sparse.commit);
  CHECK_FALSE(sparse.branch);
  CHECK_FALSE(sparse.measurement.unit);
  CHECK_FALSE(sparse.measurement.baseline);
  CHECK_FALSE(sparse.measurement.ci_high);
  CHECK_FALSE(sparse.measurement.verdict);
  CHECK_FALSE(sparse.config_hash);
  CHECK(sparse.measurement.samples.empty());
}
