#include <catch2/catch.hpp>

#include "history/provenance.hpp"
#include "machine/facts.hpp"
#include "util/json_file.hpp"

using namespace perfduel::history;

TEST_CASE("provenance helpers", "[history]") {
  CHECK(is_iso_time("2026-11-21"));
  CHECK(is_iso_time("2026-11-21T10:00:00Z"));
  CHECK_FALSE(is_iso_time("21.11.2026"));
  CHECK_FALSE(is_iso_time("2026-11-21T"));
  CHECK(is_iso_time(perfduel::util::now_iso8601()));
  CHECK(perfduel::machine_id("a") == perfduel::machine_id("a"));
  CHECK(perfduel::machine_id("a") != perfduel::machine_id("b"));
  CHECK(perfduel::machine_id("a").size() == 16);
}
