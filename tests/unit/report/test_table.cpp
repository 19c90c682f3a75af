#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "report/labels.hpp"
#include "report/suite_summary.hpp"
#include "report/table.hpp"
#include "report_format/json_report.hpp"
#include "support/made_up_duels.hpp"
#include "util/file.hpp"
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
  CHECK(lines[0] ==
        "metric       baseline median  candidate median  change (mean)             interval  verdict");
  CHECK(lines[1] ==
        "wall_time            1.000 s           1.100 s       +10.00 %  [+8.00 %, +12.00 %]  regression");
  CHECK(
      lines[2] ==
      "user_time          500.00 ms         500.00 ms        +0.00 %   [-1.00 %, +1.00 %]  no-change (info)");
  CHECK(lines[3] ==
        "system_time              0 s               0 s            n/a                  n/a  n/a (info)");
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

TEST_CASE("a metric's verdict label is the same in the table and the plots", "[report]") {
  MetricSpec spec;
  spec.name = "sys_time";
  spec.gating = Gating::gated;
  MetricResult result = result_for(spec, 1.0, 1.0, {-0.01, 0.01}, Verdict::no_change);
  CHECK(verdict_label(result) == "no-change");
  result.spec.gating = Gating::report_only;
  CHECK(verdict_label(result) == "no-change (info)");
  result.has_ratio = false;  // values of zero: no verdict to speak of
  CHECK(verdict_label(result) == "n/a (info)");
}

TEST_CASE("the table's notes: interval level per gated metric, notes of the others, pinning", "[report]") {
  Fixture fixture;
  fixture.summary.pinning.cpus = {2, 3};
  fixture.summary.pinning.reason = "CPU 2,3: as requested (--cpus)";
  fixture.outcome.analysis.notes = {{NoteWeight::key, "lag-1 autocorrelation 0.30: batched"}};
  const auto text = format_table(fixture.summary, Verbosity::verbose);
  CHECK_THAT(text, Catch::Contains("note: lag-1 autocorrelation 0.30: batched\n"));
  CHECK_THAT(text,
             Catch::Contains("note: wall_time: 95 % interval, threshold 2.00 % wide, tolerance ±1.00 %\n"));
  CHECK_THAT(text, Catch::Contains("note: system_time: a note that the table must not parse\n"));
  CHECK_THAT(text, Catch::Contains("note: runs pinned to CPU 2,3: as requested (--cpus)\n"));
  CHECK_THAT(text, !Catch::Contains("more note"));
  // By default only the key note, and a line saying where the others are.
  const auto normal = format_table(fixture.summary);
  CHECK_THAT(normal,
             Catch::Contains("note: lag-1 autocorrelation 0.30: batched\n"
                             "note: 4 more notes (settings, levels, how each metric settled): --verbose, "
                             "or the JSON report\n"));
  CHECK_THAT(normal, !Catch::Contains("pinned"));
  // The Markdown folds the details away, and keeps them.
  const auto markdown = format_markdown(fixture.summary);
  CHECK_THAT(markdown, Catch::Contains("- lag-1 autocorrelation 0.30: batched\n\n<details><summary>4 more "
                                       "notes</summary>\n\n"));
  CHECK_THAT(markdown, Catch::Contains("- runs pinned to CPU 2,3: as requested (--cpus)\n"));
}

TEST_CASE("by default at most five note lines, the key ones first", "[report]") {
  Fixture fixture;
  for (int i = 1; i <= 7; ++i) {
    fixture.outcome.analysis.notes.push_back({NoteWeight::key, fmt::format("key {}", i)});
  }
  fixture.summary.pinning = {};
  const auto lines = util::split_lines(format_table(fixture.summary));
  const auto count = std::count_if(lines.begin(), lines.end(),
                                   [](const std::string& line) { return line.starts_with("note: "); });
  CHECK(count == 5);
  CHECK(std::find(lines.begin(), lines.end(), "note: key 4") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "note: key 5") == lines.end());
  CHECK_THAT(format_table(fixture.summary), Catch::Contains("note: 6 more notes"));
  // --verbose shows every one.
  const auto verbose = util::split_lines(format_table(fixture.summary, Verbosity::verbose));
  CHECK(std::find(verbose.begin(), verbose.end(), "note: key 7") != verbose.end());
}

TEST_CASE("the legend gives the intervals' confidence levels", "[report]") {
  const Fixture fixture;
  CHECK_THAT(format_table(fixture.summary), Catch::Contains("\ninterval: "));
  CHECK_THAT(format_table(fixture.summary), Catch::Contains(" confidence for each gated metric"));
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
  CHECK_THAT(
      text,
      Catch::Contains("| metric | baseline median | candidate median | change (mean) | interval | verdict |\n"
                      "|---|---:|---:|---:|---:|---|\n"
                      "| wall_time | 1.000 s | 1.100 s | +10.00 % | [+8.00 %, +12.00 %] | regression |\n"));
  CHECK_THAT(text, Catch::Contains("| system_time | 0 s | 0 s | n/a | n/a | n/a (info) |\n"));
}

TEST_CASE("CTest measurements only for metrics with an interval, on one line", "[report]") {
  const Fixture fixture;
  const auto text = format_ctest_measurements(fixture.summary);
  CHECK_THAT(text, Catch::StartsWith("<CTestMeasurement type=\"numeric/double\" name=\"wall_time.change\">0.1"
                                     "</CTestMeasurement><CTestMeasurement type=\"numeric/double\" "
                                     "name=\"wall_time.ci_lo\">"));
  CHECK_THAT(text, !Catch::Contains("system_time"));
  CHECK(std::count(text.begin(), text.end(), '\n') == 2);
  CHECK(text.ends_with("</CTestMeasurement>\nCTEST_FULL_OUTPUT\n"));
}

TEST_CASE("format_value gives times, sizes, rates and counts human units", "[report]") {
  CHECK(format_value(0.0025, "s") == "2.50 ms");
  CHECK(format_value(3.8476e-08, "s") == "38.5 ns");  // Google Benchmark's 38.476 ns, read in seconds
  CHECK(format_value(2.41e-6, "s") == "2.41 µs");
  CHECK(format_value(3 << 20, "B") == util::format_bytes(3 << 20));
  CHECK(format_value(475.4 * 1024 * 1024, "B/s") == "475.4 MiB/s");
  CHECK(format_value(2.5 * 1024 * 1024 * 1024, "B/s") == "2.5 GiB/s");
  CHECK(format_value(512, "B/s") == "512 B/s");
  CHECK(format_value(12'345'678, "items/s") == "12.35 M items/s");
  CHECK(format_value(950, "items/s") == "950 items/s");
  CHECK(format_value(42, "") == "42");
  CHECK(format_value(1500, "") == "1.5 k");
  CHECK(format_value(3.2e9, "") == "3.2 G");
  CHECK(format_value(0.0123, "") == "0.0123");
  CHECK(format_value(1234.5, "ops") == "1234.5 ops");  // a configured unit is shown as written
  CHECK(format_value(7, "") == "7");
}

TEST_CASE("the table's headers and legend say what each number is", "[report]") {
  Fixture fixture;
  auto text = format_table(fixture.summary);
  auto lines = util::split_lines(text);
  CHECK(lines[0].starts_with("metric       baseline median  candidate median  change (mean)"));
  // The medians and a change from the paired rounds can disagree (+0.02 % beside 475.4 and
  // 471.8 MB/s); the lines under the table say why.
  CHECK(lines[5] == "baseline, candidate: the median of each side's measured runs");
  CHECK(lines[6] ==
        "change, interval: candidate / baseline − 1 from the geometric mean of each round's ratio (estimator "
        "mean), with its confidence interval; rounds are paired, so it need not equal the ratio of the "
        "medians");
  const auto markdown = format_markdown(fixture.summary);
  CHECK_THAT(markdown,
             Catch::Contains(
                 "| metric | baseline median | candidate median | change (mean) | interval | verdict |"));
  CHECK_THAT(markdown, Catch::Contains("\nbaseline, candidate: the median of each side's measured runs  \n"
                                       "change, interval: candidate / baseline − 1 from the geometric mean"));

  // Estimators that differ are each named, with their metrics.
  fixture.config.metrics[1].estimator = Estimator::median;
  fixture.outcome.analysis.metrics[1].spec.estimator = Estimator::median;
  fixture.outcome.analysis.metrics[1].estimator = Estimator::median;
  fixture.outcome.analysis.metrics[3].spec.estimator = Estimator::min;
  fixture.outcome.analysis.metrics[3].estimator = Estimator::min;
  text = format_table(fixture.summary);
  lines = util::split_lines(text);
  CHECK_THAT(lines[0], Catch::Contains("  change (mean, median, min)  "));
  // One legend line names every estimator in use with its metrics, not a line each.
  CHECK_THAT(text,
             Catch::Contains("\nchange, interval: candidate / baseline − 1 with its interval, from the mean "
                             "of paired log-ratios (estimator mean) for wall_time, system_time; the median "
                             "of paired ratios (estimator median) for user_time; the ratio of the best runs "
                             "(estimator min) for max_rss; rounds are paired"));
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const std::string& line) { return line.rfind("change, interval", 0) == 0; }) == 1);

  // A metric whose zeros are allowed and that read 0 is estimated by the ratio of means, though
  // its configuration says mean: the label follows what was used.
  fixture.outcome.analysis.metrics[2].estimator = Estimator::ratio;
  text = format_table(fixture.summary);
  CHECK_THAT(util::split_lines(text)[0], Catch::Contains("  change (mean, median, ratio, min)  "));
  CHECK_THAT(text, Catch::Contains("; the ratio of means (estimator ratio) for system_time;"));
}

TEST_CASE("a duel that failed before its first measured round shows the cause, not a table", "[report]") {
  Fixture fixture;
  auto& outcome = fixture.outcome;
  outcome.analysis = Analysis{};  // nothing measured
  for (const auto& spec : fixture.config.metrics) {
    MetricResult empty;
    empty.spec = spec;
    outcome.analysis.metrics.push_back(empty);
  }
  outcome.end = DuelEnd::benchmark_failed;
  outcome.elapsed_seconds = 0.25;
  outcome.failure =
      R"~(baseline run in round 1 (warm-up): metric "score": no match for regex "points: ([0-9]+)" in the output)~";
  outcome.failure_stderr = "";
  outcome.failure_stdout = "checksum 12\nscore: 3.000000\n";
  outcome.failure_stdout_read = true;
  fixture.summary.exit_code = ExitCode::benchmark_failed;
  const auto text = format_table(fixture.summary);
  CHECK(text ==
        "stdout of the failing run, which the metrics are read from:\n"
        "  | checksum 12\n"
        "  | score: 3.000000\n"
        "verdict: ERROR after 0 rounds in 250.00 ms (" +
            outcome.failure + "); exit code 3\n");
  const auto markdown = format_markdown(fixture.summary);
  CHECK_THAT(markdown, !Catch::Contains("| metric |"));
  CHECK_THAT(markdown, Catch::Contains(outcome.failure));

  // A run that failed by itself shows its stderr, as before.
  outcome.failure_stdout.clear();
  outcome.failure_stderr = "disk full\n";
  CHECK(
      format_table(fixture.summary).starts_with("stderr of the failing run (last lines):\n  | disk full\n"));
}

TEST_CASE("a report-only metric's tiny certain change is no change, not a regression", "[report]") {
  // Max RSS +0.02 % with an interval that excludes zero: at tolerance 0 a "regression (info)",
  // at the report-only default (half the threshold, ±1 %) no change.
  for (const bool explicit_zero : {false, true}) {
    const Config config =
        explicit_zero ? parse_config("metrics: {max_rss: {tolerance: 0}}", "gate.yaml") : default_config();
    const DuelOutcome outcome = testing::made_up_duel(config, 20, testing::tiny_rss_change);
    const auto& rss = outcome.analysis.metrics[3];
    REQUIRE(rss.spec.name == "max_rss");
    REQUIRE(rss.ci.lo > 0);  // the change is certain
    REQUIRE(rss.change < 0.0003);
    RunSummary summary;
    summary.config = &config;
    summary.outcome = &outcome;
    const auto text = format_table(summary, Verbosity::verbose);
    const auto row = util::split_lines(text)[4];
    CHECK(row.starts_with("max_rss "));
    CHECK(row.ends_with(explicit_zero ? "  regression (info)" : "  no-change (info)"));
    CHECK(rss.verdict == (explicit_zero ? Verdict::regression : Verdict::no_change));
    if (!explicit_zero) {
      // max_rss was settled by its confidence sequence, which its interval shows, at that level.
      CHECK_THAT(text, Catch::Contains("note: user_time, system_time: report-only, 95.5 % interval"));
      CHECK_THAT(text, Catch::Contains("note: max_rss: report-only, 99.75 % interval"));
      CHECK_THAT(text, Catch::Contains(" interval, changes within ±1.00 % count as no change\n"));
    }
  }
}

TEST_CASE("a run that failed shows the tails of its stderr and its stdout, each labelled", "[report]") {
  Fixture fixture;
  auto& outcome = fixture.outcome;
  outcome.analysis = Analysis{};
  outcome.end = DuelEnd::benchmark_failed;
  outcome.elapsed_seconds = 0.004;
  outcome.failure = "baseline run in round 1 (warm-up): exited with code 1";
  fixture.summary.exit_code = ExitCode::benchmark_failed;
  // A usage message on stdout, nothing on stderr (as a real library's benchmark does).
  outcome.failure_stdout = "usage: bench [--size N]\n";
  CHECK(format_table(fixture.summary) ==
        "stdout of the failing run (last lines):\n"
        "  | usage: bench [--size N]\n"
        "verdict: ERROR after 0 rounds in 4.00 ms (" +
            outcome.failure + "); exit code 3\n");
  // Both: stderr first.
  outcome.failure_stderr = "bench: unknown option --foo\n";
  CHECK(format_table(fixture.summary) ==
        "stderr of the failing run (last lines):\n"
        "  | bench: unknown option --foo\n"
        "stdout of the failing run (last lines):\n"
        "  | usage: bench [--size N]\n"
        "verdict: ERROR after 0 rounds in 4.00 ms (" +
            outcome.failure + "); exit code 3\n");
}

TEST_CASE("an undecided duel says what settling would take and what the budget reached", "[report]") {
  Fixture fixture;
  auto& wall = fixture.outcome.analysis.metrics[0];
  wall.verdict = Verdict::inconclusive;
  wall.settled_by = SettledBy::none;
  wall.stopping_width = 0.041;
  wall.projected_rounds = 125.0 * std::pow(std::log1p(0.041) / std::log1p(0.02), 2);
  wall.enough_rounds = true;
  fixture.outcome.analysis.verdict = Verdict::inconclusive;
  fixture.outcome.analysis.measured_rounds = 125;
  fixture.outcome.elapsed_seconds = 500;  // 4 s a round
  fixture.outcome.end = DuelEnd::futile;
  fixture.config.max_seconds = 540;  // 135 rounds
  const auto text = format_table(fixture.summary);
  CHECK_THAT(text,
             Catch::Contains("note: to settle, wall_time needs ~515 rounds (≈ 34 min 20 s) at the rate so "
                             "far, the budget about 135; a threshold of 4.10 % would settle it now\n"));
  CHECK_THAT(text, Catch::Contains("(at the rate so far no open gated metric could settle within the budget: "
                                   "stopped early)"));
  CHECK_THAT(
      format_table(fixture.summary, Verbosity::verbose),
      Catch::Contains("note: wall_time: interval 4.10 % wide after 125 rounds (a threshold that wide would "
                      "settle it now); its threshold 2.00 % needs ~515 rounds ≈ 34 min 20 s at the rate so "
                      "far\n"));
}

TEST_CASE("a regression its sign sequence showed before its interval shows its rounds, not the interval",
          "[report]") {
  Fixture fixture;
  auto& wall = fixture.outcome.analysis.metrics[0];  // threshold 2 %, tolerance 1 %
  wall.settled_by = SettledBy::signs;
  wall.signs_beyond = 9;
  wall.signs_rounds = 10;
  wall.signs_alpha = 0.0025;
  SECTION("an interval still reaching below 0: the rounds, and the legend says so, at the test's level") {
    wall.ci = {-0.0318, 2.2116};
    CHECK(shows_signs(wall));
    const auto text = format_table(fixture.summary);
    CHECK(text.find("[-3.18 %") == std::string::npos);
    CHECK_THAT(text, Catch::Contains("sign test: 9 of 10 rounds > +2.00 %  regression\n"));
    CHECK_THAT(text, Catch::Contains(
                         "a regression its sign sequence showed before its interval did shows its "
                         "rounds beyond the threshold (a one-sided test at α = 0.25 %, valid at any round)"));
    // Its interval's level is not claimed for the rounds it shows instead.
    CHECK_THAT(text, !Catch::Contains("confidence for each gated metric"));
    // The report keeps both, and `summary` reads the same cell from it.
    const auto json = report_to_json(fixture.summary);
    const auto& signs = json["metrics"][0]["signs"];
    CHECK(signs["beyond"] == 9);
    CHECK(signs["rounds"] == 10);
    CHECK(signs["by_more_than"].get<double>() == Approx(0.02));
    CHECK(signs["shown_instead_of_interval"] == true);
    CHECK(json["metrics"][0]["ci"][0].get<double>() == Approx(-0.0318));
    const auto path = std::filesystem::temp_directory_path() / fmt::format("{}_signs_gate.json", ::getpid());
    REQUIRE(util::write_file_atomically(path, json.dump()).empty());
    const auto gates = read_gate_results({path});
    std::filesystem::remove(path);
    REQUIRE(gates.size() == 1);
    REQUIRE_FALSE(gates[0].metrics.empty());
    CHECK(gates[0].metrics[0].interval == "sign test: 9 of 10 rounds > +2.00 %");
  }
  SECTION("a throughput's rounds are below the bound") {
    wall.ci = {-0.5, 0.01};
    wall.spec.direction = Direction::higher_is_better;
    CHECK(shows_signs(wall));
    CHECK_THAT(format_table(fixture.summary),
               Catch::Contains("sign test: 9 of 10 rounds < -2.00 %  regression\n"));
  }
  SECTION("an interval that shows the regression too: the interval") {
    CHECK_FALSE(shows_signs(wall));
    CHECK_THAT(format_table(fixture.summary), Catch::Contains("[+8.00 %, +12.00 %]  regression\n"));
    CHECK(report_to_json(fixture.summary)["metrics"][0]["signs"]["shown_instead_of_interval"] == false);
  }
  SECTION("not settled by signs: no sign object") {
    wall.settled_by = SettledBy::width;
    CHECK(report_to_json(fixture.summary)["metrics"][0]["signs"].is_null());
  }
}

TEST_CASE("a metric its confidence sequence settled is listed at the sequence's level", "[report]") {
  Fixture fixture;
  auto& wall = fixture.outcome.analysis.metrics[0];
  wall.settled_by = SettledBy::sequence;
  wall.confidence = 0.9975;  // the sequence's share of α, not the width rule's 95.5 %
  const auto text = format_table(fixture.summary);
  CHECK_THAT(text,
             Catch::Contains("\ninterval: 99.75 % for the one settled by its confidence sequence, shown as "
                             "the interval (valid however often it was looked at)"));
  CHECK_THAT(text, !Catch::Contains("confidence for each gated metric"));
}
