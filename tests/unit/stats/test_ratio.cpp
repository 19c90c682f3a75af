#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/descriptive.hpp"
#include "stats/estimate.hpp"
#include "stats/paired.hpp"
#include "stats/ratio.hpp"
#include "support/stats_simulation.hpp"

using namespace perfduel::stats;
using perfduel::test::binomial_tolerance;
using perfduel::test::quantized_rounds;
using perfduel::test::QuantizedModel;

TEST_CASE("ratio of means and its linearised values", "[stats][zeros]") {
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> b{2, 2, 5};
  const auto r = ratio_of_means(a, b);
  REQUIRE(r);
  CHECK(r->log_ratio == Approx(std::log(1.5)));
  REQUIRE(r->influence.size() == 3);
  // z_i = b_i / b̄ − a_i / ā with ā = 2, b̄ = 3.
  CHECK(r->influence[0] == Approx(1.0 / 6));
  CHECK(r->influence[1] == Approx(-1.0 / 3));
  CHECK(r->influence[2] == Approx(1.0 / 6));

  const std::vector<double> with_zero{0, 2, 4};
  const auto z = ratio_of_means(a, with_zero);
  REQUIRE(z);
  CHECK(z->log_ratio == Approx(0.0).margin(1e-12));
}

TEST_CASE("ratio of means refuses what has no ratio, naming the round or the side", "[stats][zeros]") {
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> zeros{0, 0, 0};
  const std::vector<double> negative{1, -2, 3};
  const std::vector<double> nan{1, 2, std::nan("")};
  const std::vector<double> two{1, 2};
  CHECK(ratio_of_means(zeros, a).error() == "every baseline value is 0: no ratio of means exists");
  CHECK(ratio_of_means(a, zeros).error() == "every candidate value is 0: no ratio of means exists");
  CHECK(ratio_of_means(a, negative).error() ==
        "round 2: baseline 2 and candidate -2 must both be zero or positive for a ratio of means");
  CHECK_THAT(ratio_of_means(nan, a).error(), Catch::StartsWith("round 3: baseline nan"));
  CHECK(ratio_of_means(a, two).error() == "3 baseline values but 2 candidate values");
}

TEST_CASE("the ratio estimator is the delta method's t interval around ln(b̄/ā)", "[stats][zeros]") {
  const std::vector<double> a{4, 0, 8, 4, 4, 8, 0, 4, 4, 4};
  const std::vector<double> b{4, 4, 8, 0, 8, 8, 4, 4, 4, 8};
  EstimatorOptions options;
  options.autocorrelation_limit = 1.0;  // pin the unbatched interval
  const Estimate e = estimate(Estimator::ratio, a, b, options);
  REQUIRE(e.status == EstimateStatus::ok);
  const auto r = ratio_of_means(a, b);
  const auto t = t_interval(r->influence, 0.95);
  CHECK(e.center == Approx(std::log(52.0 / 40.0)));
  CHECK(t->mean == Approx(0.0).margin(1e-12));
  CHECK(e.ci.lo == Approx(e.center - (t->ci.hi - t->mean)));
  CHECK(e.ci.hi == Approx(e.center + (t->ci.hi - t->mean)));
  CHECK(e.rounds == 10);
  CHECK(e.batches == 10);
  CHECK(e.p_value > 0.05);  // +30 % on ten quantized runs is not yet significant

  SECTION("too few rounds or a side all at 0 give no interval") {
    const std::vector<double> one{4};
    CHECK(estimate(Estimator::ratio, one, one, options).status == EstimateStatus::insufficient_data);
    const std::vector<double> nothing(10, 0.0);
    const Estimate none = estimate(Estimator::ratio, nothing, b, options);
    CHECK(none.status == EstimateStatus::insufficient_data);
    CHECK(none.note == "every baseline value is 0: no ratio of means exists");
  }
  SECTION("identical runs give a point interval") {
    const Estimate same = estimate(Estimator::ratio, a, a, options);
    REQUIRE(same.status == EstimateStatus::ok);
    CHECK(same.center == 0.0);
    CHECK(same.ci.width() == 0.0);
    CHECK(same.p_value == 1.0);
  }
}

TEST_CASE("the ratio estimator batches autocorrelated rounds like the mean does", "[stats][zeros]") {
  // Each side's own AR(1) state (ρ = 0.6) makes the per-round values, and with them the
  // linearised values, autocorrelated; batching must widen the interval rather than trust it.
  std::mt19937_64 rng(7);
  const auto state_a = perfduel::test::ar1(rng, 800, 0.6, 0.3);
  const auto state_b = perfduel::test::ar1(rng, 800, 0.6, 0.3);
  std::vector<double> a;
  std::vector<double> b;
  std::uniform_real_distribution<double> phase(0.0, 1.0);
  for (std::size_t i = 0; i < state_a.size(); ++i) {
    a.push_back(std::floor(3.0 * std::exp(state_a[i]) + phase(rng)));
    b.push_back(std::floor(3.0 * std::exp(state_b[i]) + phase(rng)));
  }
  EstimatorOptions off;
  off.autocorrelation_limit = 1.0;
  const Estimate plain = estimate(Estimator::ratio, a, b, off);
  const Estimate batched = estimate(Estimator::ratio, a, b, EstimatorOptions{});
  REQUIRE(batched.status == EstimateStatus::ok);
  CHECK(batched.lag1 > 0.3);
  CHECK(batched.batch_size > 1);
  CHECK(batched.ci.width() > 1.5 * plain.ci.width());
}

// Coverage of the fixed-sample interval on CPU-time readings quantized to a 4 ms tick (see
// QuantizedModel): exponential true times (27 % of readings at 0) and log-normal ones around
// 3 ms with a shared per-round factor (25 % at 0), each A/A and with a true +10 % change of the
// mean. Batching is off so that the interval itself is measured, not the widening that
// batching adds while independence is unproven.
TEST_CASE("the ratio interval covers at the nominal rate on quantized readings with zeros",
          "[stats][zeros]") {
  constexpr int k_trials = 2000;
  EstimatorOptions options;
  options.autocorrelation_limit = 1.0;
  const double tolerance = binomial_tolerance(0.95, k_trials);
  for (const QuantizedModel model : {QuantizedModel::exponential, QuantizedModel::lognormal}) {
    for (const double change : {0.0, 0.10}) {
      for (const std::size_t rounds : {std::size_t{40}, std::size_t{200}}) {
        std::mt19937_64 rng(1000 + rounds + static_cast<std::uint64_t>(100 * change));
        int covered = 0;
        std::size_t zeros = 0;
        for (int trial = 0; trial < k_trials; ++trial) {
          const auto [a, b] = quantized_rounds(rng, rounds, model, change);
          for (const double v : a) {
            zeros += v == 0 ? 1 : 0;
          }
          const Estimate e = estimate(Estimator::ratio, a, b, options);
          covered += e.status == EstimateStatus::ok && e.ci.contains(std::log1p(change)) ? 1 : 0;
        }
        const double coverage = covered / double{k_trials};
        const double zero_share = static_cast<double>(zeros) / static_cast<double>(k_trials * rounds);
        INFO("model " << (model == QuantizedModel::exponential ? "exponential" : "lognormal") << ", change "
                      << change << ", " << rounds << " rounds: coverage " << coverage << ", zeros "
                      << zero_share);
        CHECK(zero_share > 0.15);
        CHECK(coverage == Approx(0.95).margin(tolerance));
      }
    }
  }
}

TEST_CASE("the ratio interval detects a true +10 % change of quantized readings", "[stats][zeros]") {
  // 1,000 rounds of the log-normal model (about 25 % zeros): the standard error of ln R̂ is
  // about 0.027, so +10 % (0.095) lies 3.5 standard errors out and the 95 % interval should
  // exclude 0 in about 93 % of samples; the mean log-ratio cannot even be computed here.
  constexpr int k_trials = 300;
  std::mt19937_64 rng(77);
  int detected = 0;
  for (int trial = 0; trial < k_trials; ++trial) {
    const auto [a, b] = quantized_rounds(rng, 1000, QuantizedModel::lognormal, 0.10);
    CHECK_FALSE(log_ratios(a, b));
    const Estimate e = estimate(Estimator::ratio, a, b, EstimatorOptions{});
    detected += e.status == EstimateStatus::ok && e.ci.lo > 0 ? 1 : 0;
  }
  CHECK(detected / double{k_trials} > 0.85);
}

TEST_CASE("the lower bound of a proportion is Wilson's", "[stats][zeros]") {
  // The textbook 95 % Wilson interval of 5 in 10 is [0.2366, 0.7634]: its lower end is the
  // one-sided 97.5 % bound.
  CHECK(proportion_lower_bound(5, 10, 0.975) == Approx(0.2366).margin(1e-4));
  // The zero rule's level: 10 of 10 is just enough to call "more than half", 9 of 10 is not.
  CHECK(proportion_lower_bound(10, 10, 0.999) == Approx(0.5116).margin(1e-4));
  CHECK(proportion_lower_bound(9, 10, 0.999) < 0.5);
  CHECK(proportion_lower_bound(0, 10, 0.999) == 0.0);
  CHECK(proportion_lower_bound(0, 0, 0.999) == 0.0);
}
