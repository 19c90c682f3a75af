// Opening a history store by its location (history/store.hpp): SQLite files and PostgreSQL URIs.
#include <string>

#include <catch2/catch.hpp>

#include "history/store.hpp"

using namespace perfduel::history;

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
