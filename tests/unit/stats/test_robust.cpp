#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/robust.hpp"
#include "support/stats_simulation.hpp"

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

TEST_CASE("trimmed mean: Yuen's interval against a hand-computed example", "[stats]") {
  // 1 … 9 and an outlier of 100, 20 % trimmed: g = 2 dropped at each end, h = 6 kept (3 … 8),
  // mean 5.5. Winsorized: 3 3 3 4 5 6 7 8 8 8, s_w = 2.173067; SE = s_w·√(9 / (6·5)) = 1.190238;
  // t(0.975, 5) = 2.570582, so the interval is 5.5 ± 3.059604. The outlier moves nothing.
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 100};
  const auto interval = trimmed_mean_interval(x, 0.2, 0.95);
  REQUIRE(interval);
  CHECK(interval->center == Approx(5.5));
  CHECK(interval->kept == 6);
  CHECK(interval->degrees_of_freedom == 5);
  CHECK(interval->standard_error == Approx(1.1902381).epsilon(1e-6));
  CHECK(interval->ci.lo == Approx(2.4403956).epsilon(1e-6));
  CHECK(interval->ci.hi == Approx(8.5596044).epsilon(1e-6));
  // No trimming is the t interval of the mean.
  const auto plain = trimmed_mean_interval(x, 0.0, 0.95);
  const auto t = t_interval(x, 0.95);
  REQUIRE(plain);
  REQUIRE(t);
  CHECK(plain->ci.lo == Approx(t->ci.lo));
  CHECK(plain->ci.hi == Approx(t->ci.hi));
  // Three values trim nothing (g = ⌊0.6⌋ = 0); one value cannot give an interval.
  CHECK(trimmed_mean_interval(std::vector<double>{1, 2, 3}, 0.2, 0.95));
  CHECK_FALSE(trimmed_mean_interval(std::vector<double>{1.0}, 0.2, 0.95));
}

TEST_CASE("trimmed mean: under heavy tails its interval covers and is narrower than the mean's",
          "[stats][simulation]") {
  // 2000 seeded samples of 60 values: normal σ = 0.05 plus, in 20 % of values, a shift of
  // ±|N(0, 0.25)| (the suite model's tails on either side of a log-ratio). The trimmed mean's
  // 95 % interval covers the centre 0 in at least 94 % of samples and is on average at least
  // 20 % narrower than the t interval of the mean.
  std::mt19937_64 rng(99);
  std::normal_distribution<double> body(0.0, 0.05);
  std::normal_distribution<double> tail(0.0, 0.25);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int covered = 0;
  double trimmed_width = 0;
  double mean_width = 0;
  constexpr int k_samples = 2000;
  for (int i = 0; i < k_samples; ++i) {
    std::vector<double> x;
    for (int j = 0; j < 60; ++j) {
      double v = body(rng);
      if (unit(rng) < 0.2) {
        v += tail(rng);
      }
      x.push_back(v);
    }
    const auto trimmed = trimmed_mean_interval(x, 0.2, 0.95);
    const auto t = t_interval(x, 0.95);
    covered += trimmed->ci.contains(0.0) ? 1 : 0;
    trimmed_width += trimmed->ci.width();
    mean_width += t->ci.width();
  }
  INFO("coverage " << covered / double(k_samples) << ", width ratio " << trimmed_width / mean_width);
  CHECK(covered >= 0.94 * k_samples);
  CHECK(trimmed_width <= 0.8 * mean_width);
}
