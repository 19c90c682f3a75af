#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "duel/calibration.hpp"
#include "support/analysis_helpers.hpp"

using namespace perfduel;
using perfduel::testing::runs_of;

namespace {

MetricSpec calibration_metric(const std::string& name, double threshold, double tolerance) {
  MetricSpec spec;
  spec.name = name;
  spec.source = MetricSource::regex;
  spec.pattern = name + ": ([0-9.]+)";
  spec.gating = Gating::gated;
  spec.threshold = threshold;
  spec.tolerance = tolerance;
  return spec;
}

// Runs of identical programs: two metrics per run, log-normal with σ `quiet` and `noisy` per side.
std::vector<RunRecord> aa_runs(std::size_t rounds, double quiet, double noisy, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<RunRecord> runs;
  for (std::size_t r = 0; r < rounds; ++r) {
    for (const Side side : {Side::baseline, Side::candidate}) {
      runs.push_back(
          {static_cast<int>(r), side, false, {std::exp(quiet * normal(rng)), std::exp(noisy * normal(rng))}});
    }
  }
  return runs;
}

}  // namespace

TEST_CASE("calibration keeps a threshold that fits and loosens one that cannot", "[calibration]") {
  Config config;
  config.metrics = {calibration_metric("quiet", 0.05, 0.03), calibration_metric("noisy", 0.05, 0.03)};
  config.max_rounds = 80;
  // 60 rounds; per round the log-ratio's σ is √2 times a side's: 1.4 % and 28 %.
  const Calibration calibration = calibrate(config, aa_runs(60, 0.01, 0.2, 3), 0.0);
  CHECK(calibration.rounds == 60);
  CHECK(calibration.budget_rounds == 80);
  CHECK(calibration.target_rounds == 40);
  REQUIRE(calibration.metrics.size() == 2);
  const MetricCalibration& quiet = calibration.metrics[0];
  CHECK_FALSE(quiet.loosened);
  CHECK(quiet.threshold == 0.05);
  CHECK(quiet.tolerance == 0.03);
  CHECK(quiet.rounds_configured == 20);  // the minimum rounds
  CHECK(quiet.noise.sigma == Approx(0.01 * std::sqrt(2.0)).epsilon(0.3));
  const MetricCalibration& noisy = calibration.metrics[1];
  CHECK(noisy.loosened);
  CHECK(noisy.noise.sigma == Approx(0.2 * std::sqrt(2.0)).epsilon(0.3));
  CHECK(noisy.rounds_configured > 80);
  CHECK(noisy.rounds_proposed <= 40);
  CHECK(noisy.threshold > 0.05);
  CHECK(stats::readable_fraction(noisy.threshold) == Approx(noisy.threshold));
  // The tolerance keeps its share of the threshold, rounded up the same way.
  CHECK(noisy.tolerance == Approx(stats::readable_fraction(noisy.threshold * 0.6)));
}

TEST_CASE("one side's samples stand in for rounds in disjoint pairs", "[calibration]") {
  const std::vector<std::vector<double>> duels{
      {1.0, std::exp(1.0), std::exp(2.0)},  // ln: 0, 1, 2: one pair (1 - 0), the third left over
      {2.0, -1.0, 2.0, 0.0, 8.0},           // not positive: skipped; ln 2, ln 2, ln 8: one pair (0)
      {5.0}};                               // nothing to pair
  const auto differences = paired_sample_differences(duels);
  REQUIRE(differences.size() == 2);
  CHECK(differences[0] == Approx(1.0));
  CHECK(differences[1] == Approx(0.0).margin(1e-12));
}

TEST_CASE("the history's samples measure the noise of a round of two such sides", "[calibration]") {
  // 20 duels of 30 runs, log-normal with σ 0.2 per run (seeded): the pairs' σ is a round's,
  // 0.2·√2, and calibration from them loosens the 5 % as calibration from A/A rounds does.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.0, 0.2);
  std::vector<std::vector<double>> duels(20);
  for (auto& samples : duels) {
    for (int i = 0; i < 30; ++i) {
      samples.push_back(std::exp(normal(rng)));
    }
  }
  const auto differences = paired_sample_differences(duels);
  CHECK(differences.size() == 300);
  Config config;
  config.metrics = {calibration_metric("noisy", 0.05, 0.03)};
  config.max_rounds = 80;
  const Calibration calibration = calibrate_ratios(config, {differences}, 0.0);
  REQUIRE(calibration.metrics.size() == 1);
  CHECK(calibration.rounds == 300);
  CHECK(calibration.metrics[0].noise.sigma == Approx(0.2 * std::sqrt(2.0)).epsilon(0.1));
  CHECK(calibration.metrics[0].loosened);
}

TEST_CASE("the time budget limits the rounds calibration aims at", "[calibration]") {
  Config config;
  config.max_rounds = 2000;
  config.max_seconds = 60;
  CHECK(budget_rounds(config, 0.5) == 120);
  CHECK(budget_rounds(config, 0.01) == 2000);
  CHECK(budget_rounds(config, 0) == 2000);
}

TEST_CASE("the rounds the budget allows: whole rounds, and each degenerate budget", "[calibration][duel]") {
  Config config;
  config.max_rounds = 500;
  config.max_seconds = 100;
  CHECK(budget_rounds(config, 0.25) == 400);  // the time runs out first
  CHECK(budget_rounds(config, 0.3) == 333);   // 333.3: the duel stops before a round it cannot finish
  CHECK(budget_rounds(config, 0.1) == 500);   // the rounds run out first
  // Zero seconds per round (rounds too fast for the clock), an unknown or a negative rate: the
  // rounds alone.
  CHECK(budget_rounds(config, 0) == 500);
  CHECK(budget_rounds(config, -1) == 500);
  CHECK(budget_rounds(config, std::numeric_limits<double>::quiet_NaN()) == 500);
  // No time budget (infinite max_seconds): max_rounds only.
  config.max_seconds = std::numeric_limits<double>::infinity();
  CHECK(budget_rounds(config, 1000) == 500);
  // A time budget already spent: no round.
  config.max_seconds = 0;
  CHECK(budget_rounds(config, 0.5) == 0);
}

TEST_CASE("the duel notes early which metrics its budget cannot settle", "[calibration][analysis]") {
  Config config;
  config.metrics = {calibration_metric("quiet", 0.05, 0.03), calibration_metric("noisy", 0.05, 0.03)};
  const auto runs = aa_runs(20, 0.01, 0.2, 4);
  const Analysis analysis = analyze(config, runs, Finality::ongoing);
  const auto note = budget_note(config, analysis, runs, 100);
  REQUIRE(note);
  CHECK(note->weight == NoteWeight::key);
  CHECK_THAT(note->text, Catch::StartsWith("noise: a gated metric cannot settle within the budget (about "
                                           "100 rounds) at the rate so far: noisy (σ "));
  CHECK_THAT(note->text, Catch::Contains("`perfduel calibrate` writes thresholds that fit"));
  CHECK_THAT(note->text, !Catch::Contains("quiet"));
  // A budget that fits both: no note.
  Config loose = config;
  loose.metrics[1].threshold = 3.0;
  loose.metrics[1].tolerance = 1.5;
  CHECK_FALSE(budget_note(loose, analyze(loose, runs, Finality::ongoing), runs, 100));
}

TEST_CASE("a count whose rounds agree needs no fitting", "[calibration]") {
  // Instructions per iteration of a benchmark counted by valgrind: log-ratios of a few 10⁻⁷
  // (docs/metrics.md), far within a hundredth of the 2 % threshold; a count that moved by 1 %
  // in one round is calibrated like any other metric.
  MetricSpec counted = calibration_metric("insns/BM_Hash/16", 0.02, 0.001);
  counted.source = MetricSource::valgrind;
  counted.framework = BenchmarkFramework::google_benchmark;
  Config config;
  config.metrics = {counted, counted};
  config.metrics[1].name = "insns/BM_Sort/8";
  const Calibration calibration = calibrate_ratios(config, {{4e-7, -3e-7, 1e-7}, {4e-7, 0.01, 1e-7}}, 0.0);
  REQUIRE(calibration.metrics.size() == 2);
  CHECK(calibration.metrics[0].counted);
  CHECK_FALSE(calibration.metrics[0].loosened);
  CHECK(calibration.metrics[0].rounds_proposed == k_deterministic_min_rounds);
  CHECK(calibration.metrics[0].threshold == Approx(0.02));
  CHECK_FALSE(calibration.metrics[1].counted);
}
