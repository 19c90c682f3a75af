// The duel loop through a scripted executor: run order, warm-up, stopping, budget, verdicts.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "support/scripted_duel.hpp"

using namespace perfduel;
using perfduel::testing::duel;
using perfduel::testing::duel_config;
using perfduel::testing::measured_rounds;
using perfduel::testing::ScriptedExecutor;
using perfduel::testing::wall_time;

TEST_CASE("warm-up rounds are run first and left out of the analysis", "[duel]") {
  Config config = duel_config();
  config.warmup = 3;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  // The candidate's warm-up runs are 100 times slower: if they counted, no "no change".
  executor.set_tweak([](Side side, int call, RunResult& result) {
    if (side == Side::candidate && call < 3) {
      result.wall_seconds *= 100;
    }
  });
  const auto outcome = duel(config, executor);
  REQUIRE(outcome.end == DuelEnd::decided);
  REQUIRE(outcome.runs.size() >= 6);
  for (std::size_t i = 0; i < outcome.runs.size(); ++i) {
    const auto& run = outcome.runs[i];
    CHECK(run.warmup == (i < 6));
    CHECK(run.round == static_cast<int>(i / 2));
  }
  CHECK(outcome.analysis.measured_rounds * 2 + 6 == static_cast<int>(outcome.runs.size()));
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  CHECK(wall_time(outcome.analysis).candidate_median == Approx(0.1).epsilon(0.02));
  CHECK(executor.order().size() == outcome.runs.size());
  CHECK(executor.timeouts().front() == config.run_timeout);
}

TEST_CASE("each measured round has one baseline and one candidate run", "[duel]") {
  Config config = duel_config();
  config.min_rounds = 40;
  ScriptedExecutor executor({0.1, 0.05}, {0.1, 0.05});
  const auto outcome = duel(config, executor);
  const auto rounds = measured_rounds(outcome);
  REQUIRE(static_cast<int>(rounds.size()) == outcome.analysis.measured_rounds);
  CHECK(outcome.analysis.measured_rounds >= 40);
  int expected_round = config.warmup;
  for (const auto& [round, runs] : rounds) {
    CHECK(round == expected_round++);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0]->side != runs[1]->side);
    CHECK(runs[0]->values.size() == config.metrics.size());
  }
}

TEST_CASE("random order is reproducible for a seed and roughly balanced", "[duel]") {
  // The duel follows candidate_first for every measured round.
  Config config = duel_config();
  config.min_rounds = 30;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  const std::uint64_t seed = 0xfeedbeefcafeULL;
  const auto outcome = duel(config, executor, seed);
  CHECK(outcome.seed == seed);
  for (const auto& [round, runs] : measured_rounds(outcome)) {
    const bool b_first = candidate_first(Order::random, round - config.warmup, seed);
    CHECK(runs.front()->side == (b_first ? Side::candidate : Side::baseline));
  }

  // The same seed gives the same order; another seed another one.
  ScriptedExecutor again({0.1, 0.01}, {0.1, 0.01});
  CHECK(duel(config, again, seed).runs.size() == outcome.runs.size());
  CHECK(again.order() == executor.order());
  ScriptedExecutor other({0.1, 0.01}, {0.1, 0.01});
  duel(config, other, seed + 1);
  CHECK(other.order() != executor.order());

  // Over 2000 rounds the coin is fair: 1000 ± 4σ (σ = √500 ≈ 22.4).
  for (const std::uint64_t s : {1ULL, ~0ULL}) {
    int candidate_first_count = 0;
    int switches = 0;
    bool previous = false;
    for (int round = 0; round < 2000; ++round) {
      const bool b_first = candidate_first(Order::random, round, s);
      candidate_first_count += b_first ? 1 : 0;
      switches += round > 0 && b_first != previous ? 1 : 0;
      previous = b_first;
    }
    CHECK(candidate_first_count > 910);
    CHECK(candidate_first_count < 1090);
    CHECK(switches > 910);  // no long runs of one order either
    CHECK(switches < 1090);
  }
}

TEST_CASE("ABBA order alternates AB, BA", "[duel]") {
  Config config = duel_config();
  config.order = Order::abba;
  config.warmup = 2;
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  const auto outcome = duel(config, executor);
  REQUIRE(outcome.analysis.measured_rounds >= 20);
  for (const auto& [round, runs] : measured_rounds(outcome)) {
    const int measured = round - config.warmup;
    CHECK(runs.front()->side == (measured % 2 == 0 ? Side::baseline : Side::candidate));
  }
  // The executor saw A B | B A | A B | ... after the warm-up.
  const auto& order = executor.order();
  REQUIRE(order.size() >= 8);
  const std::vector<Side> first_blocks(order.begin() + 4, order.begin() + 12);
  CHECK(first_blocks == std::vector<Side>{Side::baseline, Side::candidate, Side::candidate, Side::baseline,
                                          Side::baseline, Side::candidate, Side::candidate, Side::baseline});
  CHECK_FALSE(candidate_first(Order::abba, 0, 7));
  CHECK(candidate_first(Order::abba, 1, 7));
  CHECK_FALSE(candidate_first(Order::abba, 2, 7));
}

TEST_CASE("the duel stops once the interval is narrow enough", "[duel]") {
  Config config = duel_config();
  config.autocorrelation_limit = 1.0;  // no batching, so that the plain t interval decides at min_rounds
  ScriptedExecutor executor({0.1, 0.002}, {0.1, 0.002});
  int progress_calls = 0;
  const auto outcome = run_duel(config, executor, 3, [&](const Analysis& analysis, double) {
    ++progress_calls;
    CHECK(analysis.measured_rounds == progress_calls);
  });
  CHECK(outcome.end == DuelEnd::decided);
  CHECK(outcome.failure.empty());
  // Noise of 0.2 % is narrow at once: the minimum rounds decide, not the budget.
  CHECK(outcome.analysis.measured_rounds == config.min_rounds);
  CHECK(progress_calls == config.min_rounds);
  CHECK(outcome.analysis.verdict == Verdict::no_change);
  CHECK(wall_time(outcome.analysis).width_reached);
}

TEST_CASE("the duel ends at max_rounds with an inconclusive verdict", "[duel]") {
  Config config = duel_config();
  config.max_rounds = 19;                             // below the 20 rounds from which futility may stop it
  ScriptedExecutor executor({0.1, 0.3}, {0.1, 0.3});  // 30 % noise never gets to ±1 % in 19 rounds
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::round_budget);
  CHECK(outcome.analysis.measured_rounds == 19);
  CHECK(outcome.runs.size() == 2 * (19 + 1));
  CHECK(wall_time(outcome.analysis).verdict == Verdict::inconclusive);
  REQUIRE(outcome.analysis.verdict == Verdict::inconclusive);
  CHECK(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::skip) == ExitCode::inconclusive);
  CHECK(to_int(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::skip)) == 77);
  CHECK(to_int(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::fail)) == 1);
  CHECK(to_int(exit_code_for(outcome.analysis.verdict, InconclusivePolicy::pass)) == 0);
}

TEST_CASE("a duel that cannot settle within its budget stops early as futile", "[duel]") {
  Config config = duel_config();
  config.metrics[0].threshold = 0.10;
  config.max_rounds = 60;
  // 30 % noise per run against a 10 % threshold needs about 300 rounds: from round 20 (a fifth
  // of the budget is 12) the projection exceeds three times the budget of 60, and the duel says
  // so instead of spending it.
  ScriptedExecutor executor({0.1, 0.3}, {0.1, 0.3});
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::futile);
  CHECK(outcome.analysis.measured_rounds == 20);
  CHECK(outcome.analysis.verdict == Verdict::inconclusive);
  CHECK(outcome.analysis.fewest_open_projected_rounds > k_futility_margin * 60);
  // With a budget that reaches it, the same duel goes on until its interval settles.
  config.max_rounds = 1000;
  ScriptedExecutor patient({0.1, 0.3}, {0.1, 0.3});
  const auto long_duel = duel(config, patient);
  INFO("stopped at " << long_duel.analysis.measured_rounds << " projecting "
                     << long_duel.analysis.fewest_open_projected_rounds);
  CHECK(long_duel.end == DuelEnd::decided);
}

TEST_CASE("futility: the projection against three times the budget", "[duel][verdict]") {
  CHECK(budget_is_futile(3001, 1000));
  CHECK_FALSE(budget_is_futile(3000, 1000));
  CHECK_FALSE(
      budget_is_futile(std::numeric_limits<double>::quiet_NaN(), 1000));  // a metric has no projection
  CHECK_FALSE(budget_is_futile(1e9, std::numeric_limits<double>::infinity()));
  // The projection: the width rule's interval shrinks as 1/√n, a sequence off the band's edge too.
  MetricSpec spec;
  spec.threshold = 0.02;
  CHECK(projected_rounds(20, std::expm1(2 * std::log1p(0.02)), spec, std::nullopt) == Approx(80));
  CHECK(projected_rounds(20, 0.01, spec, std::nullopt) == Approx(20));  // already narrow enough
  spec.tolerance = 0.05;
  // A sequence at [+6 %, +14 %] in log space: centre 0.10, radius 0.04, gap 0.10 − ln 1.05 ≈ 0.051.
  const double gap = 0.10 - std::log1p(0.05);
  CHECK(projected_rounds(20, 0.5, spec, stats::Interval{0.06, 0.14}) == Approx(20));  // radius < gap already
  CHECK(projected_rounds(20, 0.5, spec, stats::Interval{0.0, 0.2}) == Approx(20 * (0.1 / gap) * (0.1 / gap)));
}

TEST_CASE("a spent time budget ends the duel before the next round", "[duel]") {
  Config config = duel_config();
  config.max_seconds = 0;  // spent as soon as the warm-up round has taken any time at all
  ScriptedExecutor executor({0.1, 0.01}, {0.1, 0.01});
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::time_budget);
  CHECK(outcome.runs.size() == 2);  // the warm-up round only
  CHECK(outcome.analysis.measured_rounds == 0);
  CHECK(outcome.analysis.verdict == Verdict::inconclusive);
}

TEST_CASE("the duel reads its budget on the executor's clock, not the machine's", "[duel]") {
  Config config = duel_config();
  config.max_seconds = 10;
  // Runs of 1 s by the scripted clock, 2 s a round: before each round the elapsed time plus the
  // longest round must stay within 10 s, so the warm-up round and 3 measured rounds fit (2 + 3 × 2
  // = 8 s, and 8 + 2 > 10), however long the machine took to compute them.
  ScriptedExecutor executor({1.0, 1e-9}, {1.0, 1e-9});
  const auto outcome = duel(config, executor);
  CHECK(outcome.end == DuelEnd::time_budget);
  CHECK(outcome.analysis.measured_rounds == 3);
  CHECK(outcome.elapsed_seconds == Approx(8.0));
}

TEST_CASE("exit codes follow the verdict", "[duel]") {
  for (const auto policy : {InconclusivePolicy::skip, InconclusivePolicy::fail, InconclusivePolicy::pass}) {
    CHECK(exit_code_for(Verdict::regression, policy) == ExitCode::regression);
    CHECK(exit_code_for(Verdict::no_change, policy) == ExitCode::pass);
    CHECK(exit_code_for(Verdict::improvement, policy) == ExitCode::pass);
  }
  CHECK(exit_code_for(Verdict::unstable, InconclusivePolicy::skip) == ExitCode::inconclusive);
}

TEST_CASE("A/A, B = 2A and B = A/2 give the right verdicts", "[duel]") {
  Config config = duel_config();
  SECTION("identical distributions: no change") {
    // Several seeds: none may report a regression or an improvement.
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      ScriptedExecutor executor({0.1, 0.02}, {0.1, 0.02}, seed);
      const auto outcome = duel(config, executor, seed);
      CHECK(outcome.end == DuelEnd::decided);
      CHECK(outcome.analysis.verdict == Verdict::no_change);
      CHECK(exit_code_for(outcome.analysis.verdict, config.on_inconclusive) == ExitCode::pass);
    }
  }
  SECTION("the candidate takes twice as long: regression") {
    ScriptedExecutor executor({0.1, 0.02}, {0.2, 0.02});
    const auto outcome = duel(config, executor);
    CHECK(outcome.end == DuelEnd::regression_found);
    REQUIRE(outcome.analysis.verdict == Verdict::regression);
    CHECK(wall_time(outcome.analysis).change == Approx(1.0).margin(0.05));
    // A doubling is settled by the sign sequence at its floor for one gated metric at 95 %:
    // ten rounds all slower by more than the threshold, before min_rounds and before the
    // confidence sequence's burn-in.
    CHECK(wall_time(outcome.analysis).settled_by == SettledBy::signs);
    CHECK(outcome.analysis.measured_rounds == 10);
    CHECK(wall_time(outcome.analysis).ci.lo > 0.8);
    CHECK(exit_code_for(outcome.analysis.verdict, config.on_inconclusive) == ExitCode::regression);
  }
  SECTION("with a fixed order (abba) the confidence sequence settles the doubling after its burn-in") {
    config.order = Order::abba;
    ScriptedExecutor executor({0.1, 0.02}, {0.2, 0.02});
    const auto outcome = duel(config, executor);
    CHECK(outcome.end == DuelEnd::decided);
    REQUIRE(outcome.analysis.verdict == Verdict::regression);
    CHECK(wall_time(outcome.analysis).settled_by == SettledBy::sequence);
    CHECK(outcome.analysis.measured_rounds == config.min_rounds);
  }
  SECTION("the candidate takes half as long: improvement") {
    ScriptedExecutor executor({0.1, 0.02}, {0.05, 0.02});
    const auto outcome = duel(config, executor);
    CHECK(outcome.end == DuelEnd::decided);
    REQUIRE(outcome.analysis.verdict == Verdict::improvement);
    CHECK(wall_time(outcome.analysis).change == Approx(-0.5).margin(0.02));
    CHECK(wall_time(outcome.analysis).ci.hi < -0.45);
    CHECK(exit_code_for(outcome.analysis.verdict, config.on_inconclusive) == ExitCode::pass);
  }
}
