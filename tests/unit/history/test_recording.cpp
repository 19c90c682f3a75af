#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "history/recording.hpp"
#include "machine/facts.hpp"

using namespace perfduel::history;

TEST_CASE("plain measurements make a record of their median", "[history]") {
  const Record record = record_of_values("parse", {3.0, 1.0, 2.0, 10.0, 2.5}, std::string("s"),
                                         perfduel::stats::Direction::higher_is_better);
  CHECK(record.source == "values");
  REQUIRE(record.measurements.size() == 1);
  const Measurement& m = record.measurements[0];
  CHECK(m.metric == "parse");
  CHECK(m.value == 2.5);
  CHECK(m.samples == std::vector<double>{3.0, 1.0, 2.0, 10.0, 2.5});
  CHECK(m.unit == "s");
  CHECK(m.direction == "higher");
  CHECK_FALSE(record_of_values("parse", {1.0}, std::nullopt, std::nullopt).measurements[0].direction);
}

TEST_CASE("a record's provenance: what is given, else the report's, and its run key per commit",
          "[history]") {
  Record record;
  record.recorded_at = "2026-11-21T10:00:00Z";  // the report's start
  record.machine = "h | Xeon | 6.1";            // the report's machine
  record.run_key = "report-abc";
  GivenProvenance given;
  given.commit = "c0ffee";
  given.branch = "main";
  fill_provenance(record, given);
  CHECK(record.recorded_at == "2026-11-21T10:00:00Z");
  CHECK(record.commit == "c0ffee");
  CHECK(record.branch == "main");
  CHECK(record.machine == "h | Xeon | 6.1");
  CHECK(record.machine_id == perfduel::machine_id("h | Xeon | 6.1"));
  CHECK(record.run_key == "report-abc@c0ffee");
  CHECK_FALSE(record.config_hash);

  Record told;
  told.run_key = "report-abc";
  given.time = "2026-01-02";
  given.machine = "laptop";
  given.run_id = "job-7";
  given.config_hash = "0123456789ab";
  fill_provenance(told, given);
  CHECK(told.recorded_at == "2026-01-02");
  CHECK(told.machine == "laptop");
  CHECK(told.machine_id == perfduel::machine_id("laptop"));
  CHECK(told.run_key == "job-7");
  CHECK(told.config_hash == "0123456789ab");
}
