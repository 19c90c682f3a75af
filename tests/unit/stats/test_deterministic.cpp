// Statistics for (near-)deterministic metrics such as instruction counts: zero variance, a
// constant difference, and the per-metric minimum rounds.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "duel/analysis.hpp"
#include "stats/autocorrelation.hpp"
#include "stats/estimate.hpp"
#include "stats/paired.hpp"
#include "stats/sequential.hpp"
#include "support/analysis_helpers.hpp"

using namespace perfduel;
using perfduel::testing::runs_of;

namespace {

// A gated metric, by default counted instructions (the metrics the shortcut is for).
MetricSpec gated(const std::string& name, double threshold = 0.02,
                 MetricSource source = MetricSource::counter) {
  MetricSpec spec;
  spec.name = name;
  spec.source = source;
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

TEST_CASE("is_deterministic: every run of each side within a relative span", "[analysis][deterministic]") {
  CHECK(is_deterministic(std::vector<double>{5, 5, 5}, std::vector<double>{6, 6, 6}, 0.0));
  // A span of 0.02 % (T/100 at T = 2 %): 1,000,000 and 1,000,200 are within it, 1,000,201 is not.
  CHECK(is_deterministic(std::vector<double>{1e6, 1000200, 1e6}, std::vector<double>{2e6, 2e6}, 0.0002));
  CHECK_FALSE(
      is_deterministic(std::vector<double>{1e6, 1000201, 1e6}, std::vector<double>{2e6, 2e6}, 0.0002));
  CHECK_FALSE(is_deterministic(std::vector<double>{5}, std::vector<double>{5}, 0.0002));
  CHECK_FALSE(is_deterministic(std::vector<double>{0, 0}, std::vector<double>{0, 0}, 0.0002));
  // Through the metric: a counted one within T/100.
  MetricSpec insns = gated("insns");
  CHECK(is_deterministic(insns, std::vector<double>{1e6, 1000200, 1e6}, std::vector<double>{2e6, 2e6}));
  CHECK_FALSE(is_deterministic(insns, std::vector<double>{1e6, 1000201, 1e6}, std::vector<double>{2e6, 2e6}));
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
  const auto texts = note_texts(final.notes);
  CHECK(std::find(texts.begin(), texts.end(),
                  "insns: every run of each side within 0.02 % of the others: deterministic, so 3 rounds "
                  "sufficed (min_rounds 20)") != texts.end());
}

TEST_CASE("a count whose runs differ says so and takes a measured metric's rounds",
          "[analysis][deterministic]") {
  // One run of four counted 0.074 % more (a logging benchmark whose run spanned one more second
  // of the clock reformats its timestamp): beyond T/100 = 0.02 %.
  const Config config = config_of({gated("insns")});
  const std::vector<double> a{1307.06, 1308.02, 1307.06, 1307.06};
  const std::vector<double> b(4, 1307.06);
  const auto analysis = analyze(config, runs_of(a, b), Finality::final);
  CHECK(analysis.metrics[0].min_rounds == 20);
  const auto texts = note_texts(analysis.notes);
  CHECK(
      std::find(texts.begin(), texts.end(),
                "insns: counted, yet the runs of one side differ by up to 0.073 % (more than a hundredth of "
                "its 2 % threshold): its work depends on something besides the program, such as the clock; "
                "judged as a measured metric, with its rounds") != texts.end());
  // Runs that agree: no such note.
  const auto agreeing = analyze(config, runs_of(b, b), Finality::final);
  CHECK(std::none_of(agreeing.notes.begin(), agreeing.notes.end(),
                     [](const Note& note) { return note.text.find("counted, yet") != std::string::npos; }));
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

TEST_CASE("only counts may be deterministic within T/100; other values to the bit; times never",
          "[analysis][deterministic]") {
  CHECK(determinism_of(gated("insns")) == Determinism::counted);
  CHECK(determinism_of(gated("ir", 0.02, MetricSource::valgrind)) == Determinism::counted);
  for (const MetricSource time :
       {MetricSource::wall_time, MetricSource::user_time, MetricSource::system_time, MetricSource::catch2}) {
    CHECK(determinism_of(gated("t", 0.02, time)) == Determinism::never);
  }
  CHECK(determinism_of(gated("rss", 0.02, MetricSource::max_rss)) == Determinism::bit_identical);
  MetricSpec bench = gated("bench/BM_Sort", 0.02, MetricSource::google_benchmark);
  for (const char* field : {"real_time", "cpu_time", "bytes_per_second", "items_per_second"}) {
    bench.field = field;
    CHECK(determinism_of(bench) == Determinism::never);
  }
  bench.field = "allocations";  // a user counter
  CHECK(determinism_of(bench) == Determinism::bit_identical);
  MetricSpec parsed = gated("score", 0.02, MetricSource::regex);
  CHECK(determinism_of(parsed) == Determinism::bit_identical);
  for (const char* unit : {"s", "ms", "us", "µs", "ns", "min", "h"}) {
    parsed.unit = unit;
    CHECK(determinism_of(parsed) == Determinism::never);
  }
  parsed.unit = "B";
  CHECK(determinism_of(parsed) == Determinism::bit_identical);

  // Bit-identical: equal runs qualify, one run off by one part in 10^9 does not.
  const std::vector<double> rss(3, 104857600.0);
  std::vector<double> moved = rss;
  moved[1] *= 1 + 1e-9;
  const MetricSpec max_rss = gated("max_rss", 0.02, MetricSource::max_rss);
  CHECK(is_deterministic(max_rss, rss, rss));
  CHECK_FALSE(is_deterministic(max_rss, rss, moved));
  CHECK_FALSE(is_deterministic(gated("wall_time", 0.02, MetricSource::wall_time), rss, rss));
}

TEST_CASE("a wide wall-time threshold is not a count: min_rounds holds", "[analysis][deterministic]") {
  // The duel that ended after 4 rounds: wall time gated at 1000 %, min_rounds 15, every run of
  // each side within 10 % of the others. A time is never deterministic, so the minimum holds.
  const Config config = config_of({gated("wall_time", 10.0, MetricSource::wall_time)}, 15);
  const std::vector<double> a{0.0101, 0.0103, 0.0102, 0.0104, 0.0101, 0.0102, 0.0103,
                              0.0101, 0.0102, 0.0103, 0.0102, 0.0101, 0.0104, 0.0102};
  const std::vector<double> b{0.0102, 0.0101, 0.0103, 0.0102, 0.0104, 0.0101, 0.0102,
                              0.0103, 0.0101, 0.0102, 0.0103, 0.0102, 0.0101, 0.0103};
  for (std::size_t rounds = 3; rounds <= a.size(); ++rounds) {
    const std::vector<double> first_a(a.begin(), a.begin() + static_cast<long>(rounds));
    const std::vector<double> first_b(b.begin(), b.begin() + static_cast<long>(rounds));
    const auto analysis = analyze(config, runs_of(first_a, first_b), Finality::ongoing);
    INFO("rounds " << rounds);
    CHECK(analysis.metrics[0].min_rounds == 15);
    CHECK_FALSE(analysis.metrics[0].enough_rounds);
    CHECK_FALSE(analysis.can_stop);
  }
  // The same values read as counts would have stopped at 3 rounds: the shortcut is still there.
  const Config counted = config_of({gated("insns", 10.0)}, 15);
  const std::vector<double> three_a(a.begin(), a.begin() + 3);
  const std::vector<double> three_b(b.begin(), b.begin() + 3);
  CHECK(analyze(counted, runs_of(three_a, three_b), Finality::ongoing).can_stop);
}

TEST_CASE("a wide wall-time gate keeps its error rate on A/A noise",
          "[analysis][deterministic][simulation]") {
  // Seeded A/A gates as the driver runs them (analysed after every round from the first):
  // wall time gated at 1000 % with the default tolerance 0, min_rounds 15, noise of each run
  // log-normal σ = 0.03 plus a slow AR(1) ρ = 0.5 per side (docs/validation.md, "ar1-side-0.5").
  // Read as a time, no gate stops before round 15 and false alarms stay below α = 5 % (2.95 %).
  // Read as a count (the old rule for every metric), 3 runs within 10 % end the gate at round 3,
  // and the AR(1) noise that 3 rounds cannot see nearly doubles the false alarms (5.35 %).
  const auto false_alarms = [](MetricSource source, int& fewest_rounds) {
    const Config config = config_of({gated("wall_time", 10.0, source)}, 15);
    std::mt19937_64 rng(20261125);
    std::normal_distribution<double> normal(0.0, 1.0);
    int alarms = 0;
    fewest_rounds = 1 << 30;
    constexpr int k_gates = 2000;
    for (int gate = 0; gate < k_gates; ++gate) {
      double state_a = 0.03 * normal(rng);
      double state_b = 0.03 * normal(rng);
      std::vector<double> a;
      std::vector<double> b;
      const double innovation = 0.03 * std::sqrt(1 - 0.25);
      Analysis analysis;
      for (int round = 1; round <= 100; ++round) {
        state_a = 0.5 * state_a + innovation * normal(rng);
        state_b = 0.5 * state_b + innovation * normal(rng);
        a.push_back(0.01 * std::exp(state_a));
        b.push_back(0.01 * std::exp(state_b));
        analysis = analyze(config, runs_of(a, b), Finality::ongoing);
        if (analysis.can_stop) {
          break;
        }
      }
      const auto final = analyze(config, runs_of(a, b), Finality::final);
      fewest_rounds = std::min(fewest_rounds, final.measured_rounds);
      alarms += final.verdict == Verdict::regression || final.verdict == Verdict::improvement ? 1 : 0;
    }
    return static_cast<double>(alarms) / k_gates;
  };
  int time_rounds = 0;
  const double as_time = false_alarms(MetricSource::wall_time, time_rounds);
  int count_rounds = 0;
  const double as_count = false_alarms(MetricSource::counter, count_rounds);
  INFO("false alarms as a time " << as_time << " (fewest rounds " << time_rounds << "), as a count "
                                 << as_count << " (fewest rounds " << count_rounds << ")");
  CHECK(time_rounds >= 15);
  CHECK(as_time <= 0.065);  // α = 5 %; 2,000 gates: 6.5 % is 3 binomial σ above it
  CHECK(count_rounds == 3);
}
