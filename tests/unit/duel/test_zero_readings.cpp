#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "error.hpp"
#include "report/progress.hpp"
#include "support/analysis_helpers.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel;
using perfduel::test::quantized_rounds;
using perfduel::test::QuantizedModel;
using perfduel::testing::has_note;
using perfduel::testing::runs_of;

namespace {

MetricSpec gated(const std::string& name, MetricSource source, double threshold = 0.3) {
  MetricSpec spec;
  spec.name = name;
  spec.source = source;
  spec.gating = Gating::gated;
  spec.threshold = threshold;
  spec.unit = source == MetricSource::regex ? "" : "s";
  return spec;
}

// `rounds` rounds of CPU-time readings in 4 ms ticks; the first `zeros` baseline runs read 0.
std::pair<std::vector<double>, std::vector<double>> ticks(std::size_t rounds, std::size_t zeros) {
  std::vector<double> a(rounds, 0.004);
  std::vector<double> b(rounds, 0.004);
  for (std::size_t i = 0; i < rounds; ++i) {
    a[i] = i < zeros ? 0.0 : 0.004 * static_cast<double>(1 + i % 3);
    b[i] = 0.004 * static_cast<double>(1 + (i + 1) % 3);
  }
  return {a, b};
}

}  // namespace

TEST_CASE("which metrics may read 0: by source, or as configured", "[config][zeros]") {
  MetricSpec spec;
  for (const auto source : {MetricSource::user_time, MetricSource::system_time}) {
    spec.source = source;
    CHECK(zeros_allowed(spec));
  }
  for (const auto source :
       {MetricSource::wall_time, MetricSource::max_rss, MetricSource::regex, MetricSource::json_pointer,
        MetricSource::google_benchmark, MetricSource::catch2}) {
    spec.source = source;
    CHECK_FALSE(zeros_allowed(spec));
  }
  spec.source = MetricSource::counter;
  spec.event = CountedEvent::branch_misses;
  CHECK(zeros_allowed(spec));
  spec.event = CountedEvent::instructions;
  CHECK_FALSE(zeros_allowed(spec));
  spec.source = MetricSource::regex;
  spec.zeros = Zeros::allowed;
  CHECK(zeros_allowed(spec));
  spec.source = MetricSource::user_time;
  spec.zeros = Zeros::error;
  CHECK_FALSE(zeros_allowed(spec));
}

TEST_CASE("the zeros key is read, checked and written back", "[config][zeros]") {
  const Config config = parse_config(
      "metrics:\n"
      "  allocations: {regex: 'allocs: (\\d+)', zeros: allowed}\n"
      "  user_time: {zeros: error}\n",
      "gate.yaml");
  const auto find = [&](const Config& c, const std::string& name) {
    return *std::find_if(c.metrics.begin(), c.metrics.end(),
                         [&](const MetricSpec& m) { return m.name == name; });
  };
  CHECK(find(config, "allocations").zeros == Zeros::allowed);
  CHECK(find(config, "user_time").zeros == Zeros::error);
  CHECK_FALSE(find(config, "wall_time").zeros.has_value());
  const Config again = parse_config(config_to_json(config), "effective");
  CHECK(find(again, "allocations").zeros == Zeros::allowed);
  CHECK(find(again, "user_time").zeros == Zeros::error);
  CHECK_FALSE(find(again, "wall_time").zeros.has_value());
  CHECK_THROWS_WITH(parse_config("metrics:\n  user_time: {zeros: maybe}\n", "gate.yaml"),
                    Catch::StartsWith("gate.yaml:2: \"zeros\" must be one of allowed, error, not \"maybe\""));
}

TEST_CASE("a CPU time that reads 0 is estimated as the ratio of means and says so", "[analysis][zeros]") {
  Config config;
  config.metrics = {gated("user_time", MetricSource::user_time, 2.0)};
  config.min_rounds = 3;
  auto [a, b] = ticks(12, 2);
  const Analysis analysis = analyze(config, runs_of(a, b), Finality::final);
  const MetricResult& result = analysis.metrics[0];
  CHECK(result.estimator == Estimator::ratio);
  CHECK(result.has_ratio);
  CHECK(result.estimate.status == stats::EstimateStatus::ok);
  double sum_a = 0;
  double sum_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum_a += a[i];
    sum_b += b[i];
  }
  CHECK(result.change == Approx(sum_b / sum_a - 1));
  CHECK(has_note(analysis,
                 "user_time: 2 of 12 baseline and 0 of 12 candidate runs read 0 s, at its resolution: "
                 "change estimated as the ratio of means (delta-method interval)"));
  // A metric that has read 0 needs the zero rule's rounds before it may settle.
  CHECK(result.min_rounds == k_zero_rule_rounds);

  SECTION("without a zero the mean log-ratio stays") {
    a[0] = a[1] = 0.004;
    const Analysis positive = analyze(config, runs_of(a, b), Finality::final);
    CHECK(positive.metrics[0].estimator == Estimator::mean);
    CHECK(positive.metrics[0].min_rounds == 3);
  }
  SECTION("the live line labels it") {
    Analysis live = analysis;
    live.metrics[0].settled_by = SettledBy::none;
    CHECK(format_progress(live, 1.0).find("user_time " + std::string(result.change > 0 ? "+" : "")) !=
          std::string::npos);
    CHECK(format_progress(live, 1.0).find("(ratio of means) width") != std::string::npos);
  }
}

TEST_CASE("the zero rule refuses a gated metric shown to read mostly 0", "[analysis][zeros]") {
  Config config;
  config.metrics = {gated("user_time", MetricSource::user_time)};
  config.min_rounds = 3;
  // 9 of 9 rounds at 0: too early to judge, and too early to settle.
  const auto [a9, b9] = ticks(9, 9);
  const Analysis early = analyze(config, runs_of(a9, b9), Finality::ongoing);
  CHECK_FALSE(early.metrics[0].enough_rounds);
  CHECK_FALSE(early.can_stop);
  // 10 of 10: refused with exit code 2, naming metric, counts and resolution.
  const auto [a, b] = ticks(10, 10);
  try {
    analyze(config, runs_of(a, b), Finality::ongoing);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit_code() == ExitCode::usage);
    CHECK(
        std::string(e.what()) ==
        "metric \"user_time\": 10 of 10 baseline and 0 of 10 candidate runs read 0 s: most runs are below "
        "its "
        "resolution (the kernel splits each run's CPU time between user and system time per scheduler tick "
        "(1–10 ms); the smallest reading above 0 was 4.00 ms). Make each run longer (repeat the work inside "
        "the benchmark), or gate another metric (wall_time, counted instructions)");
  }
  // 9 of 10 may still be luck at 99.9 %; 18 of 20 is not; 12 of 20 is not shown to be most.
  const auto [a10, b10] = ticks(10, 9);
  CHECK_NOTHROW(analyze(config, runs_of(a10, b10), Finality::ongoing));
  const auto [a20, b20] = ticks(20, 18);
  CHECK_THROWS_AS(analyze(config, runs_of(a20, b20), Finality::ongoing), Error);
  const auto [a12, b12] = ticks(20, 12);
  CHECK_NOTHROW(analyze(config, runs_of(a12, b12), Finality::ongoing));

  SECTION("a report-only metric is shown without a ratio instead") {
    config.metrics[0].gating = Gating::report_only;
    const Analysis analysis = analyze(config, runs_of(a, b), Finality::final);
    CHECK_FALSE(analysis.metrics[0].has_ratio);
    CHECK(analysis.metrics[0].estimate.note ==
          "no ratio: 10 of 10 baseline and 0 of 10 candidate runs read 0 s, below its resolution");
  }
}

TEST_CASE("a 0 where zeros are not allowed, or a negative value, stays a failed benchmark",
          "[analysis][zeros]") {
  Config config;
  config.metrics = {gated("score", MetricSource::regex)};
  auto [a, b] = ticks(12, 1);
  const auto message_of = [&](const Config& c, const std::vector<double>& x, const std::vector<double>& y) {
    try {
      analyze(c, runs_of(x, y), Finality::ongoing);
    } catch (const Error& e) {
      CHECK(e.exit_code() == ExitCode::benchmark_failed);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message_of(config, a, b) ==
        "metric \"score\": baseline value 0 in round 1; a ratio needs positive values (is the metric read "
        "correctly? if 0 is a valid reading, set \"zeros: allowed\")");
  config.metrics[0].zeros = Zeros::allowed;
  CHECK(analyze(config, runs_of(a, b), Finality::ongoing).metrics[0].estimator == Estimator::ratio);
  config.metrics[0] = gated("user_time", MetricSource::user_time);
  b[3] = -0.004;
  CHECK(
      message_of(config, a, b) ==
      "metric \"user_time\": candidate value -0.004 in round 4; a ratio needs positive values (is the metric "
      "read correctly?)");
}

// The whole gate, round by round as the driver runs it (hybrid stopping, 95 %), on identical
// programs whose CPU time reads 0 in about a quarter of the runs: the false-alarm rate must stay
// at the nominal 5 % (within binomial noise), and no gate may end in an error.
TEST_CASE("A/A gates on quantized CPU time with zeros keep the false-alarm rate",
          "[analysis][zeros][simulation]") {
  Config config;
  config.metrics = {gated("user_time", MetricSource::user_time, 0.4)};
  config.min_rounds = 20;
  constexpr int k_gates = 400;
  constexpr std::size_t k_max_rounds = 600;
  std::mt19937_64 rng(2024);
  int false_alarms = 0;
  int decided = 0;
  for (int gate = 0; gate < k_gates; ++gate) {
    const auto [a, b] = quantized_rounds(rng, k_max_rounds, QuantizedModel::lognormal, 0.0);
    std::vector<RunRecord> runs;
    for (std::size_t round = 0; round < k_max_rounds; ++round) {
      runs.push_back({static_cast<int>(round), Side::baseline, false, {a[round]}});
      runs.push_back({static_cast<int>(round), Side::candidate, false, {b[round]}});
      if (round + 1 >= static_cast<std::size_t>(config.min_rounds) &&
          analyze(config, runs, Finality::ongoing).can_stop) {
        break;
      }
    }
    const Analysis final_analysis = analyze(config, runs, Finality::final);
    const Verdict verdict = final_analysis.metrics[0].verdict;
    false_alarms += verdict == Verdict::regression || verdict == Verdict::improvement ? 1 : 0;
    decided += verdict == Verdict::no_change ? 1 : 0;
  }
  INFO("false alarms " << false_alarms << " of " << k_gates << ", no change " << decided);
  CHECK(false_alarms / double{k_gates} <= 0.05 + perfduel::test::binomial_tolerance(0.05, k_gates));
  CHECK(decided > k_gates * 9 / 10);
}
