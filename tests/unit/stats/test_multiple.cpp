#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/multiple.hpp"
#include "stats/paired.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel::stats;

TEST_CASE("Bonferroni divides the error rate", "[stats]") {
  CHECK(bonferroni_confidence(0.95, 1) == Approx(0.95));
  CHECK(bonferroni_confidence(0.95, 4) == Approx(0.9875));
  CHECK(bonferroni_confidence(0.95, 0) == Approx(0.95));
}

TEST_CASE("Holm's step-down matches a worked example", "[stats]") {
  // α = 0.05, m = 3: 0.01 ≤ 0.05/3, 0.02 ≤ 0.05/2, 0.04 ≤ 0.05/1: all rejected, where
  // Bonferroni (each ≤ 0.0167) rejects only the first.
  const std::vector<double> p{0.04, 0.01, 0.02};
  CHECK(holm_rejections(p, 0.05) == std::vector<bool>{true, true, true});
  CHECK(holm_levels(p, 0.05) == std::vector<double>{0.05, 0.05 / 3, 0.025});
  const auto adjusted = holm_adjusted(p);
  CHECK(adjusted[0] == Approx(0.04));
  CHECK(adjusted[1] == Approx(0.03));
  CHECK(adjusted[2] == Approx(0.04));
  // The first failure stops the procedure: 0.03 > 0.05/2, so 0.04 is kept though ≤ 0.05.
  const std::vector<double> q{0.005, 0.03, 0.04};
  CHECK(holm_rejections(q, 0.05) == std::vector<bool>{true, false, false});
}

TEST_CASE("Holm's degenerate inputs", "[stats]") {
  CHECK(holm_rejections(std::vector<double>{}, 0.05).empty());
  const std::vector<double> with_nan{std::nan(""), 0.001};
  CHECK(holm_rejections(with_nan, 0.05) == std::vector<bool>{false, true});
  const std::vector<double> ties{0.02, 0.02};
  CHECK(holm_rejections(ties, 0.05) == std::vector<bool>{true, true});
}

TEST_CASE("t-test p-value is the test the t interval inverts", "[stats]") {
  const std::vector<double> x{0.1, 0.3, 0.2, 0.25, 0.05, 0.15, 0.3, 0.22};
  const auto ci = t_interval(x, 0.95);
  REQUIRE(ci);
  const double se = ci->stddev / std::sqrt(8.0);
  // Just outside and just inside the lower end of the interval.
  CHECK(t_test_p_value(ci->mean, se, 7, {ci->ci.lo - 1e-9, ci->ci.lo - 1e-9}) < 0.05);
  CHECK(t_test_p_value(ci->mean, se, 7, {ci->ci.lo + 1e-9, ci->ci.lo + 1e-9}) > 0.05);
  CHECK(t_test_p_value(ci->mean, se, 7, {ci->ci.lo, ci->ci.lo}) == Approx(0.05));
  CHECK(t_test_p_value(ci->mean, se, 7, {0, 1}) == 1.0);
  CHECK(t_test_p_value(0.1, 0.0, 7, {0, 0}) == 0.0);
  CHECK(t_test_p_value(0.0, 0.0, 7, {0, 0}) == 1.0);
}

TEST_CASE("Holm keeps the family-wise error rate with four true nulls", "[stats]") {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  constexpr int k_trials = 20000;
  int any_rejected = 0;
  for (int trial = 0; trial < k_trials; ++trial) {
    const std::vector<double> p{uniform(rng), uniform(rng), uniform(rng), uniform(rng)};
    const auto rejected = holm_rejections(p, 0.05);
    any_rejected += (rejected[0] || rejected[1] || rejected[2] || rejected[3]) ? 1 : 0;
  }
  // Independent uniform p-values: exactly 1 − (1 − 0.0125)⁴ = 4.91 %.
  CHECK(any_rejected / double{k_trials} ==
        Approx(0.0491).margin(perfduel::test::binomial_tolerance(0.0491, k_trials)));
}
