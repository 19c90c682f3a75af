// The SQLite store (history/sqlite_store.hpp): a new database and its round trip, several
// processes recording at once, the errors that name the file, the migrations of older schemas,
// run keys.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "history/schema.hpp"
#include "history/sqlite_store.hpp"
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
