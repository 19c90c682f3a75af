#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/descriptive.hpp"
#include "stats/noise.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel::stats;

namespace {

// Noise of σ per round, independent, as round_noise reports it for clean data.
RoundNoise independent_noise(double sigma) {
  RoundNoise noise;
  noise.sigma = sigma;
  noise.lag1 = 0;
  noise.rounds = 100;
  return noise;
}

}  // namespace

TEST_CASE("readable thresholds round up to a step a person would write", "[stats][calibration]") {
  CHECK(readable_fraction(0.0723) == Approx(0.075));
  CHECK(readable_fraction(0.122) == Approx(0.13));
  CHECK(readable_fraction(0.05) == Approx(0.05));  // already readable, not the next step
  CHECK(readable_fraction(0.0041) == Approx(0.005));
  CHECK(readable_fraction(0.33) == Approx(0.35));
  CHECK(readable_fraction(1.23) == Approx(1.3));
  CHECK(readable_fraction(0.0) == 0.0);
}

TEST_CASE("the duel's widening until independence is shown", "[stats][calibration]") {
  // r1 = 0 over 30 rounds: upper bound 1.644854/√30 = 0.30031, factor √(1.30031/0.69969).
  CHECK(independence_widening(0.0, 30, 0.1) == Approx(1.36324).epsilon(1e-4));
  // From 44 rounds the bound is below 0.25: not widened.
  CHECK(independence_widening(0.0, 44, 0.1) == 1.0);
  CHECK(independence_widening(std::nan(""), 30, 0.1) == 1.0);
  CHECK(independence_widening(0.0, 30, 1.0) == 1.0);  // the check is off
}

TEST_CASE("the projected width is the width rule's at σ's stopping bound", "[stats][calibration]") {
  // n = 100, σ = 0.1: 2 · t(0.975, 99) · 0.1/√100 · √(99/χ²₀.₀₅(99)),
  // t = 1.984217, χ²₀.₀₅(99) = 77.0463 (tables).
  const double expected = std::expm1(2 * 1.984217 * 0.01 * std::sqrt(99 / 77.0463));
  CHECK(projected_width(independent_noise(0.1), 100, 0.95) == Approx(expected).epsilon(1e-4));
}

TEST_CASE("rounds to settle and the threshold for a number of rounds invert each other",
          "[stats][calibration]") {
  const RoundNoise noise = independent_noise(0.05);
  const SettleLevels one{0.955, 0.955, 20};  // one gated metric: the width rule alone
  for (const std::size_t n : {20U, 57U, 300U, 4000U}) {
    const double threshold = projected_width(noise, n, one.width_level);
    CHECK(rounds_to_settle(noise, threshold, threshold / 2, one) == static_cast<double>(n));
    CHECK(threshold_for_rounds(noise, static_cast<double>(n), 0.5, one) == Approx(threshold));
  }
  // The minimum rounds come first, however wide the threshold.
  CHECK(rounds_to_settle(noise, 10.0, 5.0, one) == 20.0);
  // Four times the noise needs about sixteen times the rounds (once t and σ's bound are near
  // their limits: thousands of rounds).
  const double quiet = rounds_to_settle(noise, 0.005, 0.0025, one);
  const double noisy = rounds_to_settle(independent_noise(0.2), 0.005, 0.0025, one);
  CHECK(noisy / quiet == Approx(16).epsilon(0.05));
}

TEST_CASE("a suite's no-change settles sooner inside the band than by the width rule",
          "[stats][calibration]") {
  const RoundNoise noise = independent_noise(0.1);
  // 13 gated metrics at 95 %: the width rule at 1 − 0.05·0.9/13, the band at 1 − 0.05·0.9.
  const SettleLevels suite{1 - 0.05 * 0.9 / 13, 1 - 0.05 * 0.9, 20};
  SettleLevels width_only = suite;
  width_only.pass_level = width_only.width_level;
  const double both = rounds_to_settle(noise, 0.05, 0.03, suite);
  CHECK(both < rounds_to_settle(noise, 0.05, 0.03, width_only));
  // At the band's rounds the band rule's reach is inside ln(1.03), a round earlier it is not.
  const auto n = static_cast<std::size_t>(both);
  CHECK(projected_reach(noise, n, suite.pass_level) <= std::log1p(0.03));
  CHECK(projected_reach(noise, n - 1, suite.pass_level) > std::log1p(0.03));
  // The threshold for those rounds, its tolerance 60 % of it, settles within them.
  const double threshold = threshold_for_rounds(noise, both, 0.6, suite);
  CHECK(rounds_to_settle(noise, threshold, 0.6 * threshold, suite) <= both);
}

TEST_CASE("degenerate noise: none, unknown, hopeless", "[stats][calibration]") {
  const SettleLevels levels{0.95, 0.95, 20};
  CHECK(rounds_to_settle(independent_noise(0.0), 0.01, 0.005, levels) == 20.0);
  CHECK(threshold_for_rounds(independent_noise(0.0), 30, 0.5, levels) == 0.0);
  CHECK(std::isnan(rounds_to_settle(RoundNoise{}, 0.01, 0.005, levels)));
  CHECK(std::isinf(rounds_to_settle(independent_noise(5.0), 1e-4, 0.0, levels)));
  CHECK(std::isnan(round_noise(std::vector<double>{0.1, 0.2}, Estimator::mean, 0.1, 20).sigma));
}

TEST_CASE("round noise: the estimator's σ, the long-run σ of correlated rounds", "[stats][calibration]") {
  std::mt19937_64 rng(5);
  const auto iid = perfduel::test::ar1(rng, 2000, 0.0, 0.1);
  const RoundNoise plain = round_noise(iid, Estimator::mean, 0.1, 20);
  CHECK(plain.sigma == Approx(stddev(iid)));
  CHECK_FALSE(plain.correlated);
  CHECK(plain.rounds == 2000);
  // Yuen's σ of a trimmed mean of normal values is about 1.06 times the mean's (efficiency 0.9).
  CHECK(round_noise(iid, Estimator::trimmed, 0.1, 20).sigma / plain.sigma == Approx(1.06).epsilon(0.05));
  // A hiccup of one round in a hundred, 20 σ off: the mean's σ counts it, the trimmed mean's not.
  auto spiky = iid;
  for (std::size_t i = 0; i < spiky.size(); i += 100) {
    spiky[i] += 2.0;
  }
  CHECK(round_noise(spiky, Estimator::mean, 0.1, 20).sigma > 2 * plain.sigma);
  CHECK(round_noise(spiky, Estimator::trimmed, 0.1, 20).sigma < 1.2 * plain.sigma);
  // AR(1) with ρ = 0.5: the long-run σ is √((1 + ρ)/(1 − ρ)) = √3 times the marginal one.
  const auto correlated = perfduel::test::ar1(rng, 4000, 0.5, 0.1);
  const RoundNoise long_run = round_noise(correlated, Estimator::mean, 0.1, 20);
  CHECK(long_run.correlated);
  CHECK(long_run.batch_size > 1);
  CHECK(long_run.sigma / stddev(correlated) == Approx(std::sqrt(3.0)).epsilon(0.15));
}
