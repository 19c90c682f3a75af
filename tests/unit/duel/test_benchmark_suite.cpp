// Benchmark suites: globs over benchmark names, Catch2's XML reporter, expanding a pattern
// into one metric per benchmark, and a duel whose metrics are expanded after its first round.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "duel/metric_expansion.hpp"
#include "report/suite_chart.hpp"
#include "report/suite_view.hpp"
#include "report_format/report_notes.hpp"
#include "run/catch2_results.hpp"
#include "run/metric_extractor.hpp"
#include "util/glob.hpp"
#include "util/text.hpp"

using namespace perfduel;

namespace {

std::string data_file(const std::string& path) {
  std::ifstream in(std::string(PERFDUEL_TEST_DATA_DIR) + "/" + path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

MetricSpec pattern_metric(const std::string& name, MetricSource source, const std::string& benchmark) {
  MetricSpec spec;
  spec.name = name;
  spec.source = source;
  spec.benchmark = benchmark;
  spec.field = source == MetricSource::catch2 ? "mean" : "real_time";
  spec.gating = Gating::gated;
  return spec;
}

std::vector<std::string> names_of(const std::vector<MetricSpec>& metrics) {
  std::vector<std::string> names;
  for (const auto& metric : metrics) {
    names.push_back(metric.name);
  }
  return names;
}

}  // namespace

TEST_CASE("glob: * spans any run of characters, slashes included; ? is one character", "[suite]") {
  using util::glob_match;
  CHECK(util::is_glob("BM_Sort/*"));
  CHECK(util::is_glob("BM_Sort/?"));
  CHECK_FALSE(util::is_glob("BM_Sort/8"));
  CHECK(glob_match("BM_Sort/*", "BM_Sort/8"));
  CHECK(glob_match("BM_Sort/*", "BM_Sort/8/real_time"));
  CHECK(glob_match("*", ""));
  CHECK(glob_match("*/64", "BM_Hash/64"));
  CHECK_FALSE(glob_match("*/64", "BM_Hash/640"));
  CHECK(glob_match("BM_?ort/*", "BM_Sort/16"));
  CHECK_FALSE(glob_match("BM_Sort/?", "BM_Sort/16"));
  CHECK(glob_match("*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaab"));
  CHECK_FALSE(glob_match("*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaa"));
  CHECK(glob_match("sort [x]*", "sort [x] 64"));  // brackets are literal
  CHECK_FALSE(glob_match("sort [x]*", "sort x 64"));
}

TEST_CASE("Catch2 v2 XML: every BENCHMARK and BENCHMARK_ADVANCED, nested in sections too", "[suite]") {
  // Real output of tests/programs/catch2_bench (Debian's Catch2 2.13) with -r xml.
  const auto benchmarks = read_catch2_benchmarks(data_file("catch2/v2_benchmarks.xml"));
  REQUIRE(benchmarks);
  REQUIRE(benchmarks->size() == 4);
  CHECK((*benchmarks)[0].name == "sort 64");
  CHECK((*benchmarks)[0].mean_seconds == Approx(2971.47e-9));
  CHECK((*benchmarks)[2].name == "sort 64 <advanced>");  // &lt; decoded, found inside its <Section>
  CHECK((*benchmarks)[3].name == "fnv1a 256");
  for (const auto& benchmark : *benchmarks) {
    CHECK(benchmark.failure.empty());
  }
}

TEST_CASE("Catch2 v3 XML: <Catch2TestRun> root, and a failed benchmark carries its message", "[suite]") {
  // Written from Catch2 v3's XmlReporter (benchmarkEnded, benchmarkFailed).
  const auto benchmarks = read_catch2_benchmarks(data_file("catch2/v3_benchmarks.xml"));
  REQUIRE(benchmarks);
  REQUIRE(benchmarks->size() == 3);
  CHECK((*benchmarks)[1].name == "parse 1M");
  CHECK((*benchmarks)[1].mean_seconds == Approx(0.015125));
  CHECK((*benchmarks)[2].failure == "std::runtime_error: unexpected end of input");

  MetricSpec broken = pattern_metric("parse", MetricSource::catch2, "parse broken");
  const std::vector<MetricSpec> specs{broken};
  RunResult run;
  run.out = data_file("catch2/v3_benchmarks.xml");
  const auto values = MetricExtractor(specs).extract(run);
  REQUIRE_FALSE(values);
  CHECK(values.error() ==
        "metric \"parse\": Catch2 benchmark \"parse broken\" failed: std::runtime_error: unexpected end of "
        "input");
}

TEST_CASE("Catch2 output that is not its XML says to pass -r xml", "[suite]") {
  CHECK(
      read_catch2_benchmarks("{\n  \"version\": 1,\n  \"test-cases\": []\n}\n").error() ==
      "the output is JSON; Catch2's JSON reporter records no benchmark results, run the test binary with -r "
      "xml");
  CHECK(
      read_catch2_benchmarks("benchmark name    samples  iterations\n").error() ==
      "the output is not Catch2's XML (starts with \"benchmark name    samples  iterations\"); run the test "
      "binary with -r xml");
  CHECK(read_catch2_benchmarks("<testsuites><testsuite/></testsuites>").error() ==
        "the output is XML with root <testsuites>, not Catch2's XML reporter (<Catch> or <Catch2TestRun>)");
  const auto truncated = read_catch2_benchmarks("<Catch name=\"x\"><Group name=\"x\"><TestCase name=\"t\">");
  REQUIRE_FALSE(truncated);
  CHECK_THAT(truncated.error(), Catch::StartsWith("Catch2's XML output is malformed at byte"));
}

// Found by fuzzing (tests/fuzz/corpus/catch2_results/mean_not_a_number.xml): a mean that is no
// number was read as 0 s, so the metric failed later as "value 0" instead of saying why.
TEST_CASE("a Catch2 mean that is not a number fails its benchmark", "[suite]") {
  const auto benchmarks = read_catch2_benchmarks(
      "<Catch name=\"x\"><Group name=\"x\"><TestCase name=\"t\">"
      "<BenchmarkResults name=\"a\"><mean value=\"abc\"/></BenchmarkResults>"
      "<BenchmarkResults name=\"b\"><mean value=\"12.5x\"/></BenchmarkResults>"
      "<BenchmarkResults name=\"c\"><mean/></BenchmarkResults>"
      "<BenchmarkResults name=\"d\"><mean value=\" 250 \"/></BenchmarkResults>"
      "</TestCase></Group></Catch>");
  REQUIRE(benchmarks);
  REQUIRE(benchmarks->size() == 4);
  CHECK(benchmarks->at(0).failure == "its mean is \"abc\", not a number");
  CHECK(benchmarks->at(1).failure == "its mean is \"12.5x\", not a number");
  CHECK(benchmarks->at(2).failure == "its mean is \"\", not a number");
  CHECK(benchmarks->at(3).failure.empty());
  CHECK(benchmarks->at(3).mean_seconds == Approx(250e-9));
}

TEST_CASE("catch2 metric: the mean in seconds; an unknown name lists the ones there are", "[suite]") {
  const std::vector<MetricSpec> specs{pattern_metric("s", MetricSource::catch2, "sort 512"),
                                      pattern_metric("missing", MetricSource::catch2, "sort 4096")};
  RunResult run;
  run.out = data_file("catch2/v2_benchmarks.xml");
  const std::vector<MetricSpec> first{specs[0]};
  const auto values = MetricExtractor(first).extract(run);
  REQUIRE(values);
  CHECK((*values)[0] == Approx(34601.2e-9));
  const auto failed = MetricExtractor(specs).extract(run);
  REQUIRE_FALSE(failed);
  CHECK(
      failed.error() ==
      "metric \"missing\": no Catch2 benchmark named \"sort 4096\" in the output (found: \"sort 64\", \"sort "
      "512\", \"sort 64 <advanced>\", \"fnv1a 256\"); does the test spec select it?");
}

TEST_CASE("a pattern expands into one metric per benchmark with the pattern's settings", "[suite]") {
  MetricSpec sort = pattern_metric("sort", MetricSource::google_benchmark, "BM_Sort/*");
  sort.threshold = 0.05;
  sort.tolerance = 0.01;
  sort.estimator = Estimator::median;
  MetricSpec wall;
  wall.name = "wall_time";
  wall.gating = Gating::report_only;
  const std::vector<MetricSpec> metrics{wall, sort};
  const auto output = data_file("gbench/suite_baseline.json");
  const auto expansion = expand_metric_patterns(metrics, output, output);
  REQUIRE(expansion);
  CHECK(names_of(expansion->metrics) == std::vector<std::string>{"wall_time", "sort/BM_Sort/8",
                                                                 "sort/BM_Sort/16", "sort/BM_Sort/32",
                                                                 "sort/BM_Sort/64", "sort/BM_Sort/128"});
  const auto& first = expansion->metrics[1];
  CHECK(first.benchmark == "BM_Sort/8");
  CHECK(first.threshold == 0.05);
  CHECK(first.tolerance == 0.01);
  CHECK(first.estimator == Estimator::median);
  CHECK(first.gating == Gating::gated);
  CHECK_FALSE(is_benchmark_pattern(first));
  CHECK(expansion->changes.empty());
}

TEST_CASE("an explicit metric for one benchmark overrides the pattern for it", "[suite]") {
  MetricSpec big = pattern_metric("big_sort", MetricSource::google_benchmark, "BM_Sort/128");
  big.threshold = 0.1;
  const std::vector<MetricSpec> metrics{pattern_metric("sort", MetricSource::google_benchmark, "BM_Sort/*"),
                                        big};
  const auto output = data_file("gbench/suite_baseline.json");
  const auto expansion = expand_metric_patterns(metrics, output, output);
  REQUIRE(expansion);
  CHECK(names_of(expansion->metrics) == std::vector<std::string>{"sort/BM_Sort/8", "sort/BM_Sort/16",
                                                                 "sort/BM_Sort/32", "sort/BM_Sort/64",
                                                                 "big_sort"});
  CHECK(expansion->metrics.back().threshold == 0.1);
}

TEST_CASE("benchmarks on one side only are new or removed, or an error with missing: error", "[suite]") {
  MetricSpec sort = pattern_metric("sort", MetricSource::google_benchmark, "BM_Sort/*");
  const auto full = data_file("gbench/suite_baseline.json");
  const auto without_128 = data_file("gbench/suite_candidate_no_sort128.json");

  const auto removed = expand_metric_patterns(std::vector<MetricSpec>{sort}, full, without_128);
  REQUIRE(removed);
  CHECK(removed->metrics.size() == 4);
  CHECK(removed->changes.removed == std::vector<std::string>{"sort/BM_Sort/128"});
  CHECK(removed->changes.added.empty());

  const auto added = expand_metric_patterns(std::vector<MetricSpec>{sort}, without_128, full);
  REQUIRE(added);
  CHECK(added->changes.added == std::vector<std::string>{"sort/BM_Sort/128"});

  sort.missing = MissingBenchmark::error;
  const auto strict = expand_metric_patterns(std::vector<MetricSpec>{sort}, full, without_128);
  REQUIRE_FALSE(strict);
  CHECK(strict.error() ==
        "metric \"sort\": benchmark \"BM_Sort/128\" runs only in the baseline (the pattern says missing: "
        "error)");
}

TEST_CASE("recorded metric names expand a pattern by the rules of a duel's output", "[suite][calibration]") {
  MetricSpec big = pattern_metric("big_sort", MetricSource::google_benchmark, "BM_Sort/128");
  big.threshold = 0.1;
  MetricSpec eight = pattern_metric("sort/BM_Sort/8", MetricSource::google_benchmark, "BM_Sort/8");
  eight.threshold = 0.2;  // an override entry, as calibrate writes one
  const std::vector<MetricSpec> metrics{pattern_metric("sort", MetricSource::google_benchmark, "BM_Sort/*"),
                                        pattern_metric("parse", MetricSource::google_benchmark, "BM_Parse/*"),
                                        big, eight};
  // The history holds "<key>/<benchmark>" names; a benchmark an explicit entry reads is that
  // entry's (big_sort), whatever older records named it, and a pattern with no record gives none.
  const auto expanded = expand_recorded_patterns(
      metrics,
      {"wall_time", "sort/BM_Sort/8", "sort/BM_Sort/16", "sort/BM_Sort/128", "big_sort", "hash/BM_Hash/16"});
  REQUIRE(expanded);
  CHECK(names_of(*expanded) == std::vector<std::string>{"sort/BM_Sort/16", "big_sort", "sort/BM_Sort/8"});
  CHECK(expanded->at(0).benchmark == "BM_Sort/16");
  CHECK(expanded->at(2).threshold == 0.2);
  // A benchmark named as another metric is refused, as in a duel.
  MetricSpec other = pattern_metric("sort/BM_Sort/16", MetricSource::regex, "");
  other.benchmark.clear();
  const auto clash = expand_recorded_patterns(
      std::vector<MetricSpec>{pattern_metric("sort", MetricSource::google_benchmark, "BM_Sort/*"), other},
      {"sort/BM_Sort/16"});
  REQUIRE_FALSE(clash);
  CHECK(clash.error() ==
        "metric \"sort\": benchmark \"BM_Sort/16\" would be named \"sort/BM_Sort/16\", which another metric "
        "has");
}

TEST_CASE("a pattern that matches nothing, or output that is not the framework's, is an error", "[suite]") {
  const auto output = data_file("gbench/suite_baseline.json");
  const std::vector<MetricSpec> parse{pattern_metric("parse", MetricSource::google_benchmark, "BM_Parse/*")};
  const auto none = expand_metric_patterns(parse, output, output);
  REQUIRE_FALSE(none);
  CHECK(none.error() ==
        "metric \"parse\": no benchmark matches \"BM_Parse/*\" (found: \"BM_Sort/8\", \"BM_Sort/16\", "
        "\"BM_Sort/32\", \"BM_Sort/64\", \"BM_Sort/128\", \"BM_Hash/16\", \"BM_Hash/64\", \"BM_Hash/256\" "
        "and 2 "
        "more)");
  const auto not_json = expand_metric_patterns(parse, "plain text", output);
  REQUIRE_FALSE(not_json);
  CHECK(
      not_json.error() ==
      "metric \"parse\": baseline run: the output is not Google Benchmark's JSON (no \"benchmarks\" array); "
      "pass --benchmark_format=json");
}

TEST_CASE("config: catch2 and google_benchmark patterns, missing, and their errors", "[suite][config]") {
  const auto config = parse_config(
      "metrics:\n"
      "  wall_time: {gate: false}\n"
      "  sort: {google_benchmark: \"BM_Sort/*\", threshold: 5%, missing: error}\n"
      "  sorts: {catch2: \"*\"}\n",
      "suite.yaml");
  REQUIRE(config.metrics.size() == 6);
  CHECK(is_benchmark_pattern(config.metrics[4]));
  CHECK(config.metrics[4].missing == MissingBenchmark::error);
  CHECK(config.metrics[5].source == MetricSource::catch2);
  CHECK(config.metrics[5].field == "mean");
  CHECK(config.metrics[5].unit == "s");
  CHECK(config.gated_metrics().size() == 2);
  // The effective configuration reads back to the same metrics.
  const auto again = parse_config(config_to_json(config), "again");
  CHECK(again.metrics[4].missing == MissingBenchmark::error);
  CHECK(again.metrics[5].benchmark == "*");

  CHECK_THROWS_WITH(parse_config("metrics:\n  s: {catch2: x, field: median}\n", "c.yaml"),
                    "c.yaml:2: \"field\" of a Catch2 benchmark must be mean, not \"median\"");
  CHECK_THROWS_WITH(parse_config("metrics:\n  s: {regex: 't=(\\d+)', missing: error}\n", "c.yaml"),
                    "c.yaml:2: \"missing\" only applies with \"google_benchmark\" or \"catch2\"");
  CHECK_THROWS_WITH(parse_config("metrics:\n  s: {catch2: x, missing: ignore}\n", "c.yaml"),
                    "c.yaml:2: \"missing\" must be one of report, error, not \"ignore\"");
}

namespace {

// Prints Google Benchmark JSON for the names given, each at its time; no processes.
class SuiteExecutor : public Executor {
 public:
  std::map<std::string, double> baseline;
  std::map<std::string, double> candidate;

  RunResult run(const CommandSpec& command, const RunLimits&) override {
    const auto& times = command.argv.at(0) == "baseline" ? baseline : candidate;
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    result.wall_seconds = 0.01;
    result.user_seconds = 0.01;
    result.system_seconds = 0.001;
    result.max_rss_bytes = 1 << 20;
    std::string entries;
    ++m_calls;
    for (const auto& [name, ns] : times) {
      // ±1 % of deterministic wobble, different per call and name.
      const double wobble = 1.0 + 0.01 * (static_cast<double>((m_calls * 7 + name.size() * 13) % 5) - 2) / 2;
      entries += (entries.empty() ? "" : ",") +
                 ("{\"name\": \"" + name + "\", \"run_type\": \"iteration\", \"real_time\": " +
                  std::to_string(ns * wobble) + ", \"cpu_time\": 1, \"time_unit\": \"ns\"}");
    }
    result.out = "{\"benchmarks\": [" + entries + "]}";
    m_now += result.wall_seconds;
    return result;
  }

  // The scripted clock: the wall time of the runs made so far.
  double now_seconds() override { return m_now; }

 private:
  std::size_t m_calls = 0;
  double m_now = 0;
};

}  // namespace

TEST_CASE("a duel expands its patterns after the first round and counts them for Bonferroni",
          "[suite][duel]") {
  Config config = parse_config(
      "baseline: baseline\n"
      "candidate: candidate\n"
      "warmup: 1\n"
      "min_rounds: 10\n"
      "max_rounds: 60\n"
      "metrics:\n"
      "  wall_time: {gate: false}\n"
      "  sort: {google_benchmark: \"BM_Sort/*\", threshold: 10%}\n",
      "suite.yaml");
  SuiteExecutor executor;
  executor.baseline = {{"BM_Sort/8", 100}, {"BM_Sort/16", 200}, {"BM_Sort/32", 400}, {"BM_Sort/64", 800}};
  executor.candidate = executor.baseline;
  executor.candidate.erase("BM_Sort/64");
  executor.candidate["BM_Sort/128"] = 1600;
  executor.candidate["BM_Sort/32"] = 480;  // 20 % slower
  const auto outcome = run_duel(config, executor, 7, nullptr);
  REQUIRE(outcome.failure.empty());
  CHECK(names_of(outcome.metrics) == std::vector<std::string>{"wall_time", "user_time", "system_time",
                                                              "max_rss", "sort/BM_Sort/16", "sort/BM_Sort/32",
                                                              "sort/BM_Sort/8"});
  CHECK(outcome.suite.removed == std::vector<std::string>{"sort/BM_Sort/64"});
  CHECK(outcome.suite.added == std::vector<std::string>{"sort/BM_Sort/128"});
  CHECK(outcome.analysis.verdict == Verdict::regression);
  CHECK(outcome.analysis.metrics.at(5).verdict == Verdict::regression);
  CHECK(outcome.analysis.metrics.at(5).confidence == Approx(1 - 0.05 * 0.9 / 3));
  CHECK(outcome.runs.front().values.size() == 7);
}

TEST_CASE("a duel whose patterns match only benchmarks of one side fails with the cause", "[suite][duel]") {
  Config config = parse_config(
      "baseline: baseline\ncandidate: candidate\nmetrics:\n  wall_time: {gate: false}\n"
      "  sort: {google_benchmark: \"BM_Sort/*\"}\n",
      "suite.yaml");
  SuiteExecutor executor;
  executor.baseline = {{"BM_Sort/8", 100}};
  executor.candidate = {{"BM_Sort/16", 100}};
  const auto outcome = run_duel(config, executor, 7, nullptr);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(outcome.failure ==
        "round 1 (warm-up): no gated benchmark runs on both sides (every one the patterns matched is new or "
        "removed)");
}

TEST_CASE("a benchmark that measures nothing is reported, not gated", "[suite][duel]") {
  MetricSpec time = pattern_metric("b", MetricSource::google_benchmark, "*");
  time.field = "real_time";
  CHECK(is_unmeasurable(time, 1.3e-15, 2e-15));        // 1.3e-6 ns: the loop was compiled away
  CHECK_FALSE(is_unmeasurable(time, 1.3e-15, 3e-10));  // one side measures something
  CHECK_FALSE(is_unmeasurable(time, 3e-10, 3e-10));    // 0.3 ns: one instruction per iteration
  time.field = "items";                                // a counter: not a time
  CHECK_FALSE(is_unmeasurable(time, 1e-15, 1e-15));

  Config config = parse_config(
      "baseline: baseline\ncandidate: candidate\nwarmup: 1\nmin_rounds: 10\nmax_rounds: 40\nmetrics:\n"
      "  wall_time: {gate: false}\n  b: {google_benchmark: \"*\", threshold: 10%}\n",
      "suite.yaml");
  SuiteExecutor executor;
  executor.baseline = {{"BM_Nothing", 1.3e-6}, {"BM_Sort/8", 100}};
  executor.candidate = executor.baseline;
  const auto outcome = run_duel(config, executor, 7, nullptr);
  REQUIRE(outcome.failure.empty());
  CHECK(outcome.suite.unmeasurable == std::vector<std::string>{"b/BM_Nothing"});
  const auto& nothing = outcome.analysis.metrics.at(4);
  REQUIRE(nothing.spec.name == "b/BM_Nothing");
  CHECK(nothing.spec.gating == Gating::report_only);
  CHECK(outcome.analysis.metrics.at(5).confidence == Approx(1 - 0.05 * 0.9));  // one gated metric left

  // Nothing left to gate: the duel stops with the cause.
  executor.baseline = {{"BM_Nothing", 1.3e-6}};
  executor.candidate = executor.baseline;
  const auto empty = run_duel(config, executor, 7, nullptr);
  CHECK(empty.end == DuelEnd::benchmark_failed);
  CHECK_THAT(empty.failure, Catch::Contains("no gated metric measures anything"));
}

namespace {

// An analysis of `count` gated metrics named m0, m1, ..., all no change except those given.
Analysis suite_analysis(std::size_t count, const std::map<std::size_t, Verdict>& verdicts) {
  Analysis analysis;
  for (std::size_t m = 0; m < count; ++m) {
    MetricResult result;
    result.spec.name = "m" + std::to_string(m);
    result.spec.gating = Gating::gated;
    result.spec.threshold = 0.05;
    result.confidence = 0.9975;
    result.estimate.status = stats::EstimateStatus::ok;
    result.verdict = verdicts.contains(m) ? verdicts.at(m) : Verdict::no_change;
    result.change = result.verdict == Verdict::regression ? 0.1 : 0.0;
    result.ci = {result.change - 0.02, result.change + 0.02};
    analysis.metrics.push_back(result);
  }
  return analysis;
}

}  // namespace

TEST_CASE("suite reports: changes first, settings noted once, CDash-safe names", "[suite][report]") {
  const auto few = suite_analysis(3, {{2, Verdict::regression}});
  CHECK(display_order(few) == std::vector<std::size_t>{0, 1, 2});  // a few metrics keep their order

  auto many =
      suite_analysis(20, {{7, Verdict::regression}, {3, Verdict::inconclusive}, {12, Verdict::regression}});
  many.metrics[0].spec.gating = Gating::report_only;
  const auto order = display_order(many);
  CHECK(std::vector<std::size_t>(order.begin(), order.begin() + 3) == std::vector<std::size_t>{7, 12, 3});
  CHECK(order.back() == 0);  // report-only last
  CHECK(gated_names(many, Verdict::regression) == "m7, m12");
  CHECK(settings_notes(many) ==
        std::vector<std::string>{"m1, m2, m3 and 16 more: 99.75 % interval, threshold 5.00 % wide"});

  CHECK(measurement_name("sorts/sort 64 <advanced>") == "sorts/sort_64__advanced_");
  CHECK(measurement_name("bench/BM_Sort/8") == "bench/BM_Sort/8");

  std::vector<const MetricResult*> rows;
  for (const std::size_t m : order) {
    rows.push_back(&many.metrics[m]);
  }
  const auto chart = render_suite_chart(rows, 860);
  std::size_t count = 0;
  for (auto at = chart.find("class=\"row\""); at != std::string::npos;
       at = chart.find("class=\"row\"", at + 1)) {
    ++count;
  }
  CHECK(count == 20);
  CHECK(chart.find("<title>m7: +10.00 % [+8.00 %, +12.00 %]</title>") < chart.find("<title>m12:"));
  CHECK(suite_chart_height(20) == Approx(44 + 20 * 18 + 34));

  // A regression its sign sequence showed before its interval did says so in its tooltip.
  auto& m12 = many.metrics[12];
  m12.settled_by = SettledBy::signs;
  m12.signs_beyond = 10;
  m12.signs_rounds = 10;
  m12.ci = {-0.02, 0.3};
  CHECK(render_suite_chart(rows, 860).find(
            fmt::format("<title>m12: +10.00 % [-2.00 %, +30.00 %] · sign sequence: "
                        "10 of 10 rounds &gt; {}</title>",
                        util::format_percent(signs_bound(m12.spec)))) != std::string::npos);
}
