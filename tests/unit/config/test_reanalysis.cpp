// Re-deciding a saved duel with other settings (perfduel analyze --config / --threshold ...):
// which settings may change, how the change is described, and that the same analysis decides.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/verdict.hpp"
#include "error.hpp"
#include "report_format/json_report.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::metric;

namespace {

// The configuration a report would hold: wall time reported, a gated regex metric "score".
Config reanalysis_saved_config() {
  return parse_config(
      "min_rounds: 30\n"
      "stopping: width\n"
      "seed: 7\n"
      "baseline: ./bench --old\n"
      "candidate: ./bench --new\n"
      "metrics:\n"
      "  wall_time: {gate: false}\n"
      "  score: {regex: 'score: ([0-9.]+)', threshold: 20%, tolerance: 0}\n",
      "report.json (config)");
}

// Runs of every metric of `config`: the candidate's values `change` higher than the
// baseline's, with log-normal noise of σ `sigma` per run (seeded).
std::vector<RunRecord> runs_with_change(const Config& config, int rounds, double change, double sigma) {
  std::mt19937_64 rng(2026);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<RunRecord> runs;
  for (int round = 0; round < rounds; ++round) {
    RunRecord a{round, Side::baseline, false, {}};
    RunRecord b{round, Side::candidate, false, {}};
    for (std::size_t m = 0; m < config.metrics.size(); ++m) {
      a.values.push_back(std::exp(noise(rng)));
      b.values.push_back((1 + change) * std::exp(noise(rng)));
    }
    runs.push_back(a);
    runs.push_back(b);
  }
  return runs;
}

}  // namespace

TEST_CASE("a re-analysis takes the decision settings of a configuration file", "[reanalysis][config]") {
  Config config = reanalysis_saved_config();
  const auto ignored =
      apply_reanalysis_settings(config,
                                "confidence: 99%\n"
                                "stopping: hybrid\n"
                                "min_rounds: 10\n"
                                "metrics:\n"
                                "  score: {threshold: 5%, tolerance: 1%, estimator: median}\n"
                                "  wall_time: {gate: true}\n",
                                "other.yaml");
  CHECK(ignored.empty());
  CHECK(config.confidence == Approx(0.99));
  CHECK(config.stopping == Stopping::hybrid);
  CHECK(config.min_rounds == 10);
  CHECK(metric(config, "score").threshold == Approx(0.05));
  CHECK(metric(config, "score").tolerance == Approx(0.01));
  CHECK(metric(config, "score").estimator == Estimator::median);
  CHECK(metric(config, "score").pattern == "score: ([0-9.]+)");  // what made the runs stays
  CHECK(metric(config, "wall_time").gating == Gating::gated);
  CHECK(metric(config, "wall_time").unit == "s");
  CHECK(config.seed == std::uint64_t{7});
  CHECK(settings_changes(reanalysis_saved_config(), config) ==
        std::vector<std::string>{"confidence 99 % (was 95 %)", "min_rounds 10 (was 30)",
                                 "stopping hybrid (was width)", "wall_time: gate true (was false)",
                                 "score: threshold 5 % (was 20 %)", "score: tolerance 1 % (was 0 %)",
                                 "score: estimator median (was mean)"});
}

TEST_CASE("a re-analysis with the duel's own configuration file changes nothing", "[reanalysis][config]") {
  Config config = reanalysis_saved_config();
  const std::string gate_yaml =
      "min_rounds: 30\n"
      "max_seconds: 600\n"  // the budget: add_perf_gate passes a smaller one on the command line
      "stopping: width\n"
      "baseline: ./bench --old\n"
      "metrics:\n"
      "  wall_time: {gate: false}\n"
      "  score: {regex: 'score: ([0-9.]+)', threshold: 20%}\n";
  CHECK(apply_reanalysis_settings(config, gate_yaml, "gate.yaml") == std::vector<std::string>{"max_seconds"});
  CHECK(config.max_seconds == reanalysis_saved_config().max_seconds);
  CHECK(settings_changes(reanalysis_saved_config(), config).empty());
}

TEST_CASE("a re-analysis cannot change what made the runs", "[reanalysis][config]") {
  Config config = reanalysis_saved_config();
  const auto fixed = [](const std::string& where, const std::string& what, const std::string& value) {
    return fmt::format(
        "other.yaml:{}: {} cannot change in a re-analysis: the report's runs were made with {} "
        "(remove the key, or run a new duel)",
        where, what, value);
  };
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "order: abba\n", "other.yaml"),
                    fixed("1", "\"order\"", "random"));
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "warmup: 3\n", "other.yaml"),
                    fixed("1", "\"warmup\"", "1 warm-up rounds"));
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "seed: 8\n", "other.yaml"),
                    fixed("1", "\"seed\"", "7"));
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "env_padding: false\n", "other.yaml"),
                    fixed("1", "\"env_padding\"", "true"));
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "cpus: 2-3\n", "other.yaml"),
                    fixed("1", "\"cpus\"", "auto"));
  CHECK_THROWS_WITH(
      apply_reanalysis_settings(config, "warmup: 1\ncandidate: ./bench --newer\n", "other.yaml"),
      fixed("2", "\"candidate\"", "./bench --new"));
  CHECK_THROWS_WITH(
      apply_reanalysis_settings(config, "metrics:\n  score: {regex: 'time: ([0-9.]+)'}\n", "other.yaml"),
      fixed("2", "the source of metric \"score\"", "regex \"score: ([0-9.]+)\""));
  CHECK_THROWS_WITH(
      apply_reanalysis_settings(config, "metrics:\n  scor: {threshold: 5%}\n", "other.yaml"),
      "other.yaml:2: metric \"scor\" is not in the report (did you mean \"score\"?); the metrics "
      "measured cannot change in a re-analysis (the report has wall_time, user_time, system_time, "
      "max_rss, score)");
  // The same source again is no change; nothing was applied by the failed attempts.
  apply_reanalysis_settings(config, "metrics:\n  score: {regex: 'score: ([0-9.]+)'}\n", "other.yaml");
  CHECK(settings_changes(reanalysis_saved_config(), config).empty());
  // A bad value is reported as in any configuration file.
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "stopping: never\n", "other.yaml"),
                    "other.yaml:1: \"stopping\" must be one of hybrid, width, anytime, not \"never\"");
  CHECK_THROWS_WITH(apply_reanalysis_settings(config, "metrics:\n  score: {gate: false}\n", "other.yaml"),
                    "other.yaml:1: no metric is gated; set \"gate: true\" on at least one metric");
}

TEST_CASE("a benchmark pattern sets the metrics it was expanded to", "[reanalysis][config]") {
  Config config = parse_config(
      "metrics:\n"
      "  wall_time: {gate: false}\n"
      "  sorts/BM_Sort/64: {google_benchmark: BM_Sort/64}\n"
      "  sorts/BM_Sort/256: {google_benchmark: BM_Sort/256}\n",
      "report.json (config)");
  apply_reanalysis_settings(config, "metrics:\n  sorts: {google_benchmark: 'BM_Sort/*', threshold: 50%}\n",
                            "gate.yaml");
  CHECK(metric(config, "sorts/BM_Sort/64").threshold == Approx(0.5));
  CHECK(metric(config, "sorts/BM_Sort/256").threshold == Approx(0.5));
  CHECK(settings_changes(default_config(), default_config()).empty());
  CHECK_THROWS_WITH(
      apply_reanalysis_settings(config, "metrics:\n  sorts: {google_benchmark: 'BM_Hash/*'}\n", "gate.yaml"),
      "gate.yaml:2: the source of metric \"sorts/BM_Sort/64\" cannot change in a re-analysis: the report's "
      "runs "
      "were made with google_benchmark \"BM_Sort/64\", field real_time (remove the key, or run a new duel)");
}

TEST_CASE("one setting from the command line, for every metric or for one", "[reanalysis][config]") {
  Config config = reanalysis_saved_config();
  apply_reanalysis_setting(config, "threshold", "", "5%", "--threshold");
  CHECK(metric(config, "score").threshold == Approx(0.05));
  CHECK(metric(config, "wall_time").threshold == Approx(0.05));
  apply_reanalysis_setting(config, "tolerance", "score", "3%", "--tolerance");
  CHECK(metric(config, "score").tolerance == Approx(0.03));
  // wall_time's band was at its default, half the threshold: it follows the new threshold.
  CHECK(metric(config, "wall_time").tolerance == Approx(0.025));
  apply_reanalysis_setting(config, "confidence", "", "90%", "--confidence");
  CHECK(config.confidence == Approx(0.90));
  CHECK(settings_changes(reanalysis_saved_config(), config) ==
        std::vector<std::string>{"confidence 90 % (was 95 %)", "4 metrics: threshold 5 % (was 2 %)",
                                 "4 metrics: tolerance 2.5 % (was 1 %)", "score: threshold 5 % (was 20 %)",
                                 "score: tolerance 3 % (was 0 %)"});
  CHECK_THROWS_WITH(apply_reanalysis_setting(config, "threshold", "", "5 parsecs", "--threshold"),
                    Catch::StartsWith("--threshold: \"threshold\": "));
  CHECK_THROWS_WITH(
      apply_reanalysis_setting(config, "estimator", "score", "mode", "--estimator"),
      "--estimator: \"estimator\" must be one of mean, median, min, ratio, trimmed, not \"mode\"");
  CHECK_THROWS_WITH(apply_reanalysis_setting(config, "threshold", "nope", "5%", "--threshold"),
                    Catch::StartsWith("--threshold: metric \"nope\" is not in the report"));
}

TEST_CASE("many metrics with one change are one line", "[reanalysis][config]") {
  Config before = default_config();
  Config after = before;
  for (auto& spec : after.metrics) {
    spec.threshold = 0.1;
  }
  CHECK(settings_changes(before, after) == std::vector<std::string>{"4 metrics: threshold 10 % (was 2 %)"});
}

TEST_CASE("re-deciding a +10 % change: the tolerance and the threshold move the verdict",
          "[reanalysis][analysis]") {
  // The saved duel: score +10 % with 2 % noise per run over 60 rounds, gated with a 20 %
  // threshold and no tolerance: a regression.
  const Config saved = reanalysis_saved_config();
  const auto runs = runs_with_change(saved, 60, 0.10, 0.02);
  const Analysis original = analyze(saved, runs, Finality::final);
  REQUIRE(original.verdict == Verdict::regression);
  const auto& interval = original.metrics[4].ci;
  REQUIRE(interval.lo > 0.06);
  REQUIRE(interval.hi < 0.14);

  SECTION("a tolerance above the change: no change") {
    Config config = saved;
    apply_reanalysis_settings(config, "metrics:\n  score: {tolerance: 15%}\n", "pass.yaml");
    const Analysis analysis = analyze(config, runs, Finality::final);
    CHECK(analysis.verdict == Verdict::no_change);
    CHECK(analysis.can_stop);
    CHECK(reanalysis_end(DuelEnd::decided, analysis.can_stop, analysis.stop) == DuelEnd::decided);
    // The interval is the same: only the decision moved.
    CHECK(analysis.metrics[4].ci.lo == interval.lo);
  }
  SECTION("a tolerance below the change: still a regression") {
    Config config = saved;
    apply_reanalysis_setting(config, "tolerance", "score", "5%", "--tolerance");
    CHECK(analyze(config, runs, Finality::final).verdict == Verdict::regression);
  }
  SECTION("a threshold the interval does not reach: undecided, because the runs ended") {
    Config config = saved;
    apply_reanalysis_settings(config, "metrics:\n  score: {tolerance: 15%, threshold: 1%}\n", "pass.yaml");
    const Analysis analysis = analyze(config, runs, Finality::final);
    CHECK(analysis.verdict == Verdict::inconclusive);
    CHECK_FALSE(analysis.can_stop);
    CHECK(reanalysis_end(DuelEnd::decided, analysis.can_stop, analysis.stop) == DuelEnd::runs_ended);
    CHECK(exit_code_for(DuelEnd::runs_ended, analysis.verdict, config.on_inconclusive) ==
          ExitCode::inconclusive);
  }
}

TEST_CASE("why a re-analysis ended", "[reanalysis][verdict]") {
  // A duel that did not run to its end stays so, whatever the new settings decide.
  CHECK(reanalysis_end(DuelEnd::benchmark_failed, true, DuelEnd::decided) == DuelEnd::benchmark_failed);
  CHECK(reanalysis_end(DuelEnd::interrupted, true, DuelEnd::decided) == DuelEnd::interrupted);
  // Settled under the new settings: as the new analysis says.
  CHECK(reanalysis_end(DuelEnd::round_budget, true, DuelEnd::decided) == DuelEnd::decided);
  CHECK(reanalysis_end(DuelEnd::decided, true, DuelEnd::regression_found) == DuelEnd::regression_found);
  // Not settled: the budget that ended the duel, or the report's runs.
  CHECK(reanalysis_end(DuelEnd::time_budget, false, DuelEnd::decided) == DuelEnd::time_budget);
  CHECK(reanalysis_end(DuelEnd::regression_found, false, DuelEnd::decided) == DuelEnd::runs_ended);
  CHECK(to_string(DuelEnd::runs_ended) == "runs-ended");
  CHECK(end_reason(DuelEnd::runs_ended) ==
        "the report's runs ended before every gated metric settled with these settings");
}

TEST_CASE("the JSON report of a re-analysis says of which report, and reads back", "[reanalysis][report]") {
  Config config = reanalysis_saved_config();
  DuelOutcome outcome;
  outcome.metrics = config.metrics;
  outcome.runs = runs_with_change(config, 30, 0.10, 0.03);
  outcome.analysis = analyze(config, outcome.runs, Finality::final);
  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  summary.reanalysis =
      Reanalysis{"report.json", {"pass.yaml", "--threshold"}, {"score: tolerance 15 % (was 0 %)"}, {}};
  const auto json = report_to_json(summary);
  CHECK(json["reanalysis"]["of"] == "report.json");
  CHECK(json["reanalysis"]["settings_from"] == nlohmann::ordered_json::array({"pass.yaml", "--threshold"}));
  CHECK(json["reanalysis"]["changed"][0] == "score: tolerance 15 % (was 0 %)");
  const SavedReport again = report_from_json_strict(json, "again.json");
  CHECK(again.runs.size() == outcome.runs.size());
  summary.reanalysis.reset();
  CHECK_FALSE(report_to_json(summary).contains("reanalysis"));
}
