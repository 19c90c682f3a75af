// The sheriff rule of the default trend: known answers of one change's evidence, and by seeded
// simulation on generated benchmark histories its false changes on identical programs and its
// detection of known steps.
#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "support/benchmark_histories.hpp"
#include "trend/change_evidence.hpp"
#include "trend/history_trend.hpp"
#include "trend/jumpavg.hpp"
#include "trend/scoring.hpp"

using namespace perfduel::trend;
using perfduel::test::benchmark_history;
using perfduel::test::BenchmarkHistory;
using perfduel::test::HistoryNoise;

namespace {

std::vector<double> steady_runs(std::size_t count, double value, double noise, std::mt19937_64& random) {
  std::normal_distribution<double> normal(0.0, noise);
  std::vector<double> values(count);
  for (double& v : values) {
    v = value * (1.0 + normal(random));
  }
  return values;
}

std::vector<double> joined(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The default grouping (segments with the sheriff rule) of `values`, lower is better.
Grouping default_grouping(const std::vector<double>& values) {
  GroupingOptions options;
  options.direction = perfduel::stats::Direction::lower_is_better;
  auto grouping = group_values(values, options);
  REQUIRE(grouping);
  return *grouping;
}

std::vector<std::size_t> found_changes(const Grouping& g) {
  std::vector<std::size_t> points;
  for (std::size_t i = 1; i < g.groups.size(); ++i) {
    points.push_back(g.groups[i].start);
  }
  return points;
}

}  // namespace

TEST_CASE("change evidence: a step of five deviations held 30 runs is a change", "[trend][evidence]") {
  std::mt19937_64 random(1);
  const auto before = steady_runs(30, 100.0, 0.01, random);
  const auto after = steady_runs(30, 105.0, 0.01, random);
  const ChangeEvidence e = weigh_change(before, after, 59);
  CHECK(e.p_value < 1e-6);
  CHECK(e.step == Approx(5.0).margin(1.0));
  CHECK(e.step_in_noise > 3.0);
  CHECK(e.held_runs == 30);
  CHECK(accepted(e, 0.02));
  // The same step is not 10 % of the level, and 11 runs are not lasting.
  CHECK_FALSE(accepted(e, 0.10));
  CHECK_FALSE(accepted(weigh_change(before, std::span(after).first(11), 40), 0.02));
}

TEST_CASE("change evidence: a step of one deviation is not a sheriff's change", "[trend][evidence]") {
  // 1,000 runs a side make a 3 % step over 3 % noise as significant as any, but not large.
  std::mt19937_64 random(2);
  const ChangeEvidence e =
      weigh_change(steady_runs(1000, 100.0, 0.03, random), steady_runs(1000, 103.0, 0.03, random), 1999);
  CHECK(e.p_value < 1e-6);
  CHECK(e.step_in_noise < 2.0);
  CHECK_FALSE(accepted(e, 0.02));
}

TEST_CASE("change evidence: no noise and no runs", "[trend][evidence]") {
  const std::vector<double> flat(20, 100.0);
  const std::vector<double> higher(20, 110.0);
  const ChangeEvidence exact = weigh_change(flat, higher, 39);
  CHECK(exact.noise == 0.0);
  CHECK(std::isinf(exact.step_in_noise));
  CHECK(weigh_change(flat, flat, 39).step_in_noise == 0.0);
  const ChangeEvidence none = weigh_change({}, flat, 19);
  CHECK(none.p_value == 1.0);
  CHECK_FALSE(accepted(none, 0.0));
}

TEST_CASE("sheriff rule: an excursion that returns is no change, a lasting step is", "[trend][evidence]") {
  std::mt19937_64 random(3);
  // 11 runs 30 % slow between two long stretches of one level (a page load's second mode).
  const auto excursion =
      joined(joined(steady_runs(60, 200.0, 0.02, random), steady_runs(11, 260.0, 0.02, random)),
             steady_runs(40, 200.0, 0.02, random));
  CHECK(default_grouping(excursion).groups.size() == 1);
  // The same 30 % held 40 runs: one regression, with its evidence.
  const auto lasting = joined(steady_runs(60, 200.0, 0.02, random), steady_runs(40, 260.0, 0.02, random));
  const Grouping g = default_grouping(lasting);
  REQUIRE(g.groups.size() == 2);
  CHECK(g.groups[1].start == 60);
  CHECK(g.groups[1].change == Change::regression);
  REQUIRE(g.groups[1].evidence);
  CHECK(g.groups[1].evidence->held_runs == 40);
  CHECK(g.groups[1].evidence->step_in_noise > 5.0);
}

TEST_CASE("sheriff rule: a change in the newest runs waits until it has held", "[trend][evidence]") {
  std::mt19937_64 random(4);
  const auto old_level = steady_runs(100, 100.0, 0.005, random);
  const auto new_level = steady_runs(30, 110.0, 0.005, random);
  const auto first_runs = [&](std::size_t held) {
    return joined(old_level, std::vector<double>(new_level.begin(), new_level.begin() + held));
  };
  CHECK(default_grouping(first_runs(k_min_held_runs - 1)).groups.size() == 1);
  const Grouping confirmed = default_grouping(first_runs(k_min_held_runs));
  REQUIRE(confirmed.groups.size() == 2);
  CHECK(newest_regression(confirmed) == &confirmed.groups.back());
  // `perfduel record` alerts for k_alert_runs records, then the change is old news.
  CHECK(newest_regression(default_grouping(first_runs(k_min_held_runs + k_alert_runs - 1))) != nullptr);
  CHECK(newest_regression(default_grouping(first_runs(k_min_held_runs + k_alert_runs))) == nullptr);
}

TEST_CASE("sheriff rule: at most 1 false change per 100 series of identical programs",
          "[trend][evidence][simulation]") {
  // 400 series of 200 runs of one program: 0.5 % noise, 1 % of runs 50 % slow, 3-run excursions
  // of 10 % now and then (benchmark_histories.hpp); and 200 more at 1 % noise.
  int changed = 0;
  std::mt19937_64 random(53);
  for (int i = 0; i < 400; ++i) {
    changed += default_grouping(benchmark_history(random, 200, 0).values).groups.size() > 1 ? 1 : 0;
  }
  HistoryNoise noisy;
  noisy.noise = 0.01;
  for (int i = 0; i < 200; ++i) {
    changed += default_grouping(benchmark_history(random, 200, 0, noisy).values).groups.size() > 1 ? 1 : 0;
  }
  CHECK(changed <= 6);
}

TEST_CASE("sheriff rule: known steps of 2-15 % are found", "[trend][evidence][simulation]") {
  // 100 histories of 400 runs with 3 steps of 2–15 % over 0.5 % noise with outliers: F1 with the
  // benchmark's margin of 5 runs.
  std::mt19937_64 random(54);
  double f1 = 0.0;
  constexpr int k_histories = 100;
  for (int i = 0; i < k_histories; ++i) {
    const BenchmarkHistory h = benchmark_history(random, 400, 3);
    const std::vector<ChangePoints> truth{h.steps};
    f1 += f1_score(truth, found_changes(default_grouping(h.values))).f1;
  }
  CHECK(f1 / k_histories >= 0.95);
}
