#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "error.hpp"
#include "report/suite_summary.hpp"
#include "report_format/json_report.hpp"
#include "support/made_up_duels.hpp"

using namespace perfduel;

namespace {

// A file `name` with `content` in the temporary directory, removed at the end of the test.
class TemporaryFile {
 public:
  TemporaryFile(const std::string& name, const std::string& content)
      : m_path(std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name)) {
    std::ofstream(m_path) << content;
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() { std::filesystem::remove(m_path); }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

// A minimal report: the default configuration and one round of `side_a` and `side_b` runs.
nlohmann::ordered_json report(const std::string& end = "decided", const std::string& side_b = "candidate") {
  const nlohmann::ordered_json values = {
      {"wall_time", 1.0}, {"user_time", 0.5}, {"system_time", 0.1}, {"max_rss", 1e6}};
  return {{"end", end},
          {"config", nlohmann::ordered_json::object()},
          {"runs",
           {{{"round", 0}, {"side", "baseline"}, {"warmup", false}, {"values", values}},
            {{"round", 0}, {"side", side_b}, {"warmup", false}, {"values", values}}}}};
}

}  // namespace

TEST_CASE("a report's configuration, runs and end are read back", "[report]") {
  auto json = report("round-budget");
  json["elapsed_seconds"] = 3.5;
  json["seed"] = 42;
  const auto saved = report_from_json_strict(json, "r.json");
  CHECK(saved.end == DuelEnd::round_budget);
  CHECK(saved.elapsed_seconds == 3.5);
  CHECK(saved.seed == 42);
  REQUIRE(saved.runs.size() == 2);
  CHECK(saved.runs[0].side == Side::baseline);
  CHECK(saved.runs[1].side == Side::candidate);
  CHECK(saved.runs[1].values == std::vector<double>{1.0, 0.5, 0.1, 1e6});
}

TEST_CASE("every duel end's name reads back to it", "[report]") {
  for (const auto& [end, name] : k_duel_end_names) {
    CHECK(to_string(end) == name);
    CHECK(report_from_json_strict(report(std::string(name)), "r.json").end == end);
  }
  CHECK(report_from_json_strict(nlohmann::ordered_json{{"config", nlohmann::ordered_json::object()},
                                                       {"runs", nlohmann::ordered_json::array()}},
                                "old.json")
            .end == DuelEnd::decided);  // reports without "end" predate it
}

TEST_CASE("report loading errors name the file and the problem", "[report]") {
  REQUIRE_THROWS_WITH(report_from_json_strict(nlohmann::ordered_json::array(), "r.json"),
                      "r.json: not a JSON report (is it the file written by compare --json?)");
  REQUIRE_THROWS_WITH(report_from_json_strict({{"runs", nlohmann::ordered_json::array()}}, "r.json"),
                      "r.json: the report has no \"config\"; it was not written by perfduel compare --json");
  REQUIRE_THROWS_WITH(report_from_json_strict({{"config", nlohmann::ordered_json::object()}}, "r.json"),
                      "r.json: the report has no \"runs\"; it was not written by perfduel compare --json");
  REQUIRE_THROWS_WITH(
      report_from_json_strict(report("sideways"), "r.json"),
      "r.json: unknown \"end\" \"sideways\" (one of decided, regression-found, round-budget, time-budget, "
      "benchmark-failed, interrupted, runs-ended, futile, identical-programs)");
  REQUIRE_THROWS_WITH(report_from_json_strict(report("decided", "contender"), "r.json"),
                      "r.json: run 2 has an unknown \"side\" \"contender\" (one of baseline, candidate)");
  auto no_values = report();
  no_values["runs"][1].erase("values");
  REQUIRE_THROWS_WITH(report_from_json_strict(no_values, "r.json"),
                      "r.json: run 2 is malformed: [json.exception.out_of_range.403] key 'values' not found");
  auto bad_config = report();
  bad_config["config"] = {{"warmup_runs", 3}};
  REQUIRE_THROWS_WITH(report_from_json_strict(bad_config, "r.json"),
                      "r.json (config):1: unknown key \"warmup_runs\" (did you mean \"warmup\"?)");
}

TEST_CASE("a report file that is missing or not JSON is an error naming it", "[report]") {
  const TemporaryFile bad("bad.json", "{\"config\": ");
  const auto path = bad.path().string();
  REQUIRE_THROWS_WITH(read_report_json(bad.path()),
                      path + ": not valid JSON (write the report with `perfduel compare --json FILE`)");
  REQUIRE_THROWS_WITH(load_report_strict(bad.path()),
                      path + ": not valid JSON (write the report with `perfduel compare --json FILE`)");
  REQUIRE_THROWS_WITH(read_report_json("/nonexistent/r.json"), "/nonexistent/r.json: cannot read the report");
  const TemporaryFile good("good.json", report().dump());
  CHECK(load_report_strict(good.path()).runs.size() == 2);
}

TEST_CASE("summary reads reports through the one reader, with its messages", "[report]") {
  const TemporaryFile bad("bad_gate.json", "{\"verdict\": ");
  REQUIRE_THROWS_WITH(
      read_gate_results({bad.path()}),
      bad.path().string() + ": not valid JSON (write the report with `perfduel compare --json FILE`)");
  const TemporaryFile other("other_gate.json", "{\"verdict\": 1}");
  REQUIRE_THROWS_WITH(
      read_gate_results({other.path()}),
      other.path().string() + ": not a perfduel report (expected the JSON written by compare --json)");
  auto json = report();
  json["verdict"] = "no-change";
  json["measured_rounds"] = 1;
  json["metrics"] = nlohmann::ordered_json::array({{{"name", "wall_time"},
                                                    {"gated", true},
                                                    {"change", 0.01},
                                                    {"ci", {-0.02, 0.04}},
                                                    {"verdict", "no-change"}}});
  const TemporaryFile good("good_gate.json", json.dump());
  const auto gates = read_gate_results({good.path()});
  REQUIRE(gates.size() == 1);
  CHECK(gates[0].verdict == "no-change");
  REQUIRE(gates[0].metrics.size() == 1);
  CHECK(gates[0].metrics[0].interval == "[-2.00 %, +4.00 %]");
}

TEST_CASE("the JSON report: a report-only metric's tiny certain change is no change", "[report]") {
  const Config config = default_config();
  DuelOutcome outcome = testing::made_up_duel(config, 20, testing::tiny_rss_change);
  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  auto json = report_to_json(summary);
  const auto& rss = json["metrics"][3];
  REQUIRE(rss["name"] == "max_rss");
  CHECK(rss["gated"] == false);
  CHECK(rss["ci"][0].get<double>() > 0);  // certain, and tiny
  CHECK(rss["tolerance"].get<double>() == Approx(0.01));
  CHECK(rss["verdict"] == "no-change");
  // The saved configuration keeps the tolerance, so analyze re-decides the same way.
  CHECK(json["config"]["metrics"]["max_rss"]["tolerance"].get<double>() == Approx(0.01));
  CHECK_FALSE(json.contains("error_stdout"));

  // A metric that could not be read: the stdout it was looked for in is kept.
  outcome.end = DuelEnd::benchmark_failed;
  outcome.failure = "metric \"score\": no match";
  outcome.failure_stdout = "checksum 1\n";
  json = report_to_json(summary);
  CHECK(json["error_stdout"] == "checksum 1\n");
}
