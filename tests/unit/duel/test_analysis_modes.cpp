#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "duel/analysis.hpp"
#include "stats/estimate.hpp"
#include "support/analysis_helpers.hpp"

using namespace perfduel;
using perfduel::testing::has_note;

namespace {

MetricSpec gated_metric(const std::string& name, double threshold) {
  MetricSpec spec;
  spec.name = name;
  spec.gating = Gating::gated;
  spec.threshold = threshold;
  return spec;
}

// Measured rounds 0..n−1 (no warm-up records), one value per metric and side.
std::vector<RunRecord> make_runs(const std::vector<std::vector<double>>& baseline,
                                 const std::vector<std::vector<double>>& candidate) {
  std::vector<RunRecord> runs;
  for (std::size_t round = 0; round < baseline.front().size(); ++round) {
    RunRecord a{static_cast<int>(round), Side::baseline, false, {}};
    RunRecord b{static_cast<int>(round), Side::candidate, false, {}};
    for (std::size_t m = 0; m < baseline.size(); ++m) {
      a.values.push_back(baseline[m][round]);
      b.values.push_back(candidate[m][round]);
    }
    runs.push_back(a);
    runs.push_back(b);
  }
  return runs;
}

// Candidate = baseline · exp(shift + noise): seeded log-normal noise around a true ratio.
std::vector<double> shifted(const std::vector<double>& baseline, double shift, double sigma,
                            std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<double> out;
  for (const double v : baseline) {
    out.push_back(v * std::exp(shift + noise(rng)));
  }
  return out;
}

}  // namespace

TEST_CASE("Holm's step-down decides where Bonferroni cannot", "[analysis][stats]") {
  // Metric "clear" is a certain regression; metric "edge" has a p-value between α/2 and α:
  // Bonferroni (each at α/2) calls it no change, Holm (second step at α) a regression.
  Config config;
  config.metrics = {gated_metric("clear", 1.0), gated_metric("edge", 1.0)};
  config.autocorrelation_limit = 1.0;  // keep the plain t interval so the p-value is known
  const std::vector<double> ones(30, 1.0);
  const auto clear = shifted(ones, 0.2, 0.01, 1);
  // Find a seed whose "edge" p-value lands in (0.025, 0.05]: deterministic, and the test says
  // what it needs instead of hard-coding a magic seed.
  std::vector<double> edge;
  for (std::uint64_t seed = 1; seed < 5000 && edge.empty(); ++seed) {
    auto candidate = shifted(ones, 0.004, 0.01, seed);
    stats::EstimatorOptions options;
    options.autocorrelation_limit = 1.0;
    const double p = stats::estimate(Estimator::mean, ones, candidate, options).p_value;
    if (p > 0.025 && p <= 0.05 && stats::estimate(Estimator::mean, ones, candidate, options).center > 0) {
      edge = candidate;
    }
  }
  REQUIRE_FALSE(edge.empty());
  const auto runs = make_runs({ones, ones}, {clear, edge});

  config.correction = Correction::bonferroni;
  const Analysis bonferroni = analyze(config, runs, Finality::final);
  CHECK(bonferroni.metrics[0].verdict == Verdict::regression);
  CHECK(bonferroni.metrics[1].verdict == Verdict::no_change);

  config.correction = Correction::holm;
  const Analysis holm = analyze(config, runs, Finality::final);
  CHECK(holm.metrics[0].verdict == Verdict::regression);
  CHECK(holm.metrics[1].verdict == Verdict::regression);
  CHECK(holm.verdict == Verdict::regression);
  CHECK(has_note(holm, "correction: Holm's step-down decides over 2 gated metrics"));
  CHECK(has_note(holm, "edge: regression by Holm"));
}

TEST_CASE("detected warm-up drops the slow start and says so", "[analysis][stats]") {
  Config config;
  config.metrics = {gated_metric("wall_time", 0.5)};
  std::vector<double> a(60, 1.0);
  auto b = shifted(a, 0.0, 0.01, 3);
  // The first 10 rounds of the candidate run 30 % slow (a cold cache on one side only).
  for (std::size_t i = 0; i < 10; ++i) {
    b[i] *= 1.3;
  }
  const auto runs = make_runs({a}, {b});
  const Analysis plain = analyze(config, runs, Finality::final);
  CHECK(plain.dropped_rounds == 0);
  // The cold start biases the ratio by ~ +5 % and, as a step, looks like autocorrelation.
  CHECK(plain.metrics[0].estimate.center > 0.04);
  CHECK(plain.metrics[0].verdict != Verdict::no_change);

  config.detect_warmup = true;
  const Analysis detected = analyze(config, runs, Finality::final);
  CHECK(detected.dropped_rounds >= 10);
  CHECK(detected.dropped_rounds <= 15);
  CHECK(detected.measured_rounds == 60);
  CHECK(std::abs(detected.metrics[0].change) < 0.01);
  CHECK(detected.metrics[0].verdict == Verdict::no_change);
  CHECK(has_note(detected, "warm-up detected: dropped the first"));
}

TEST_CASE("anytime stopping fails a clear regression early", "[analysis][stats]") {
  Config config;
  config.metrics = {gated_metric("wall_time", 0.02)};
  config.min_rounds = 20;
  const std::vector<double> a(40, 1.0);
  const auto b = shifted(a, std::log(1.10), 0.05, 4);  // +10 % = 5·T, noise σ 5 %
  const auto runs = make_runs({a}, {b});

  config.stopping = Stopping::width;
  const Analysis width = analyze(config, runs, Finality::ongoing);
  CHECK_FALSE(width.can_stop);  // a 2 % wide interval needs ~100 rounds at this noise, not 40
  CHECK(width.verdict == Verdict::pending);

  config.stopping = Stopping::anytime;
  const Analysis anytime = analyze(config, runs, Finality::ongoing);
  CHECK(anytime.can_stop);
  CHECK(anytime.verdict == Verdict::regression);
  // The sequence is wider than the fixed-sample interval: the price of peeking.
  CHECK(anytime.metrics[0].ci.width() > width.metrics[0].ci.width());
}

TEST_CASE("anytime stopping waits for its burn-in and for evidence", "[analysis][stats]") {
  Config config;
  config.metrics = {gated_metric("wall_time", 0.02)};
  config.stopping = Stopping::anytime;
  config.autocorrelation_limit = 1.0;  // isolate the burn-in from the batching rule
  const std::vector<double> a(10, 1.0);
  const auto runs = make_runs({a}, {shifted(a, 0.3, 0.01, 5)});
  const Analysis early = analyze(config, runs, Finality::ongoing);
  CHECK_FALSE(early.can_stop);
  CHECK(early.metrics[0].estimate.status == stats::EstimateStatus::insufficient_data);
  CHECK(early.metrics[0].estimate.note == "anytime: burn-in of 20 rounds not reached");

  // A/A with a tolerance band: the sequence settles "no change" once inside ±5 %, before it
  // is 2 % wide.
  config.metrics[0].tolerance = 0.05;
  const std::vector<double> ones(40, 1.0);
  const Analysis same = analyze(config, make_runs({ones}, {shifted(ones, 0.0, 0.03, 6)}), Finality::ongoing);
  CHECK(same.metrics[0].ci.width() > 0.02);
  CHECK(same.metrics[0].verdict == Verdict::no_change);
  CHECK(same.can_stop);
}

// The share of `gates` A/A gates that end in a false alarm when each binary has its own AR(1)
// state (ρ = 0.5, σ = 0.03), so that the log-ratios are AR(1) and their mean varies 3 times
// more than independent rounds would say. Each gate runs as the driver runs it: analysed after
// every round from `min_rounds` on, stopped when it may, judged by the final analysis.
double ar1_false_alarm_rate(int min_rounds, int gates, std::uint64_t seed) {
  Config config;
  config.metrics = {gated_metric("wall_time", 0.04)};
  config.max_rounds = 600;
  config.min_rounds = min_rounds;
  int false_alarms = 0;
  std::mt19937_64 rng(seed);
  const double rho = 0.5;
  std::normal_distribution<double> innovation(0.0, 0.03 * std::sqrt(1 - rho * rho));
  std::normal_distribution<double> start(0.0, 0.03);
  for (int gate = 0; gate < gates; ++gate) {
    double state_a = start(rng);
    double state_b = start(rng);
    std::vector<RunRecord> runs;
    for (int round = 0; round < config.max_rounds; ++round) {
      state_a = rho * state_a + innovation(rng);
      state_b = rho * state_b + innovation(rng);
      runs.push_back({round, Side::baseline, false, {std::exp(state_a)}});
      runs.push_back({round, Side::candidate, false, {std::exp(state_b)}});
      if (round + 1 >= config.min_rounds && analyze(config, runs, Finality::ongoing).can_stop) {
        break;
      }
    }
    const Verdict verdict = analyze(config, runs, Finality::final).verdict;
    false_alarms += verdict == Verdict::regression || verdict == Verdict::improvement ? 1 : 0;
  }
  return false_alarms / static_cast<double>(gates);
}

TEST_CASE("A/A gates on autocorrelated log-ratios keep their false-alarm rate",
          "[analysis][stats][simulation]") {
  // Before the batching decision needed evidence of independence, 14 % of such gates ended in
  // a false alarm (docs/validation.md); now about 5 %.
  const double rate = ar1_false_alarm_rate(20, 300, 4242);
  // 5 % nominal (6.3 % with this seed); binomial standard error over 300 gates is 1.3 points.
  // With r1 taken as independent whenever it looked so, this seed gives 17 %.
  INFO("false-alarm rate " << rate);
  CHECK(rate <= 0.09);
}

TEST_CASE("a small min_rounds does not shorten the confidence sequence's burn-in",
          "[analysis][stats][simulation]") {
  // The asymptotic sequence estimates its variance from the rounds so far; from three it is
  // too often too small. With the burn-in at min_rounds (3) this seed gives 14.3 % false alarms
  // (docs/validation.md measures 15.5 % over 4,000 gates); with k_sequence_burn_in_rounds, 6.7 %.
  const double rate = ar1_false_alarm_rate(3, 300, 4243);
  INFO("false-alarm rate " << rate);
  CHECK(rate <= 0.09);

  // A clear regression (×3, σ = 0.3) is not settled by the confidence sequence before round
  // 20 (with order: abba, which turns the sign sequence off) ...
  Config config;
  config.min_rounds = 3;
  config.order = Order::abba;
  config.metrics = {gated_metric("wall_time", 0.02)};
  const std::vector<double> base(19, 1.0);
  const auto clear_runs = make_runs({base}, {shifted(base, std::log(3.0), 0.3, 2)});
  const Analysis early = analyze(config, clear_runs, Finality::ongoing);
  CHECK_FALSE(early.can_stop);
  CHECK(early.metrics[0].settled_by == SettledBy::none);
  CHECK_FALSE(early.metrics[0].sequence);
  CHECK(has_note(early,
                 "; the confidence sequence from round 20 (min_rounds 3 applies to the width rule and to "
                 "deterministic metrics)"));
  CHECK(has_note(early, "(no sign sequence: it needs order: random)"));
  // ... while with the default random order the sign sequence, which needs no burn-in, has.
  config.order = Order::random;
  const Analysis signs = analyze(config, clear_runs, Finality::ongoing);
  CHECK(signs.can_stop);
  CHECK(signs.verdict == Verdict::regression);
  CHECK(signs.metrics[0].settled_by == SettledBy::signs);
  CHECK(has_note(
      signs, "wall_time: regression shown by its sign sequence: 19 of 19 rounds higher by more than 2 %"));
  // ... but a deterministic one is, from its third round.
  const std::vector<double> three(3, 1.0);
  const Analysis exact =
      analyze(config, make_runs({three}, {std::vector<double>(3, 3.0)}), Finality::ongoing);
  CHECK(exact.can_stop);
  CHECK(exact.verdict == Verdict::regression);
}

TEST_CASE("hybrid stopping settles a clear regression by its confidence sequence", "[analysis][stats]") {
  Config config;
  config.metrics = {gated_metric("wall_time", 0.02)};
  const std::vector<double> base(20, 1.0);
  const auto runs = make_runs({shifted(base, 0.0, 0.0, 1)}, {shifted(base, std::log(3.0), 0.3, 2)});

  config.stopping = Stopping::width;
  const Analysis width = analyze(config, runs, Finality::ongoing);
  CHECK_FALSE(width.can_stop);  // σ = 0.3 is far from a 2 % interval after 20 rounds

  config.stopping = Stopping::hybrid;
  const Analysis hybrid = analyze(config, runs, Finality::ongoing);
  CHECK(hybrid.can_stop);
  CHECK(hybrid.stop == DuelEnd::decided);
  CHECK(hybrid.verdict == Verdict::regression);
  const auto& metric = hybrid.metrics[0];
  CHECK(metric.settled_by == SettledBy::sequence);
  REQUIRE(metric.sequence);
  CHECK(metric.ci.lo == metric.sequence->lo);  // the interval that decided is the one shown
  // α = 5 % split 90 : 5 : 5 between the width rule's interval, the confidence sequence and the
  // sign sequence (which yields to a confidence sequence that settled the same regression): the
  // interval shown is the sequence, so its level is the sequence's, 1 − 0.05 · 0.05, not the
  // width rule's 95.5 %.
  CHECK(metric.confidence == Approx(0.9975));
  CHECK(metric.stopping_width > 0.02);
  CHECK(has_note(hybrid, "whichever settles first"));
}

TEST_CASE("hybrid stopping ends the duel on one settled regression", "[analysis][stats]") {
  Config config;
  config.metrics = {gated_metric("fast", 0.02), gated_metric("noisy", 0.02)};
  const std::vector<double> base(30, 1.0);
  const auto runs =
      make_runs({base, base}, {shifted(base, std::log(2.0), 0.05, 3), shifted(base, 0.0, 0.2, 4)});
  const Analysis analysis = analyze(config, runs, Finality::ongoing);
  CHECK(analysis.can_stop);
  CHECK(analysis.stop == DuelEnd::regression_found);
  CHECK(analysis.verdict == Verdict::regression);
  CHECK(analysis.metrics[1].settled_by == SettledBy::none);
  const Analysis final_analysis = analyze(config, runs, Finality::final);
  CHECK(final_analysis.metrics[1].verdict == Verdict::inconclusive);
  CHECK(final_analysis.verdict == Verdict::regression);
}

TEST_CASE("hybrid stopping settles no-change when the sequence lies inside the band", "[analysis][stats]") {
  Config config;
  MetricSpec spec = gated_metric("wall_time", 0.001);  // a width the rule cannot reach soon
  spec.tolerance = 0.05;
  config.metrics = {spec};
  const std::vector<double> base(40, 1.0);
  const auto runs = make_runs({shifted(base, 0.0, 0.01, 5)}, {shifted(base, 0.0, 0.01, 6)});
  const Analysis analysis = analyze(config, runs, Finality::ongoing);
  CHECK(analysis.can_stop);
  CHECK(analysis.verdict == Verdict::no_change);
  CHECK(analysis.metrics[0].settled_by == SettledBy::sequence);
  CHECK_FALSE(analysis.metrics[0].width_reached);

  SECTION("without a tolerance only the width rule can settle a no-change") {
    config.metrics[0].tolerance = 0;
    const Analysis strict = analyze(config, runs, Finality::ongoing);
    CHECK_FALSE(strict.can_stop);
    CHECK(strict.verdict == Verdict::pending);
  }
}

TEST_CASE("hybrid stopping gives the median and min estimators all of α but the sign sequence's share",
          "[analysis][stats]") {
  Config config;
  MetricSpec spec = gated_metric("wall_time", 0.02);
  spec.estimator = Estimator::median;
  config.metrics = {spec};
  const std::vector<double> base(30, 1.0);
  const auto runs = make_runs({shifted(base, 0.0, 0.01, 7)}, {shifted(base, 0.0, 0.01, 8)});
  const Analysis analysis = analyze(config, runs, Finality::ongoing);
  CHECK(analysis.metrics[0].confidence == Approx(1 - 0.95 * 0.05));  // 5 % of α to the sign sequence
  CHECK_FALSE(analysis.metrics[0].sequence);
  config.order = Order::abba;  // no sign sequence: all of α
  CHECK(analyze(config, runs, Finality::ongoing).metrics[0].confidence == Approx(0.95));
}

TEST_CASE("hybrid stopping: a sequence outside the band ends the duel even after the width rule settled",
          "[analysis][stats]") {
  // Two gated metrics: a clear, low-noise regression (the width rule settles it at once) and a
  // noisy unchanged one. The regression must end the duel without waiting for the other.
  Config config;
  config.metrics = {gated_metric("clear", 0.15), gated_metric("noisy", 0.02)};
  const std::vector<double> base(20, 1.0);
  const auto runs =
      make_runs({base, base}, {shifted(base, std::log(2.0), 0.01, 21), shifted(base, 0.0, 0.2, 22)});
  const Analysis analysis = analyze(config, runs, Finality::ongoing);
  CHECK(analysis.metrics[0].width_reached);
  CHECK(analysis.metrics[0].settled_by == SettledBy::sequence);
  CHECK(analysis.can_stop);
  CHECK(analysis.stop == DuelEnd::regression_found);
  CHECK(analysis.verdict == Verdict::regression);
}

TEST_CASE("many undecided metrics get one key note, their own notes become details", "[analysis][report]") {
  // Four gated metrics, 12 rounds of noise: every one is undecided at the end, each with a
  // note of why; a reader gets one line that sums them up instead of four.
  Config config;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::vector<std::vector<double>> a(4);
  std::vector<std::vector<double>> b(4);
  for (std::size_t m = 0; m < 4; ++m) {
    config.metrics.push_back(gated_metric("m" + std::to_string(m), 0.02));
    for (int round = 0; round < 12; ++round) {
      a[m].push_back(std::exp(noise(rng)));
      b[m].push_back(std::exp(noise(rng)));
    }
  }
  const auto analysis = analyze(config, make_runs(a, b), Finality::final);
  REQUIRE(analysis.verdict == Verdict::inconclusive);
  const auto key = std::count_if(analysis.notes.begin(), analysis.notes.end(),
                                 [](const Note& note) { return note.weight == NoteWeight::key; });
  CHECK(key == 1);
  CHECK(has_note(analysis, "4 of 4 gated metrics undecided after 12 rounds: interval widths "));
  // The same two metrics' notes stay key: too few to bury the verdict.
  config.metrics.resize(2);
  a.resize(2);
  b.resize(2);
  const auto two = analyze(config, make_runs(a, b), Finality::final);
  CHECK_FALSE(has_note(two, "gated metrics undecided"));
}

TEST_CASE("no change of one metric of several needs no Bonferroni: its own interval inside the band",
          "[analysis][stats]") {
  // Four gated metrics, σ 3 % per round, 60 rounds, threshold 2 %, tolerance 1.5 %: each 95 %
  // interval (about ±0.9 %) lies inside ±1.5 %, each Bonferroni interval (98.75 %) is still wider
  // than the threshold. The pass claim is an intersection–union test: each metric at 95 %.
  Config config;
  config.stopping = Stopping::width;
  config.min_rounds = 20;
  std::vector<std::vector<double>> baseline;
  std::vector<std::vector<double>> candidate;
  for (int m = 0; m < 4; ++m) {
    MetricSpec spec = gated_metric("m" + std::to_string(m), 0.02);
    spec.tolerance = 0.015;
    config.metrics.push_back(spec);
    baseline.emplace_back(60, 1.0);
    candidate.push_back(shifted(baseline.back(), 0.0, 0.03, 11 + static_cast<std::uint64_t>(m)));
  }
  const auto runs = make_runs(baseline, candidate);
  const Analysis passed = analyze(config, runs, Finality::ongoing);
  for (const auto& metric : passed.metrics) {
    INFO(metric.spec.name << " [" << metric.ci.lo << ", " << metric.ci.hi << "]");
    CHECK(metric.verdict == Verdict::no_change);
    CHECK(metric.equivalence);
    CHECK(metric.confidence == Approx(0.95));
    CHECK(metric.ci.lo >= -0.015);
    CHECK(metric.ci.hi <= 0.015);
  }
  CHECK(passed.can_stop);
  CHECK(passed.verdict == Verdict::no_change);

  // With Bonferroni for no change too, the same rounds settle nothing: the intervals at 98.75 %
  // are wider than the threshold.
  config.uncorrected_pass = false;
  const Analysis before = analyze(config, runs, Finality::ongoing);
  CHECK_FALSE(before.can_stop);
  for (const auto& metric : before.metrics) {
    CHECK_FALSE(metric.equivalence);
    CHECK(metric.confidence == Approx(1 - 0.05 / 4));
  }

  // A metric truly 2.5 % slower, beyond its tolerance, is not shown inside the band.
  config.uncorrected_pass = true;
  candidate[2] = shifted(baseline[2], std::log(1.025), 0.03, 13);
  const Analysis slower = analyze(config, make_runs(baseline, candidate), Finality::ongoing);
  CHECK(slower.metrics[2].verdict != Verdict::no_change);
  CHECK_FALSE(slower.can_stop);
}
