// Statistics for (near-)deterministic metrics such as instruction counts: zero variance, a
// constant difference, and the per-metric minimum rounds.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis_helpers.hpp"
#include "duel/analysis.hpp"
#include "stats/autocorrelation.hpp"
#include "stats/estimate.hpp"
#include "stats/paired.hpp"
#include "stats/sequential.hpp"

using namespace perfduel;
using perfduel::testing::runs_of;

namespace {

MetricSpec gated(const std::string& name, double threshold = 0.02) {
  MetricSpec spec;
  spec.name = name;
  spec.gating = Gating::gated;
  spec.threshold = threshold;
  return spec;
}

Config config_of(std::vector<MetricSpec> metrics, int min_rounds = 20) {
  Config config;
  config.metrics = std::move(metrics);
  config.min_rounds = min_rounds;
  return config;
}

}  // namespace

TEST_CASE("zero variance gives a point interval, never NaN", "[stats][deterministic]") {
  const std::vector<double> zeros(5, 0.0);
  const auto interval = stats::t_interval(zeros, 0.95);
  REQUIRE(interval);
  CHECK(interval->stddev == 0.0);
  CHECK(interval->ci.lo == 0.0);
  CHECK(interval->ci.hi == 0.0);

  const std::vector<double> same(4, 0.00995033);
  const auto shifted = stats::t_interval(same, 0.95);
  REQUIRE(shifted);
  CHECK(shifted->ci.lo == Approx(0.00995033));
  CHECK(shifted->ci.hi == Approx(0.00995033));

  const auto sequence = stats::asymptotic_confidence_sequence(same, 0.99, 3, 3);
  REQUIRE(sequence);
  CHECK(sequence->ci.width() == Approx(0.0).margin(1e-15));
}

TEST_CASE("a series constant up to rounding has no lag-1 autocorrelation", "[stats][deterministic]") {
  // ln(4167131 / 4143007) twenty times: the mean differs from the values by rounding alone,
  // with one sign, which read as r1 = 0.95 and held the width rule back.
  const std::vector<double> d(20, std::log(4167131.0 / 4143007.0));
  CHECK(std::isnan(stats::lag1_autocorrelation(d)));
  const std::vector<double> zeros(20, 0.0);
  CHECK(std::isnan(stats::lag1_autocorrelation(zeros)));
  const auto batching = stats::choose_batching(d, 0.1, 20);
  CHECK(batching.batch_size == 1);
  CHECK_FALSE(batching.provisional);
  CHECK(batching.residual_inflation == 1.0);
  // A real fluctuation, however small, still counts.
  std::vector<double> tiny = d;
  tiny[3] *= 1 + 1e-9;
  CHECK_FALSE(std::isnan(stats::lag1_autocorrelation(tiny)));
}

TEST_CASE("every estimator copes with identical log-ratios", "[stats][deterministic]") {
  // 24 rounds: four batches of six for the min estimator, so its stability check runs too.
  const std::vector<double> a(24, 4143007.0);
  const std::vector<double> same = a;
  const std::vector<double> more(24, 4167131.0);
  stats::EstimatorOptions options;
  options.confidence = 0.95;
  options.decision_sigma_level = 0.75;
  options.min_batches = 2;
  const double shift = std::log(4167131.0 / 4143007.0);
  for (const Estimator estimator : {Estimator::mean, Estimator::median, Estimator::min}) {
    INFO("estimator " << static_cast<int>(estimator));
    const auto aa = stats::estimate(estimator, a, same, options);
    CHECK(aa.status == stats::EstimateStatus::ok);
    CHECK(aa.center == 0.0);
    CHECK(aa.ci.lo == 0.0);
    CHECK(aa.ci.hi == 0.0);
    CHECK(aa.p_value == 1.0);
    const auto ab = stats::estimate(estimator, a, more, options);
    CHECK(ab.status == stats::EstimateStatus::ok);
    CHECK(ab.center == Approx(shift).epsilon(1e-12));
    CHECK(ab.ci.lo == Approx(shift).epsilon(1e-12));
    CHECK(ab.ci.hi == Approx(shift).epsilon(1e-12));
    if (estimator == Estimator::median) {
      CHECK(ab.p_value < 1e-5);  // the sign test: every one of 24 log-ratios above the band
    } else {
      CHECK(ab.p_value == 0.0);  // a t test with zero spread
    }
  }
}

TEST_CASE("is_deterministic: every run of each side within T/100", "[analysis][deterministic]") {
  CHECK(is_deterministic(std::vector<double>{5, 5, 5}, std::vector<double>{6, 6, 6}, 0.02));
  // T/100 = 0.02 %: 1,000,000 and 1,000,200 are within it, 1,000,201 is not.
  CHECK(is_deterministic(std::vector<double>{1e6, 1000200, 1e6}, std::vector<double>{2e6, 2e6}, 0.02));
  CHECK_FALSE(is_deterministic(std::vector<double>{1e6, 1000201, 1e6}, std::vector<double>{2e6, 2e6}, 0.02));
  CHECK_FALSE(is_deterministic(std::vector<double>{5}, std::vector<double>{5}, 0.02));
  CHECK_FALSE(is_deterministic(std::vector<double>{0, 0}, std::vector<double>{0, 0}, 0.02));
}

TEST_CASE("identical counts on both sides are no change after 3 rounds", "[analysis][deterministic]") {
  const Config config = config_of({gated("insns")});
  const std::vector<double> counts(3, 4143007.0);
  const auto two = analyze(config, runs_of({4143007, 4143007}, {4143007, 4143007}), Finality::ongoing);
  CHECK_FALSE(two.can_stop);
  CHECK(two.metrics[0].min_rounds == 3);
  CHECK_FALSE(two.metrics[0].enough_rounds);
  CHECK(two.verdict == Verdict::pending);

  const auto three = analyze(config, runs_of(counts, counts), Finality::ongoing);
  CHECK(three.can_stop);
  CHECK(three.stop == DuelEnd::decided);
  CHECK(three.verdict == Verdict::no_change);
  const auto& insns = three.metrics[0];
  CHECK(insns.verdict == Verdict::no_change);
  CHECK(insns.settled_by == SettledBy::width);
  CHECK(insns.change == 0.0);
  CHECK(insns.ci.lo == 0.0);
  CHECK(insns.ci.hi == 0.0);
  CHECK(insns.stopping_width == 0.0);
  CHECK(insns.enough_rounds);

  const auto final = analyze(config, runs_of(counts, counts), Finality::final);
  CHECK(final.verdict == Verdict::no_change);
  CHECK(std::find(final.notes.begin(), final.notes.end(),
                  "insns: every run of each side within 0.02 % of the others: deterministic, so 3 rounds "
                  "sufficed (min_rounds 20)") != final.notes.end());
}

TEST_CASE("a constant difference is a certain change, judged against the tolerance",
          "[analysis][deterministic]") {
  const std::vector<double> a(3, 1000000.0);
  const std::vector<double> b(3, 1010000.0);  // +1 %
  SECTION("outside the band: regression after 3 rounds") {
    const auto analysis = analyze(config_of({gated("insns")}), runs_of(a, b), Finality::ongoing);
    CHECK(analysis.can_stop);
    CHECK(analysis.verdict == Verdict::regression);
    CHECK(analysis.metrics[0].change == Approx(0.01).epsilon(1e-12));
    CHECK(analysis.metrics[0].ci.lo == Approx(0.01).epsilon(1e-12));
    CHECK(analysis.metrics[0].ci.hi == Approx(0.01).epsilon(1e-12));
  }
  SECTION("better: improvement") {
    const auto analysis = analyze(config_of({gated("insns")}), runs_of(b, a), Finality::ongoing);
    CHECK(analysis.can_stop);
    CHECK(analysis.verdict == Verdict::improvement);
  }
  SECTION("inside the tolerance band: no change") {
    MetricSpec spec = gated("insns");
    spec.tolerance = 0.015;
    const auto analysis = analyze(config_of({spec}), runs_of(a, b), Finality::ongoing);
    CHECK(analysis.can_stop);
    CHECK(analysis.verdict == Verdict::no_change);
    CHECK(analysis.metrics[0].change == Approx(0.01).epsilon(1e-12));
  }
  SECTION("every stopping mode decides it after 3 rounds") {
    for (const Stopping stopping : {Stopping::hybrid, Stopping::width, Stopping::anytime}) {
      Config config = config_of({gated("insns")});
      config.stopping = stopping;
      const auto analysis = analyze(config, runs_of(a, b), Finality::ongoing);
      CHECK(analysis.can_stop);
      CHECK(analysis.verdict == Verdict::regression);
    }
  }
}

TEST_CASE("one run off ends the shortcut for that metric only", "[analysis][deterministic]") {
  // insns: identical per side; noisy: varies by 1 % (far more than T/100).
  Config config = config_of({gated("insns"), gated("noisy")}, 10);
  std::vector<RunRecord> runs;
  const std::vector<double> noise{1.0, 1.01, 0.99, 1.005, 0.995};
  for (int round = 0; round < 5; ++round) {
    const double n = noise[static_cast<std::size_t>(round)];
    runs.push_back({round, Side::baseline, false, {4143007, n}});
    runs.push_back({round, Side::candidate, false, {4143007, n * 1.001}});
  }
  const auto analysis = analyze(config, runs, Finality::ongoing);
  CHECK(analysis.metrics[0].min_rounds == 3);
  CHECK(analysis.metrics[0].verdict == Verdict::no_change);
  CHECK(analysis.metrics[1].min_rounds == 10);
  CHECK_FALSE(analysis.metrics[1].enough_rounds);
  CHECK_FALSE(analysis.can_stop);  // the noisy metric still needs its 10 rounds

  // A count that moves by more than T/100 once needs the configured minimum again.
  std::vector<double> a(5, 1e6);
  a[2] = 1.0003e6;  // 0.03 % > 0.02 %
  const auto moved =
      analyze(config_of({gated("insns")}, 10), runs_of(a, std::vector<double>(5, 1e6)), Finality::ongoing);
  CHECK(moved.metrics[0].min_rounds == 10);
  CHECK_FALSE(moved.can_stop);
}

TEST_CASE("min_rounds below 3 stays in force for deterministic metrics", "[analysis][deterministic]") {
  const std::vector<double> counts(2, 7.0);
  const auto analysis = analyze(config_of({gated("insns")}, 2), runs_of(counts, counts), Finality::ongoing);
  CHECK(analysis.metrics[0].min_rounds == 2);
  CHECK(analysis.can_stop);
}
