// A count of allocations that reads 0 on every run of one side and above 0 on every run of the
// other: a regression (from 0) or an improvement (to 0) without a ratio, settled after a
// count's rounds, and shown as such in every report (duel/judging.cpp, duel/zero_readings.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/zero_readings.hpp"
#include "report/labels.hpp"
#include "report/table.hpp"
#include "report_format/json_report.hpp"
#include "report_format/reanalysis.hpp"
#include "report_format/saved_report.hpp"
#include "support/analysis_helpers.hpp"
#include "support/made_up_duels.hpp"
#include "util/text.hpp"

using namespace perfduel;
using perfduel::testing::has_note;
using perfduel::testing::runs_of;

namespace {

Config allocation_gate() {
  return parse_config("metrics:\n  allocs: {google_benchmark: BM_Zero, valgrind: allocations}\n",
                      "gate.yaml");
}

// A gate on BM_Loop's instructions (+5 %: a regression) and allocations (0 → 3, or 3 → 0 with
// `removed`), `rounds` rounds.
DuelOutcome two_metric_duel(int rounds, bool removed) {
  const Config config = parse_config(
      "metrics:\n  insns: {google_benchmark: BM_Loop, valgrind: instructions}\n"
      "  allocs: {google_benchmark: BM_Loop, valgrind: allocations}\n",
      "gate.yaml");
  return testing::made_up_duel(config, rounds, [&](std::size_t m, int, Side side) {
    if (config.metrics[m].name == "insns") {
      return 1000.0;
    }
    const bool zero = (side == Side::baseline) != removed;
    return zero ? 0.0 : 3.0;
  });
}

const MetricResult& metric_named(const Analysis& analysis, const std::string& name) {
  return *std::find_if(analysis.metrics.begin(), analysis.metrics.end(),
                       [&](const MetricResult& r) { return r.spec.name == name; });
}

}  // namespace

TEST_CASE("an allocation new to a loop that made none is a regression after a count's rounds",
          "[allocations][zeros]") {
  const Config config = allocation_gate();
  const std::vector<double> none(3, 0.0);
  const std::vector<double> three(3, 3.0);
  const Analysis analysis = analyze(config, runs_of(none, three), Finality::final);
  REQUIRE(analysis.metrics.size() == 1);
  const MetricResult& allocs = analysis.metrics.front();
  CHECK(allocs.verdict == Verdict::regression);
  CHECK(allocs.settled_by == SettledBy::count_of_zero);
  CHECK_FALSE(allocs.has_ratio);
  REQUIRE(allocs.zero_side);
  CHECK(*allocs.zero_side == Side::baseline);
  CHECK(allocs.min_rounds == 3);
  CHECK(allocs.baseline_median == 0);
  CHECK(allocs.candidate_median == 3);
  CHECK(allocs.estimate.note == "0 → 3 allocs/iter (new allocations in its loop)");
  CHECK(has_note(analysis, "allocs: 0 → 3 allocs/iter (new allocations in its loop)"));
  CHECK(analysis.verdict == Verdict::regression);
  CHECK(analysis.can_stop);
  CHECK(change_label(allocs) == "0 → 3 allocs/iter");
  CHECK(verdict_label(allocs) == "regression");

  // Two rounds are not a count's three: pending, not settled, and the duel goes on.
  const Analysis early = analyze(config, runs_of({0.0, 0.0}, {3.0, 3.0}), Finality::ongoing);
  CHECK(early.metrics.front().verdict == Verdict::pending);
  CHECK(early.metrics.front().settled_by == SettledBy::none);
  CHECK_FALSE(early.can_stop);
}

TEST_CASE("every allocation taken out of a loop is an improvement, without a ratio", "[allocations][zeros]") {
  const Analysis analysis =
      analyze(allocation_gate(), runs_of({1020.0, 1020.0, 1020.0}, {0.0, 0.0, 0.0}), Finality::final);
  const MetricResult& allocs = analysis.metrics.front();
  CHECK(allocs.verdict == Verdict::improvement);
  CHECK(allocs.settled_by == SettledBy::count_of_zero);
  REQUIRE(allocs.zero_side);
  CHECK(*allocs.zero_side == Side::candidate);
  CHECK(allocs.estimate.note == "1020 allocs/iter → 0 (no allocation left in its loop)");
  CHECK(analysis.verdict == Verdict::improvement);
}

TEST_CASE("a count from 0 that varies needs the configured rounds; one that is not all 0 is not from 0",
          "[allocations][zeros]") {
  const Config config = allocation_gate();
  // The candidate's counts differ by a third between runs: not a count's agreement, min_rounds 20.
  const std::vector<double> varying{3, 4, 3};
  const Analysis varies = analyze(config, runs_of({0, 0, 0}, varying), Finality::ongoing);
  CHECK(varies.metrics.front().min_rounds == 20);
  CHECK(varies.metrics.front().verdict == Verdict::pending);
  std::vector<double> none(20, 0.0);
  std::vector<double> counts(20, 3.0);
  counts[5] = 4;
  const Analysis enough = analyze(config, runs_of(none, counts), Finality::final);
  CHECK(enough.metrics.front().verdict == Verdict::regression);
  CHECK(enough.metrics.front().settled_by == SettledBy::count_of_zero);

  // One baseline run above 0: not a change from nothing; the zero rule judges it as before.
  std::vector<double> mostly_none(3, 0.0);
  mostly_none[1] = 1;
  const Analysis mixed = analyze(config, runs_of(mostly_none, {3, 3, 3}), Finality::ongoing);
  CHECK_FALSE(mixed.metrics.front().zero_side);
  CHECK(mixed.metrics.front().settled_by != SettledBy::count_of_zero);

  // A time that reads 0 on one side is below its resolution, never a count from 0.
  MetricSpec user = config.metrics.front();
  user.source = MetricSource::user_time;
  Readings readings;
  readings.zeros_baseline = 3;
  CHECK_FALSE(zero_side_of(user, readings, 3));
  CHECK(zero_side_of(config.metrics.front(), readings, 3) == Side::baseline);
}

TEST_CASE("a count from 0 beside other metrics: they are judged as ever, the gate fails",
          "[allocations][zeros][report]") {
  const DuelOutcome outcome = two_metric_duel(3, false);
  const Analysis& analysis = outcome.analysis;
  CHECK(metric_named(analysis, "insns").verdict == Verdict::no_change);
  CHECK(metric_named(analysis, "insns").has_ratio);
  CHECK(metric_named(analysis, "allocs").verdict == Verdict::regression);
  CHECK(analysis.verdict == Verdict::regression);

  Config config = parse_config(
      "metrics:\n  insns: {google_benchmark: BM_Loop, valgrind: instructions}\n"
      "  allocs: {google_benchmark: BM_Loop, valgrind: allocations}\n",
      "gate.yaml");
  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  summary.exit_code = ExitCode::regression;
  const std::string table = format_table(summary);
  const auto lines = util::split_lines(table);
  const auto row =
      std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("allocs "); });
  REQUIRE(row != lines.end());
  CHECK(*row ==
        "allocs    0 allocs/iter     3 allocs/iter  0 → 3 allocs/iter                 n/a  regression");
  CHECK_THAT(table, Catch::Contains("note: allocs: 0 → 3 allocs/iter (new allocations in its loop)"));
  CHECK_THAT(format_markdown(summary),
             Catch::Contains("| allocs | 0 allocs/iter | 3 allocs/iter | 0 → 3 allocs/iter "
                             "| n/a | regression |"));

  // The JSON report says which side read 0; read back, it shows the same change, and a re-analysis of
  // its runs gives the same verdict.
  const auto json = report_to_json(summary);
  const auto& allocs_json = json.at("metrics").at(1);
  CHECK(allocs_json.at("verdict") == "regression");
  CHECK(allocs_json.at("read_zero") == "baseline");
  CHECK(allocs_json.at("settled_by") == "count-of-zero");
  CHECK(allocs_json.at("change").is_null());
  CHECK_FALSE(json.at("metrics").at(0).contains("read_zero"));
  const SavedReport saved = report_from_json_strict(json, "saved.json");
  REQUIRE(saved.metrics.size() == 2);
  CHECK(change_label(saved.metrics[1]) == "0 → 3 allocs/iter");
  CHECK(change_label(saved.metrics[0]) == "+0.00 %");
  Reanalysis reanalysis;
  reanalysis.report = "saved.json";
  const DuelOutcome again = reanalyze(saved, saved.config, reanalysis);
  CHECK(again.analysis.verdict == Verdict::regression);
  CHECK(metric_named(again.analysis, "allocs").verdict == Verdict::regression);

  const DuelOutcome removed = two_metric_duel(3, true);
  CHECK(metric_named(removed.analysis, "allocs").verdict == Verdict::improvement);
  CHECK(removed.analysis.verdict == Verdict::improvement);
}
