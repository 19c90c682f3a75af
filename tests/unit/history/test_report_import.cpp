#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "history/report_import.hpp"
#include "machine/facts.hpp"
#include "report_format/saved_report.hpp"

using namespace perfduel::history;

namespace {

// The history's reading of the JSON report `report`, through the report's one reader.
perfduel::util::Expected<Record> record_of(const nlohmann::ordered_json& report, std::string_view source) {
  return record_from_report(perfduel::report_from_json_lenient(report), source);
}

std::string run_key_of(const nlohmann::ordered_json& report) {
  return report_run_key(perfduel::report_from_json_lenient(report));
}

std::optional<std::string> config_hash_of(const nlohmann::ordered_json& report) {
  return report_config_hash(perfduel::report_from_json_lenient(report));
}

}  // namespace

TEST_CASE("a compare report becomes a record", "[history]") {
  const auto report = nlohmann::json::parse(R"({
    "perfduel_version": "0.1.0", "verdict": "regression", "started": "2026-11-21T10:00:00Z",
    "metrics": [{"name": "wall_time", "unit": "s", "direction": "lower", "baseline_median": 0.01,
                 "candidate_median": 0.0103, "change": 0.031, "ci": [0.02, 0.04], "verdict": "regression"}],
    "environment": {"host": "h", "cpu_model": "Xeon", "kernel": "6.1"},
    "runs": [{"round": 0, "side": "candidate", "warmup": true, "values": {"wall_time": 0.02}},
             {"round": 1, "side": "baseline", "warmup": false, "values": {"wall_time": 0.0101}},
             {"round": 1, "side": "candidate", "warmup": false, "values": {"wall_time": 0.0102}},
             {"round": 2, "side": "candidate", "warmup": false, "values": {"wall_time": 0.0104}}]})");
  const auto record = record_of(report, "r.json");
  REQUIRE(record);
  CHECK(record->recorded_at == "2026-11-21T10:00:00Z");
  CHECK(record->verdict == "regression");
  CHECK(record->machine == "h | Xeon | 6.1");
  REQUIRE(record->measurements.size() == 1);
  const Measurement& m = record->measurements[0];
  CHECK(m.value == 0.0103);
  CHECK(m.baseline == 0.01);
  CHECK(m.ci_low == 0.02);
  CHECK(m.ci_high == 0.04);
  CHECK(m.samples == std::vector<double>{0.0102, 0.0104});

  const auto not_report = record_of(nlohmann::json::parse(R"({"a": 1})"), "x.json");
  REQUIRE_FALSE(not_report);
  CHECK(not_report.error() ==
        "x.json: not a perfduel compare report (no \"metrics\" array; write one with `perfduel compare "
        "--json`)");
  const auto no_median = record_of(nlohmann::json::parse(R"({"metrics": [{"name": "m"}]})"), "y.json");
  REQUIRE_FALSE(no_median);
  CHECK(no_median.error() == "y.json: metric \"m\" has no \"candidate_median\"");
}

TEST_CASE("an old report's uname kernel gives the same machine as --metric", "[history]") {
  const auto report = nlohmann::json::parse(R"({
    "metrics": [{"name": "wall_time", "candidate_median": 0.01}],
    "environment": {"host": "vm", "cpu_model": "AMD EPYC", "kernel": "Linux 6.18.44-fc x86_64"}})");
  const auto record = record_of(report, "r.json");
  REQUIRE(record);
  CHECK(record->machine == "vm | AMD EPYC | 6.18.44-fc");
  CHECK(record->machine == perfduel::machine_fingerprint("vm", "AMD EPYC", "6.18.44-fc").description);
}

TEST_CASE("a report's run key and configuration hash", "[history]") {
  auto report = nlohmann::ordered_json::parse(R"({
    "started": "2026-11-21T10:00:00Z", "seed": 7,
    "metrics": [{"name": "wall_time", "candidate_median": 0.01}],
    "config": {"candidate": {"command": ["/runner/1/build/bench", "--size", "10"], "shell": false,
                             "working_directory": "/runner/1/build"},
               "confidence": 0.95}})");
  const auto record = record_of(report, "r.json");
  REQUIRE(record);
  CHECK(record->run_key == run_key_of(report));
  CHECK(record->run_key->starts_with("report-"));
  REQUIRE(record->config_hash);
  CHECK(record->config_hash->size() == 12);

  // Another runner's build tree: the same configuration.
  auto elsewhere = report;
  elsewhere["config"]["candidate"]["command"][0] = "/home/ci/work/build/bench";
  elsewhere["config"]["candidate"]["working_directory"] = "/home/ci/work/build";
  CHECK(config_hash_of(elsewhere) == record->config_hash);
  CHECK(run_key_of(elsewhere) != record->run_key);
  // Other arguments or thresholds: another configuration.
  auto other = report;
  other["config"]["candidate"]["command"][2] = "20";
  CHECK(config_hash_of(other) != record->config_hash);
  other = report;
  other["config"]["confidence"] = 0.99;
  CHECK(config_hash_of(other) != record->config_hash);
  // Another run (another seed): another key.
  other = report;
  other["seed"] = 8;
  CHECK(run_key_of(other) != record->run_key);
  CHECK_FALSE(config_hash_of(nlohmann::ordered_json::parse(R"({"metrics": []})")));
}
