// The Mann–Whitney test: known values, degenerate samples, and its false-alarm rate by simulation.
#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/rank_sum.hpp"

using perfduel::stats::rank_sum_test;

TEST_CASE("rank sum: separated samples against the normal approximation", "[stats][rank_sum]") {
  // U = 0; mean 4.5, variance 3·3/12·7 = 5.25; z = (4.5 − 0.5)/√5.25.
  const std::vector<double> low{1, 2, 3};
  const std::vector<double> high{4, 5, 6};
  const auto test = rank_sum_test(low, high);
  CHECK(test.u == 0.0);
  CHECK(test.z == Approx(1.745743121887939));
  CHECK(test.p_value == Approx(0.08085).epsilon(1e-3));
  // Symmetric in the samples, but U counts the first's wins.
  const auto reverse = rank_sum_test(high, low);
  CHECK(reverse.u == 9.0);
  CHECK(reverse.p_value == Approx(test.p_value));
}

TEST_CASE("rank sum: ties share their ranks and shrink the variance", "[stats][rank_sum]") {
  // Ranks 1.5, 1.5, 3 | 4, 5.5, 5.5: U = 6 − 6 = 0, variance 9/12·(7 − 12/30) = 4.95.
  const auto test = rank_sum_test(std::vector<double>{1, 1, 2}, std::vector<double>{3, 4, 4});
  CHECK(test.u == 0.0);
  CHECK(test.z == Approx(4.0 / std::sqrt(4.95)));
}

TEST_CASE("rank sum: nothing to rank gives no evidence", "[stats][rank_sum]") {
  const std::vector<double> same{5, 5, 5, 5};
  CHECK(rank_sum_test(same, same).p_value == 1.0);
  CHECK(rank_sum_test(same, same).z == 0.0);
  CHECK(rank_sum_test(std::vector<double>{}, same).p_value == 1.0);
}

TEST_CASE("rank sum: 5 % of identical samples are called different at 5 %", "[stats][rank_sum][simulation]") {
  // 4,000 pairs of 30 runs of one heavy-tailed distribution (lognormal, 2 % slow outliers): the
  // test is distribution-free, so the rate is the nominal 5 % up to the approximation's error.
  std::mt19937_64 random(53);
  std::lognormal_distribution<double> run(0.0, 0.3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int rejected = 0;
  constexpr int k_pairs = 4000;
  for (int i = 0; i < k_pairs; ++i) {
    std::vector<double> a(30);
    std::vector<double> b(30);
    for (auto* side : {&a, &b}) {
      for (double& x : *side) {
        x = run(random) * (unit(random) < 0.02 ? 3.0 : 1.0);
      }
    }
    rejected += rank_sum_test(a, b).p_value <= 0.05 ? 1 : 0;
  }
  const double rate = static_cast<double>(rejected) / k_pairs;
  CHECK(rate > 0.035);
  CHECK(rate < 0.060);
}
