#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "report/json_report.hpp"
#include "report/table.hpp"
#include "util/text.hpp"

using namespace perfduel;

namespace {

// A result for `spec` with medians, change and interval already worked out.
MetricResult result_for(const MetricSpec& spec, double baseline, double candidate, stats::Interval ci,
                        Verdict verdict, SettledBy settled_by = SettledBy::none) {
  MetricResult result;
  result.spec = spec;
  result.confidence = 0.95;
  result.baseline_median = baseline;
  result.candidate_median = candidate;
  result.change = candidate / baseline - 1;
  result.ci = ci;
  result.estimate.status = stats::EstimateStatus::ok;
  result.estimate.rounds = 30;
  result.verdict = verdict;
  result.settled_by = settled_by;
  return result;
}

// A finished duel of the default metrics: wall time 10 % slower (a regression), user time
// unchanged, system time always zero (no ratio), max RSS unchanged.
struct Fixture {
  Config config = default_config();
  DuelOutcome outcome;
  RunSummary summary;

  Fixture() {
    const auto& metrics = config.metrics;
    outcome.analysis.metrics = {
        result_for(metrics[0], 1.0, 1.1, {0.08, 0.12}, Verdict::regression, SettledBy::width),
        result_for(metrics[1], 0.5, 0.5, {-0.01, 0.01}, Verdict::no_change),
        result_for(metrics[2], 0.0, 0.0, {}, Verdict::inconclusive),
        result_for(metrics[3], 4 << 20, 4 << 20, {-0.001, 0.001}, Verdict::no_change)};
    auto& no_ratio = outcome.analysis.metrics[2];
    no_ratio.has_ratio = false;
    no_ratio.change = 0;
    no_ratio.estimate.status = stats::EstimateStatus::insufficient_data;
    no_ratio.estimate.note = "a note that the table must not parse";
    outcome.analysis.verdict = Verdict::regression;
    outcome.analysis.measured_rounds = 30;
    outcome.elapsed_seconds = 12.5;
    summary.config = &config;
    summary.outcome = &outcome;
    summary.exit_code = ExitCode::regression;
  }
};

}  // namespace

TEST_CASE("the terminal table has one aligned row per metric", "[report]") {
  const Fixture fixture;
  const auto lines = util::split_lines(format_table(fixture.summary));
  REQUIRE(lines.size() >= 6);
  CHECK(lines[0] == "metric        baseline  candidate    change             interval  verdict");
  CHECK(lines[1] == "wall_time      1.000 s    1.100 s  +10.00 %  [+8.00 %, +12.00 %]  regression");
  CHECK(lines[2] == "user_time    500.00 ms  500.00 ms   +0.00 %   [-1.00 %, +1.00 %]  no-change (info)");
  CHECK(lines[3] == "system_time        0 s        0 s       n/a                  n/a  n/a (info)");
  CHECK(lines[4].rfind("max_rss", 0) == 0);
  CHECK(lines.back() ==
        "verdict: REGRESSION after 30 rounds in 12.500 s (regressed: wall_time; every gated metric settled: "
        "wall_time by the width rule (interval narrower than its threshold)); exit code 1");
}

TEST_CASE("the table takes \"no ratio\" from the result's flag, not from the note", "[report]") {
  Fixture fixture;
  auto& system_time = fixture.outcome.analysis.metrics[2];
  CHECK(util::split_lines(format_table(fixture.summary))[3].ends_with("n/a (info)"));
  system_time.has_ratio = true;
  system_time.estimate.note = "no ratio: but the flag says otherwise";
  CHECK(util::split_lines(format_table(fixture.summary))[3].ends_with("inconclusive (info)"));
}

TEST_CASE("the table's notes: interval level per gated metric, notes of the others, pinning", "[report]") {
  Fixture fixture;
  fixture.summary.pinning.cpus = {2, 3};
  fixture.summary.pinning.reason = "CPU 2,3: as requested (--cpus)";
  fixture.outcome.analysis.notes = {"lag-1 autocorrelation 0.30: batched"};
  const auto text = format_table(fixture.summary);
  CHECK_THAT(text, Catch::Contains("note: lag-1 autocorrelation 0.30: batched\n"));
  CHECK_THAT(text, Catch::Contains("note: wall_time: 95 % interval, threshold 2.00 % wide\n"));
  CHECK_THAT(text, Catch::Contains("note: system_time: a note that the table must not parse\n"));
  CHECK_THAT(text, Catch::Contains("note: runs pinned to CPU 2,3: as requested (--cpus)\n"));
}

TEST_CASE("the headline names why the duel ended", "[report]") {
  Fixture fixture;
  fixture.outcome.end = DuelEnd::round_budget;
  CHECK_THAT(
      format_table(fixture.summary),
      Catch::Contains("(regressed: wall_time; the round budget (max_rounds) ran out before every gated "
                      "metric settled)"));
  fixture.outcome.end = DuelEnd::benchmark_failed;
  fixture.outcome.failure = "candidate run in round 3 crashed";
  fixture.outcome.failure_stderr = "first\nlast\n";
  const auto text = format_table(fixture.summary);
  CHECK_THAT(text, Catch::Contains("stderr of the failing run (last lines):\n  | first\n  | last\n"));
  CHECK_THAT(
      text, Catch::Contains("verdict: ERROR after 30 rounds in 12.500 s (candidate run in round 3 crashed)"));
}

TEST_CASE("the Markdown table has the same rows", "[report]") {
  const Fixture fixture;
  const auto text = format_markdown(fixture.summary);
  CHECK(text.rfind("### perfduel: regression\n\n", 0) == 0);
  CHECK_THAT(text, Catch::Contains(
                       "| metric | baseline | candidate | change | interval | verdict |\n"
                       "|---|---:|---:|---:|---:|---|\n"
                       "| wall_time | 1.000 s | 1.100 s | +10.00 % | [+8.00 %, +12.00 %] | regression |\n"));
  CHECK_THAT(text, Catch::Contains("| system_time | 0 s | 0 s | n/a | n/a | n/a (info) |\n"));
}

TEST_CASE("CTest measurements only for metrics with an interval", "[report]") {
  const Fixture fixture;
  const auto text = format_ctest_measurements(fixture.summary);
  CHECK_THAT(
      text,
      Catch::Contains(
          "<CTestMeasurement type=\"numeric/double\" name=\"wall_time.change\">0.1</CTestMeasurement>\n"));
  CHECK_THAT(text, !Catch::Contains("system_time"));
  CHECK(text.ends_with("CTEST_FULL_OUTPUT\n"));
}

TEST_CASE("format_value gives seconds and bytes human units", "[report]") {
  CHECK(format_value(0.0025, "s") == "2.50 ms");
  CHECK(format_value(3 << 20, "B") == util::format_bytes(3 << 20));
  CHECK(format_value(1234.5, "ops") == "1234.5 ops");
  CHECK(format_value(7, "") == "7");
}
