#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/paired.hpp"
#include "stats/sequential.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel::stats;

TEST_CASE("normal-mixture boundary matches hand-computed values", "[stats]") {
  // α = 0.05, t* = 100: ρ² = (−2 ln 0.05 + ln(1 − 2 ln 0.05)) / 100 = 0.0793615.
  const double rho2 = normal_mixture_rho2(0.05, 100);
  CHECK(rho2 == Approx(0.0793615).epsilon(1e-6));
  // sqrt(2·(100ρ² + 1)/(100²ρ²) · ln(sqrt(100ρ² + 1)/0.05)) = 0.303521, against 0.198 for the
  // fixed-n t interval: the price of looking after every round.
  CHECK(normal_mixture_radius(100, 0.05, rho2) == Approx(0.3035209).epsilon(1e-6));
  CHECK(std::isinf(normal_mixture_radius(0, 0.05, rho2)));
  // Shrinks like sqrt(log t / t).
  CHECK(normal_mixture_radius(10000, 0.05, rho2) < normal_mixture_radius(1000, 0.05, rho2));
}

TEST_CASE("confidence sequence degenerate cases", "[stats]") {
  CHECK_FALSE(asymptotic_confidence_sequence(std::vector<double>(19, 1.0), 0.95, 20, 20));
  CHECK_FALSE(asymptotic_confidence_sequence(std::vector<double>{1.0}, 0.95, 0, 20));
  const auto flat = asymptotic_confidence_sequence(std::vector<double>(20, 0.5), 0.95, 20, 20);
  REQUIRE(flat);
  CHECK(flat->ci.lo == 0.5);
  CHECK(flat->ci.hi == 0.5);
}

TEST_CASE("confidence sequence stays valid when peeked at every round", "[stats]") {
  // 400 null paths of 300 rounds, looked at after every round from round 20 on. The t
  // interval, peeked at that often, misses 0 at some round on far more than 5 % of paths;
  // the confidence sequence stays near or under 5 %.
  std::mt19937_64 rng(17);
  std::normal_distribution<double> noise(0.0, 1.0);
  constexpr int k_paths = 400;
  int t_ever_missed = 0;
  int cs_ever_missed = 0;
  for (int path = 0; path < k_paths; ++path) {
    std::vector<double> x;
    bool t_missed = false;
    bool cs_missed = false;
    for (int t = 0; t < 300; ++t) {
      x.push_back(noise(rng));
      if (x.size() < 20) {
        continue;
      }
      t_missed = t_missed || !t_interval(x, 0.95)->ci.contains(0.0);
      cs_missed = cs_missed || !asymptotic_confidence_sequence(x, 0.95, 20, 20)->ci.contains(0.0);
    }
    t_ever_missed += t_missed ? 1 : 0;
    cs_ever_missed += cs_missed ? 1 : 0;
  }
  CHECK(t_ever_missed / double{k_paths} > 0.15);
  CHECK(cs_ever_missed / double{k_paths} <= 0.05 + perfduel::test::binomial_tolerance(0.05, k_paths));
}
