// The YAML fragment `perfduel calibrate` writes: what it keeps, what it loosens, and that a
// fragment which replaces an earlier one keeps that one's override entries.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "calibrate/calibration_inputs.hpp"
#include "duel/metric_expansion.hpp"
#include "report/calibration_report.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::parse_gate;

namespace {

// A gate whose pattern reads BM_A and BM_B, and an entry of its own for BM_B (as an earlier
// calibration's fragment wrote it), expanded over the recorded benchmarks.
CalibrationInput override_input() {
  Config config = parse_gate(
      "max_rounds: 80\n"
      "metrics:\n"
      "  wall_time: {gate: false}\n"
      "  bench: {google_benchmark: 'BM_*', threshold: 5%, tolerance: 3%}\n"
      "  bench/BM_B: {google_benchmark: BM_B, threshold: 20%, tolerance: 10%}\n");
  const auto expanded = expand_recorded_patterns(config.metrics, {"bench/BM_A", "bench/BM_B"});
  REQUIRE(expanded);
  config.metrics = *expanded;
  CHECK(testing::metric(config, "bench/BM_A").expanded_from == "bench");
  CHECK(testing::metric(config, "bench/BM_B").expanded_from.empty());
  // 40 quiet rounds of identical programs (σ 1 % a side): every threshold fits.
  CalibrationInput input;
  input.config = config;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 0.01);
  for (int round = 0; round < 40; ++round) {
    for (const Side side : {Side::baseline, Side::candidate}) {
      std::vector<double> values;
      for (std::size_t m = 0; m < config.metrics.size(); ++m) {
        values.push_back(std::exp(normal(rng)));
      }
      input.runs.push_back({round, side, false, values});
    }
  }
  input.source = "40 rounds";
  return input;
}

}  // namespace

TEST_CASE("a recalibrated fragment writes a kept override entry again, not as a comment", "[calibration]") {
  const CalibrationInput input = override_input();
  const Calibration calibration = calibrate_input(input);
  REQUIRE(calibration.metrics.size() == 2);
  CHECK_FALSE(calibration.metrics[0].loosened);
  CHECK_FALSE(calibration.metrics[1].loosened);
  const std::string fragment = format_calibration_fragment(calibration, input.source);
  // The pattern's benchmark keeps the pattern's threshold: nothing to write.
  CHECK(fragment.find("  # bench/BM_A: kept at 5 %") != std::string::npos);
  // The entry of its own is an entry again, with its threshold and tolerance.
  CHECK(fragment.find("\n  \"bench/BM_B\": {google_benchmark: \"BM_B\", field: real_time, estimator: mean, "
                      "threshold: 20%, tolerance: 10%}  # kept (") != std::string::npos);
  CHECK(fragment.find("# bench/BM_B: kept") == std::string::npos);
}

TEST_CASE("reports read without the gate's configuration cannot tell an override: a comment",
          "[calibration]") {
  CalibrationInput input = override_input();
  input.own_entries_known = false;
  const std::string fragment = format_calibration_fragment(calibrate_input(input), input.source);
  CHECK(fragment.find("  # bench/BM_B: kept at 20 %") != std::string::npos);
  CHECK(fragment.find("\"bench/BM_B\": {") == std::string::npos);
}
