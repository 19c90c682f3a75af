#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include "report/progress.hpp"

using namespace perfduel;

namespace {

MetricResult pending_metric() {
  MetricResult result;
  result.spec.name = "wall_time";
  result.spec.gating = Gating::gated;
  result.spec.threshold = 0.02;
  result.estimate.status = stats::EstimateStatus::ok;
  result.change = 0.031;
  result.stopping_width = 0.041;
  result.sequence = stats::Interval{-0.012, 0.075};
  result.min_rounds = 20;
  result.enough_rounds = true;
  return result;
}

}  // namespace

TEST_CASE("the live line shows what each stopping rule waits for", "[report]") {
  Analysis analysis;
  analysis.measured_rounds = 42;
  analysis.metrics.push_back(pending_metric());
  const std::string line = format_progress(analysis, 3.5);
  CHECK(line.find("round   42") != std::string::npos);
  CHECK(line.find("wall_time +3.10 % width 4.10 %/2.00 %, sequence [-1.20 %, +7.50 %] vs 0") !=
        std::string::npos);

  SECTION("an open metric says where it would settle at the rate so far") {
    analysis.metrics[0].estimate.rounds = 42;
    analysis.metrics[0].projected_rounds = 175.2;
    CHECK(format_progress(analysis, 3.5).find("vs 0, settles at ~176 rounds") != std::string::npos);
    analysis.metrics[0].projected_rounds = std::numeric_limits<double>::quiet_NaN();
    CHECK(format_progress(analysis, 3.5).find("settles at") == std::string::npos);
  }
  SECTION("before its minimum rounds, a metric names its minimum, not a projection") {
    analysis.metrics[0].estimate.rounds = 3;
    analysis.metrics[0].projected_rounds = 40000;
    analysis.metrics[0].enough_rounds = false;
    const std::string early = format_progress(analysis, 0.5);
    CHECK(early.find("wall_time +3.10 %, min_rounds 20") != std::string::npos);
    CHECK(early.find("width") == std::string::npos);
    CHECK(early.find("settles at") == std::string::npos);
  }
  SECTION("a settled metric says by which rule") {
    analysis.metrics[0].settled_by = SettledBy::sequence;
    analysis.metrics[0].verdict = Verdict::regression;
    CHECK(format_progress(analysis, 3.5).find("wall_time +3.10 % regression (confidence sequence)") !=
          std::string::npos);
  }
  SECTION("a provisional interval waits for batching, not for a width") {
    analysis.metrics[0].estimate.provisional = true;
    analysis.metrics[0].sequence.reset();
    CHECK(format_progress(analysis, 3.5).find("wall_time +3.10 % width: waits for batching") !=
          std::string::npos);
  }
}
