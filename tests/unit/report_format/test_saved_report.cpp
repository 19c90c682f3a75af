// The saved report as one module: what the writer (report_to_json) writes, the reader
// (report_from_json_lenient) reads back, and every output carries the same notes of a duel.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "report/html_run.hpp"
#include "report/suite_summary.hpp"
#include "report/table.hpp"
#include "report_format/json_report.hpp"
#include "report_format/report_notes.hpp"
#include "report_format/saved_report.hpp"
#include "support/made_up_duels.hpp"
#include "util/text.hpp"

using namespace perfduel;

namespace {

// A made-up duel of the default metrics on a loaded machine, pinned to one CPU, so that it has
// notes of every kind: the analysis's, the settings', the machine's.
struct NotedDuel {
  Config config = default_config();
  DuelOutcome outcome = testing::made_up_duel(config, 20, testing::tiny_rss_change);
  RunSummary summary;

  NotedDuel() {
    outcome.notes.push_back({NoteWeight::key, "a note the duel made while it ran"});
    summary.config = &config;
    summary.outcome = &outcome;
    summary.environment.cpu_count = 2;
    summary.environment.load = {3.5, 3.0, 2.0};
    summary.pinning.cpus = {1};
    summary.pinning.reason = "CPU 1 (the least loaded)";
  }
};

// The lines of `text` that start with `prefix`, without it.
std::vector<std::string> lines_after(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& line : util::split_lines(text)) {
    if (line.starts_with(prefix)) {
      found.push_back(line.substr(prefix.size()));
    }
  }
  return found;
}

}  // namespace

TEST_CASE("the JSON report, the Markdown and the HTML page carry every note the table has", "[report]") {
  const NotedDuel duel;
  const auto notes = note_texts(duel_report_notes(duel.summary));
  REQUIRE(notes.size() > 5);  // more than the table shows by default
  // The verbose table shows them all, in the one order.
  CHECK(lines_after(format_table(duel.summary, Verbosity::verbose), "note: ") == notes);
  // The default table abbreviates, and says where the rest are: the JSON has every one.
  const auto json = report_to_json(duel.summary);
  CHECK(json["notes"].get<std::vector<std::string>>() == notes);
  const auto shown = lines_after(format_table(duel.summary), "note: ");
  REQUIRE_FALSE(shown.empty());
  CHECK_THAT(shown.back(), Catch::Contains("more notes (settings, levels, how each metric settled): "
                                           "--verbose, or the JSON report"));
  const SavedReport saved = report_from_json_lenient(json);
  CHECK(saved.notes == notes);
  const auto page = duel_page(saved, "gate");
  CHECK(page.data["gates"][0]["duel"]["notes"].get<std::vector<std::string>>() == notes);
  const auto markdown = format_markdown(duel.summary);
  for (const auto& note : notes) {
    INFO(note);
    CHECK_THAT(markdown, Catch::Contains("- " + note + "\n"));
  }
  CHECK_THAT(markdown, Catch::Contains("a note the duel made while it ran"));
  CHECK_THAT(markdown, Catch::Contains("machine load 3.50 on 2 CPUs"));
}

TEST_CASE("a max_rss below the driver's own peak is a note, not a row", "[report]") {
  NotedDuel duel;
  duel.summary.environment.driver_peak_rss_bytes = 200.0 * 1024 * 1024;  // above the programs' 100 MiB
  const auto table = format_table(duel.summary);
  CHECK(lines_after(table, "max_rss ").empty());
  CHECK_THAT(table,
             Catch::Contains("note: max_rss: the programs' peak memory is below what perfduel itself "
                             "uses (200.0 MiB, which Linux reports as the least max RSS of any child it "
                             "starts), so it cannot be measured this way"));
  CHECK_THAT(format_markdown(duel.summary), !Catch::Contains("| max_rss |"));
  // Nor do the lines under the table name it.
  for (const auto& line : lines_after(table, "change, interval: ")) {
    CHECK_THAT(line, !Catch::Contains("max_rss"));
  }
  const auto json = report_to_json(duel.summary);
  CHECK(json["metrics"][3]["name"] == "max_rss");
  CHECK(json["metrics"][3]["at_driver_floor"] == true);
  CHECK_FALSE(json["metrics"][0].contains("at_driver_floor"));
  const SavedReport saved = report_from_json_lenient(json);
  CHECK(saved.metrics[3].at_driver_floor);
  const auto page = duel_page_data(saved);
  for (const auto& metric : page["metrics"]) {
    CHECK(metric["name"] != "max_rss");
  }
  // Above the driver's peak: a row, and no note.
  duel.summary.environment.driver_peak_rss_bytes = 20.0 * 1024 * 1024;
  CHECK(lines_after(format_table(duel.summary), "max_rss ").size() == 1);
  CHECK_THAT(format_table(duel.summary, Verbosity::verbose), !Catch::Contains("below what perfduel"));
}

TEST_CASE("a gate of identical programs says so in the summary, not +0 % in [+0 %, +0 %]", "[report]") {
  const auto json = nlohmann::ordered_json::parse(R"({
    "verdict": "no-change", "end": "identical-programs", "measured_rounds": 0,
    "programs": {"compared": "identical", "baseline": {"sha256": "abc"}},
    "metrics": [{"name": "wall_time", "gated": true, "change": 0.0, "ci": [0.0, 0.0],
                 "verdict": "no-change", "settled_by": "identical-programs"}]})");
  const std::vector<GateResult> gates{gate_result(report_from_json_lenient(json), "same", "same.json")};
  REQUIRE(gates[0].identical);
  const auto table = format_suite_table(gates);
  CHECK_THAT(table, Catch::Contains("wall_time       -  identical programs, not measured"));
  CHECK_THAT(table, !Catch::Contains("+0.00 %"));
  CHECK_THAT(format_suite_markdown(gates),
             Catch::Contains("| same | **no-change** | wall_time | - | identical programs, not measured |"));
}

TEST_CASE("a regression the sign test settled names the test beside its interval", "[report]") {
  const auto json = nlohmann::ordered_json::parse(R"({
    "verdict": "regression", "end": "regression-found", "measured_rounds": 9,
    "metrics": [{"name": "wall_time", "direction": "lower", "gated": true, "change": 0.751,
                 "ci": [-0.205, 2.856], "verdict": "regression", "settled_by": "sign sequence",
                 "signs": {"beyond": 9, "rounds": 9, "by_more_than": 0.02,
                           "shown_instead_of_interval": true}}]})");
  const auto gate = gate_result(report_from_json_lenient(json), "slow", "slow.json");
  CHECK(gate.metrics[0].interval == "sign test: 9 of 9 rounds > +2.00 %");
  const auto page = duel_page_data(report_from_json_lenient(json));
  CHECK(page["metrics"][0]["verdict"] == "regression (sign test: 9 of 9 rounds > +2.00 %)");
  CHECK(page["metrics"][0]["ci"] == nlohmann::json::array({-0.205, 2.856}));
}

TEST_CASE("what the writer writes of a metric, the reader reads back; an old report still reads",
          "[report]") {
  const NotedDuel duel;
  const SavedReport saved = report_from_json_lenient(report_to_json(duel.summary));
  REQUIRE(saved.metrics.size() == duel.outcome.analysis.metrics.size());
  for (std::size_t m = 0; m < saved.metrics.size(); ++m) {
    const auto& written = duel.outcome.analysis.metrics[m];
    const auto& read = saved.metrics[m];
    INFO(written.spec.name);
    CHECK(read.name == written.spec.name);
    CHECK(read.unit == written.spec.unit);
    CHECK(read.gated == (written.spec.gating == Gating::gated));
    CHECK(read.verdict == to_string(written.verdict));
    CHECK(read.candidate_median == written.candidate_median);
    CHECK(read.rounds == static_cast<int>(written.estimate.rounds));
    if (written.estimate.status == stats::EstimateStatus::ok) {
      REQUIRE(read.ci);
      CHECK(read.ci->lo == written.ci.lo);
      CHECK(read.ci->hi == written.ci.hi);
    }
  }
  CHECK(saved.verdict == overall_verdict(duel.outcome));
  CHECK(saved.end_name == to_string(duel.outcome.end));
  CHECK(saved.measured_rounds == duel.outcome.analysis.measured_rounds);
  CHECK(saved.runs.size() == duel.outcome.runs.size());
  CHECK(run_value(saved, saved.runs[1], "wall_time") == duel.outcome.runs[1].values[0]);
  // A report from before most fields: what it lacks is empty, and nothing throws.
  const SavedReport old = report_from_json_lenient(nlohmann::ordered_json::parse(
      R"({"verdict": "no-change", "metrics": [{"name": "m", "change": "?", "ci": [1]}], "runs": [{}]})"));
  CHECK(old.has_metrics);
  CHECK(old.end == DuelEnd::decided);
  REQUIRE(old.metrics.size() == 1);
  CHECK_FALSE(old.metrics[0].change);
  CHECK_FALSE(old.metrics[0].ci);
  CHECK_FALSE(old.metrics[0].verdict);
  CHECK(old.runs.empty());
  CHECK_FALSE(report_from_json_lenient(nlohmann::ordered_json::array()).has_metrics);
}

TEST_CASE("a report an earlier perfduel wrote reads the same through every reader", "[report]") {
  const std::filesystem::path file =
      std::filesystem::path(PERFDUEL_TEST_DATA_DIR) / "../fuzz/corpus/report_json/compare_report.json";
  const SavedReport saved = load_report_lenient(file);
  CHECK(saved.verdict == "inconclusive");
  CHECK(saved.end == DuelEnd::round_budget);
  CHECK(saved.measured_rounds == 4);
  CHECK(saved.baseline_command.front() == "./fake_bench");
  REQUIRE_FALSE(saved.metrics.empty());
  CHECK(saved.metrics[0].name == "wall_time");
  CHECK(saved.metrics[0].direction == "lower");
  CHECK(saved.metrics[0].gated);
  // The strict reader of `analyze` finds the same runs, by the configuration's metrics.
  const SavedReport again = load_report_strict(file);
  CHECK(again.runs.size() == saved.runs.size());
  CHECK(again.verdict == saved.verdict);
  const auto gates = read_gate_results({file});
  REQUIRE(gates.size() == 1);
  CHECK(gates[0].verdict == "inconclusive");
  CHECK(gates[0].rounds == 4);
}
