#include <string>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "report/html_run.hpp"
#include "report_format/saved_report.hpp"

using namespace perfduel;

namespace {

// A duel whose counted metric regressed and was attributed to a function, whose report-only
// metric did not change, and whose timed metric's instructions did not explain its regression.
const char* const k_explained_report = R"json({
  "verdict": "regression", "end": "regression-found", "measured_rounds": 3,
  "baseline": {"command": ["./base"]}, "candidate": {"command": ["./slow"]},
  "metrics": [{"name": "insns", "unit": "", "gated": true, "change": 1.5, "verdict": "regression"},
              {"name": "est_cycles", "unit": "", "gated": false, "change": 0.0, "verdict": "no-change"},
              {"name": "wall_time", "unit": "s", "gated": true, "change": 0.2, "verdict": "regression"}],
  "runs": [],
  "explanations": [
    {"metric": "insns", "benchmark": "", "event": "instructions", "basis": "counted", "metric_change": 1.5,
     "reading": "explained", "baseline_total": 1000, "candidate_total": 2500,
     "functions": [{"name": "sortlib::quick_sort(std::span<unsigned int, 18446744073709551615ul>)",
                    "source_file": "/src/sort.cpp", "source_line": 14, "change": "changed",
                    "baseline": 600, "candidate": 2100, "share": 1.0}],
     "moves": [],
     "tree": [["all", -1, 1000, 2500], ["main", 0, 1000, 2500],
              ["sortlib::quick_sort(std::span<unsigned int, 18446744073709551615ul>)", 1, 600, 2100]]},
    {"metric": "est_cycles", "event": "cycles", "reading": "explained", "baseline_total": 10,
     "candidate_total": 10, "functions": [], "tree": [["all", -1, 10, 10]]},
    {"metric": "wall_time", "benchmark": "", "event": "instructions", "basis": "profiled", "metric_change": 0.2,
     "reading": "not-by-counts", "baseline_total": 1000, "candidate_total": 1000,
     "functions": [{"name": "main", "change": "changed", "baseline": 1000, "candidate": 1000, "share": 1.0}],
     "tree": [["all", -1, 1000, 1000], ["main", 0, 1000, 1000]]}]})json";

}  // namespace

TEST_CASE("the run page's data carries where each regression happened", "[html]") {
  const auto data =
      duel_page_data(report_from_json_lenient(nlohmann::ordered_json::parse(k_explained_report)));
  const auto& explanations = data["explanations"];
  // The metric that did not change has nothing to say where.
  REQUIRE(explanations.size() == 2);

  const auto& insns = explanations[0];
  CHECK(insns["metric"] == "insns");
  CHECK(insns["reading"] == "explained");
  CHECK(insns["head"] == "insns: +150.00 % instructions (+1,500 per run)");
  CHECK(insns["instead"] == "");
  REQUIRE(insns["functions"].size() == 1);
  const auto& function = insns["functions"][0];
  const std::string name = "sortlib::quick_sort(std::span<unsigned int, 18446744073709551615ul>)";
  CHECK(function["name"] == name);
  CHECK(function["place"] == "sort.cpp:14");
  CHECK(function["change"] == "changed");
  CHECK(function["share"] == 1.0);
  CHECK(function["candidate"] == 2100.0);
  const auto tree = nlohmann::json::array({nlohmann::json::array({"all", -1, 1000.0, 2500.0}),
                                           nlohmann::json::array({"main", 0, 1000.0, 2500.0}),
                                           nlohmann::json::array({name, 1, 600.0, 2100.0})});
  CHECK(insns["tree"] == tree);

  // Instructions that do not explain a timed regression name no function, in the table or the tree.
  const auto& wall = explanations[1];
  CHECK(wall["reading"] == "not-by-counts");
  CHECK(wall["head"] ==
        "wall_time +20.00 %: one counted run a side: +0.00 % instructions, +0.00 % estimated cycles");
  CHECK(
      wall["instead"].get<std::string>().starts_with("neither instructions nor estimated cycles explain it"));
  CHECK(wall["functions"].empty());
  CHECK(wall["tree"].empty());
}

TEST_CASE("the run page's data of a duel without explanations has an empty list", "[html]") {
  const auto data = duel_page_data(report_from_json_lenient(nlohmann::ordered_json::parse(
      R"({"verdict": "no-change", "metrics": [{"name": "wall_time", "verdict": "no-change"}], "runs": []})")));
  CHECK(data["explanations"] == nlohmann::json::array());
}

TEST_CASE("the run page shows a count from or to 0 by its two sides, not n/a", "[html][allocations]") {
  const auto data = duel_page_data(report_from_json_lenient(nlohmann::ordered_json::parse(R"json({
    "verdict": "regression", "runs": [],
    "metrics": [{"name": "allocs", "unit": "allocs", "gated": true, "change": null, "ci": null,
                 "baseline_median": 0, "candidate_median": 3, "read_zero": "baseline", "verdict": "regression"},
                {"name": "bytes", "unit": "B", "gated": true, "change": 0.0, "verdict": "no-change"}]})json")));
  const auto& metrics = data["metrics"];
  REQUIRE(metrics.size() == 2);
  CHECK(metrics[0]["change_text"] == "0 → 3 allocs");
  CHECK(metrics[0]["verdict"] == "regression");
  CHECK(metrics[1]["change_text"].is_null());
}
