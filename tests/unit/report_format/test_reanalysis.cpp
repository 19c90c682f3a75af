#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "report_format/reanalysis.hpp"

using namespace perfduel;

namespace {

// A saved report of identical programs: one note the duel made, the default configuration.
SavedReport identical_programs_report() {
  const nlohmann::ordered_json json = {{"end", "identical-programs"},
                                       {"config", nlohmann::ordered_json::object()},
                                       {"duel_notes", {"a note the duel made"}},
                                       {"elapsed_seconds", 0.25},
                                       {"seed", 7},
                                       {"runs", nlohmann::ordered_json::array()}};
  return report_from_json_strict(json, "saved.json");
}

}  // namespace

TEST_CASE("a re-analysis says first what it is, and keeps the duel's notes under the same settings",
          "[report][reanalysis]") {
  const SavedReport saved = identical_programs_report();
  Reanalysis reanalysis;
  reanalysis.report = "saved.json";
  const DuelOutcome outcome = reanalyze(saved, saved.config, reanalysis);
  CHECK(outcome.end == DuelEnd::identical);
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  CHECK(outcome.seed == 7);
  CHECK(outcome.elapsed_seconds == 0.25);
  REQUIRE_FALSE(outcome.analysis.notes.empty());
  CHECK(outcome.analysis.notes.front().text == "re-analysis of saved.json with the report's settings");
  REQUIRE(outcome.notes.size() == 1);
  CHECK(outcome.notes.front().text == "a note the duel made");

  const RunSummary summary = reanalysis_summary(saved, saved.config, outcome, reanalysis);
  CHECK(summary.outcome == &outcome);
  CHECK(summary.exit_code == ExitCode::pass);
  REQUIRE(summary.reanalysis);
  CHECK(summary.reanalysis->report == "saved.json");
}

TEST_CASE("a re-analysis with other settings names them and drops the duel's own notes",
          "[report][reanalysis]") {
  const SavedReport saved = identical_programs_report();
  Reanalysis reanalysis;
  reanalysis.report = "saved.json";
  reanalysis.settings = {"gate.yaml", "--threshold"};
  reanalysis.changes = {"wall_time: threshold 1 % (was 2 %)"};
  reanalysis.ignored = {"max_rounds"};
  const DuelOutcome outcome = reanalyze(saved, saved.config, reanalysis);
  REQUIRE_FALSE(outcome.analysis.notes.empty());
  CHECK(outcome.analysis.notes.front().text ==
        "re-analysis of saved.json with settings from gate.yaml, --threshold: wall_time: threshold 1 % (was "
        "2 %); ignored: max_rounds (a budget bounded the duel, not its analysis)");
  CHECK(outcome.notes.empty());
}

TEST_CASE("a re-analysis's settings: the file, then each option once, and what they changed",
          "[report][reanalysis]") {
  const SavedReport saved = identical_programs_report();
  const std::vector<GivenSetting> given{{"threshold", "", "1%", "--threshold"},
                                        {"threshold", "wall_time", "3%", "--threshold"},
                                        {"confidence", "", "0.99", "--confidence"}};
  const auto [config, reanalysis] =
      reanalysis_settings(saved, "saved.json", GivenConfigFile{"gate.yaml", "max_rounds: 50\n"}, given);
  CHECK(reanalysis.report == "saved.json");
  CHECK(reanalysis.settings == std::vector<std::string>{"gate.yaml", "--threshold", "--confidence"});
  CHECK(reanalysis.ignored == std::vector<std::string>{"max_rounds"});
  CHECK(reanalysis.changes == settings_changes(saved.config, config));
  CHECK_FALSE(reanalysis.changes.empty());
  CHECK(config.confidence == 0.99);
  for (const auto& metric : config.metrics) {
    INFO(metric.name);
    CHECK(metric.threshold == (metric.name == "wall_time" ? 0.03 : 0.01));
  }
}
