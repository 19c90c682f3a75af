#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/estimate.hpp"
#include "stats/paired.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel::stats;

namespace {

// Candidate runs exp(d_i) against a baseline of 1s, so the log-ratios are exactly `d`.
std::vector<double> exp_of(const std::vector<double>& d) {
  std::vector<double> out;
  for (const double v : d) {
    out.push_back(std::exp(v));
  }
  return out;
}

}  // namespace

TEST_CASE("mean estimator is the t interval on the log-ratios", "[stats]") {
  const std::vector<double> d{0.02, 0.04, 0.04, 0.04, 0.05, 0.05, 0.07, 0.09};
  const std::vector<double> a(d.size(), 1.0);
  // Eight rising values have r1 > 0.1, and with fewer than 2·20 rounds the estimator would
  // ask for more rounds (see choose_batching); switch batching off to pin the interval.
  EstimatorOptions options;
  options.autocorrelation_limit = 1.0;
  const Estimate e = estimate(Estimator::mean, a, exp_of(d), options);
  REQUIRE(e.status == EstimateStatus::ok);
  const auto t = t_interval(d, 0.95);
  CHECK(e.center == Approx(0.05));
  CHECK(e.ci.lo == Approx(t->ci.lo));
  CHECK(e.ci.hi == Approx(t->ci.hi));
  CHECK(e.rounds == 8);
  CHECK(e.batch_size == 1);
  CHECK(e.batches == 8);
  CHECK(e.p_value < 0.001);
}

TEST_CASE("the stopping allowance widens every estimator's interval by σ's upper bound", "[stats]") {
  std::mt19937_64 rng(31);
  std::normal_distribution<double> noise(0.01, 0.02);
  std::vector<double> d(120);
  for (double& v : d) {
    v = noise(rng);
  }
  const std::vector<double> a(d.size(), 1.0);
  EstimatorOptions plain;
  plain.autocorrelation_limit = 1.0;  // independent by construction; pin the unbatched interval
  EstimatorOptions widened = plain;
  widened.decision_sigma_level = 0.75;

  const Estimate m0 = estimate(Estimator::mean, a, exp_of(d), plain);
  const Estimate m1 = estimate(Estimator::mean, a, exp_of(d), widened);
  const double factor = sigma_upper_bound_factor(120, 0.75);
  CHECK(m1.sequential_allowance == Approx(factor));
  CHECK(m1.center == Approx(m0.center));
  CHECK(m1.ci.width() == Approx(m0.ci.width() * factor));
  CHECK(m1.p_value > m0.p_value);

  const Estimate med0 = estimate(Estimator::median, a, exp_of(d), plain);
  const Estimate med1 = estimate(Estimator::median, a, exp_of(d), widened);
  CHECK(med1.ci.lo <= med0.ci.lo);
  CHECK(med1.ci.hi >= med0.ci.hi);
  CHECK(med1.p_value >= med0.p_value);

  const Estimate min0 = estimate(Estimator::min, a, exp_of(d), plain);
  const Estimate min1 = estimate(Estimator::min, a, exp_of(d), widened);
  REQUIRE(min0.status == EstimateStatus::ok);
  CHECK(min1.ci.width() == Approx(min0.ci.width() * sigma_upper_bound_factor(min0.batches, 0.75)));
}

TEST_CASE("median and min estimators are dispatched", "[stats]") {
  std::vector<double> d;
  for (int i = 0; i < 24; ++i) {
    d.push_back(0.01 * (i % 5));
  }
  const std::vector<double> a(d.size(), 1.0);
  const Estimate med = estimate(Estimator::median, a, exp_of(d), EstimatorOptions{});
  REQUIRE(med.status == EstimateStatus::ok);
  CHECK(med.center == Approx(0.02));
  EstimatorOptions few_batches;
  few_batches.min_batches = 4;
  const Estimate min = estimate(Estimator::min, a, exp_of(d), few_batches);
  CHECK(min.status == EstimateStatus::ok);
  CHECK(min.batch_size == 6);
  CHECK(min.batches == 4);
}

TEST_CASE("estimate degenerate cases", "[stats]") {
  const std::vector<double> one{1.0};
  const Estimate e = estimate(Estimator::mean, one, one, EstimatorOptions{});
  CHECK(e.status == EstimateStatus::insufficient_data);
  CHECK(e.note == "needs at least 2 rounds for an interval");
  const std::vector<double> five(5, 1.0);
  const Estimate m = estimate(Estimator::median, five, five, EstimatorOptions{});
  CHECK(m.status == EstimateStatus::insufficient_data);
  CHECK(m.note == "the sign-test interval at 95 % confidence needs more than 5 rounds");
  const std::vector<double> bad{1.0, -1.0};
  const std::vector<double> good{1.0, 1.0};
  const Estimate b = estimate(Estimator::mean, bad, good, EstimatorOptions{});
  CHECK(b.status == EstimateStatus::insufficient_data);
  CHECK_THAT(b.note, Catch::StartsWith("round 2:"));
  // Identical runs: zero variance, zero-width interval at 0, p-value 1.
  const std::vector<double> same(30, 3.0);
  const Estimate z = estimate(Estimator::mean, same, same, EstimatorOptions{});
  REQUIRE(z.status == EstimateStatus::ok);
  CHECK(z.ci.width() == 0.0);
  CHECK(z.p_value == 1.0);
  CHECK(std::isnan(z.lag1));
}

TEST_CASE("p-value tests against the tolerance band", "[stats]") {
  const std::vector<double> d(40, 0.03);
  std::vector<double> noisy = d;
  for (std::size_t i = 0; i < noisy.size(); ++i) {
    noisy[i] += (i % 2 == 0 ? 0.001 : -0.001);
  }
  const std::vector<double> a(d.size(), 1.0);
  EstimatorOptions options;
  CHECK(estimate(Estimator::mean, a, exp_of(noisy), options).p_value < 1e-10);
  options.null_band = {-0.05, 0.05};
  CHECK(estimate(Estimator::mean, a, exp_of(noisy), options).p_value == 1.0);
}

TEST_CASE("each estimator's interval covers at the nominal rate (iid log-normal)", "[stats]") {
  std::mt19937_64 rng(31);
  std::normal_distribution<double> noise(0.0, 0.05);
  constexpr int k_trials = 1500;
  int covered_mean = 0;
  int covered_median = 0;
  const std::vector<double> a(40, 1.0);
  for (int trial = 0; trial < k_trials; ++trial) {
    std::vector<double> d(40);
    for (auto& v : d) {
      v = noise(rng);
    }
    const auto b = exp_of(d);
    covered_mean += estimate(Estimator::mean, a, b, EstimatorOptions{}).ci.contains(0.0) ? 1 : 0;
    covered_median += estimate(Estimator::median, a, b, EstimatorOptions{}).ci.contains(0.0) ? 1 : 0;
  }
  const double tolerance = perfduel::test::binomial_tolerance(0.95, k_trials);
  // The t interval is exact for normal d; batching (triggered by chance r1) only widens it.
  CHECK(covered_mean / double{k_trials} == Approx(0.95).margin(tolerance));
  // The sign test is conservative by construction (n = 40: exact coverage 96.2 %).
  CHECK(covered_median / double{k_trials} >= 0.95 - tolerance);
}
