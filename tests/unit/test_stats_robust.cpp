#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/robust.hpp"
#include "stats_simulation.hpp"

using namespace perfduel::stats;

TEST_CASE("sign-test ranks match the binomial table", "[stats]") {
  // n = 20, 95 %: P(Bin(20, ½) ≤ 5) = 0.0207 ≤ 0.025 < P(≤ 6) = 0.0577: ranks 6 and 15
  // (Conover, Practical Nonparametric Statistics, Table A3).
  const auto r20 = sign_test_ranks(20, 0.95);
  REQUIRE(r20);
  CHECK(r20->lower == 6);
  CHECK(r20->upper == 15);
  CHECK(r20->coverage == Approx(0.9586105).epsilon(1e-6));
  // n = 6 is the smallest sample with a 95 % interval: [x_(1), x_(6)] covers 1 − 2/64.
  const auto r6 = sign_test_ranks(6, 0.95);
  REQUIRE(r6);
  CHECK(r6->lower == 1);
  CHECK(r6->upper == 6);
  CHECK_FALSE(sign_test_ranks(5, 0.95));
  CHECK_FALSE(sign_test_ranks(0, 0.95));
  // Larger n, 99 %: n = 100 gives ranks 37 and 64 (normal approximation 50 ± 2.576·5 = 37.1).
  const auto r100 = sign_test_ranks(100, 0.99);
  REQUIRE(r100);
  CHECK(r100->lower == 37);
  CHECK(r100->upper == 64);
}

TEST_CASE("sign-test interval picks the order statistics, ties included", "[stats]") {
  std::vector<double> x;
  for (int i = 20; i >= 1; --i) {
    x.push_back(i);
  }
  const auto ci = sign_test_interval(x, 0.95);
  REQUIRE(ci);
  CHECK(ci->median == 10.5);
  CHECK(ci->ci.lo == 6);
  CHECK(ci->ci.hi == 15);
  const auto tied = sign_test_interval(std::vector<double>(10, 2.0), 0.95);
  REQUIRE(tied);
  CHECK(tied->ci.lo == 2.0);
  CHECK(tied->ci.hi == 2.0);
}

TEST_CASE("sign-test p-value against a band", "[stats]") {
  const std::vector<double> all_above{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(sign_test_p_value(all_above, {0, 0}) == Approx(2.0 / 1024));
  CHECK(sign_test_p_value(all_above, {-20, 20}) == 1.0);
  // Values equal to the edge are dropped: 9 trials, 9 above.
  const std::vector<double> with_zero{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK(sign_test_p_value(with_zero, {0, 0}) == Approx(2.0 / 512));
  CHECK(sign_test_p_value(std::vector<double>{}, {0, 0}) == 1.0);
}

TEST_CASE("sign-test interval covers the median of heavy-tailed data", "[stats]") {
  // Cauchy noise (no mean at all): the t interval is meaningless, the sign test exact.
  std::mt19937_64 rng(7);
  std::cauchy_distribution<double> cauchy(0.0, 1.0);
  constexpr int k_trials = 2000;
  int covered = 0;
  for (int trial = 0; trial < k_trials; ++trial) {
    std::vector<double> x(20);
    for (auto& v : x) {
      v = cauchy(rng);
    }
    covered += sign_test_interval(x, 0.95)->ci.contains(0.0) ? 1 : 0;
  }
  CHECK(covered / double{k_trials} ==
        Approx(0.9586).margin(perfduel::test::binomial_tolerance(0.9586, k_trials)));
}

TEST_CASE("min estimator finds the ratio of the undisturbed runs", "[stats]") {
  // Baseline 1.0, candidate 1.1; one run in four of each side is hit by a large spike.
  std::vector<double> a;
  std::vector<double> b;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> jitter(0.0, 0.001);
  for (int i = 0; i < 60; ++i) {
    a.push_back(std::exp(jitter(rng)) * (i % 4 == 0 ? 3.0 : 1.0));
    b.push_back(1.1 * std::exp(jitter(rng)) * (i % 4 == 1 ? 5.0 : 1.0));
  }
  MinOptions options;
  options.min_batches = 2;
  const MinEstimate m = min_estimate(a, b, options);
  REQUIRE(m.status == MinStatus::ok);
  CHECK(m.batch_size == 6);
  CHECK(m.batches == 10);
  CHECK(std::exp(m.center) == Approx(1.1).epsilon(0.002));
  CHECK(m.ci.contains(std::log(1.1)));
  CHECK(m.p_value < 1e-6);
}

TEST_CASE("min estimator refuses to judge when the halves disagree", "[stats]") {
  std::vector<double> a;
  std::vector<double> b;
  std::mt19937_64 rng(4);
  std::normal_distribution<double> jitter(0.0, 0.002);
  for (int i = 0; i < 60; ++i) {
    a.push_back(std::exp(jitter(rng)));
    b.push_back((i < 30 ? 1.0 : 1.08) * std::exp(jitter(rng)));
  }
  MinOptions options;
  options.min_batches = 2;
  const MinEstimate m = min_estimate(a, b, options);
  CHECK(m.status == MinStatus::unstable);
  CHECK(m.halves_gap == Approx(0.08).epsilon(0.1));
  CHECK_THAT(m.note, Catch::StartsWith("unstable: the min estimate moved by"));
}

TEST_CASE("min estimator degenerate cases", "[stats]") {
  const std::vector<double> few(11, 1.0);
  const MinEstimate m = min_estimate(few, few, MinOptions{});
  CHECK(m.status == MinStatus::insufficient_data);
  CHECK(m.note == "the min estimator needs at least 120 rounds (20 batches of 6)");
  // Identical constant runs: zero spread, a collapsed interval at 0, no doubt in the p-value.
  const std::vector<double> flat(24, 2.0);
  MinOptions two;
  two.min_batches = 2;
  const MinEstimate z = min_estimate(flat, flat, two);
  REQUIRE(z.status == MinStatus::ok);
  CHECK(z.center == 0.0);
  CHECK(z.ci.width() == 0.0);
  CHECK(z.p_value == 1.0);
}
