#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "report/trend_plot.hpp"
#include "trend/compliance.hpp"
#include "trend/jumpavg.hpp"

using namespace perfduel::trend;

namespace {

// A grouping built by hand: groups of `runs` runs at `averages`, classified for `direction`.
Grouping make_grouping(const std::vector<std::size_t>& runs, const std::vector<double>& averages,
                       const std::vector<Change>& changes) {
  Grouping grouping;
  std::size_t start = 0;
  for (std::size_t g = 0; g < runs.size(); ++g) {
    Group group;
    group.start = start;
    group.runs = runs[g];
    group.stats = RunStats{static_cast<std::int64_t>(runs[g]), averages[g], 0.0};
    group.change = changes[g];
    grouping.groups.push_back(group);
    start += runs[g];
  }
  return grouping;
}

}  // namespace

TEST_CASE("compliance: last trend, runs and trend change against the best of the long window", "[trend]") {
  // 200 runs: 100 at 10, 90 at 12 (progression), 10 at 9 (regression), higher is better.
  const Grouping grouping = make_grouping({100, 90, 10}, {10.0, 12.0, 9.0},
                                          {Change::normal, Change::progression, Change::regression});
  const auto result = compliance(grouping, ComplianceOptions{180, 14, Direction::higher_is_better});
  REQUIRE(result);
  CHECK(result->last_trend == 9.0);
  CHECK(result->runs == 10);
  CHECK(result->last_change == Change::regression);
  // Runs 20..185: the best trend is 12.
  REQUIRE(result->reference_trend);
  CHECK(*result->reference_trend == 12.0);
  CHECK(*result->trend_change == Approx(-0.25));
  CHECK(result->regressions == 1);
  CHECK(result->progressions == 0);

  // Lower is better: the best of the window is the minimum, 10.
  const auto latency = compliance(grouping, ComplianceOptions{180, 14, Direction::lower_is_better});
  REQUIRE(latency);
  CHECK(*latency->reference_trend == 10.0);
  CHECK(*latency->trend_change == Approx(-0.1));
}

TEST_CASE("compliance windows are clipped at the start of the series", "[trend]") {
  const Grouping grouping = make_grouping({10, 10}, {5.0, 4.0}, {Change::normal, Change::regression});
  const auto result = compliance(grouping, ComplianceOptions{180, 14, Direction::higher_is_better});
  REQUIRE(result);
  // Window: runs 0..5, all at 5.
  CHECK(*result->reference_trend == 5.0);
  CHECK(*result->trend_change == Approx(-0.2));
  CHECK(result->regressions == 1);  // run 10 is within the last 14

  const Grouping short_series = make_grouping({3}, {5.0}, {Change::normal});
  const auto early = compliance(short_series, ComplianceOptions{});
  REQUIRE(early);
  CHECK_FALSE(early->reference_trend);
  CHECK_FALSE(early->trend_change);
}

TEST_CASE("compliance errors", "[trend]") {
  const Grouping grouping = make_grouping({3}, {5.0}, {Change::normal});
  const auto bad = compliance(grouping, ComplianceOptions{14, 14, Direction::higher_is_better});
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "the short window (14) must be at least 1 and shorter than the long window (14)");
  const auto empty = compliance(Grouping{}, ComplianceOptions{});
  REQUIRE_FALSE(empty);
  CHECK(empty.error() == "the series is empty");
}

TEST_CASE("trend and change per run", "[trend]") {
  const Grouping grouping = make_grouping({2, 3}, {1.0, 2.0}, {Change::normal, Change::progression});
  CHECK(trend_per_run(grouping) == std::vector<double>{1.0, 1.0, 2.0, 2.0, 2.0});
  CHECK(change_per_run(grouping) == std::vector<Change>{Change::normal, Change::normal, Change::progression,
                                                        Change::normal, Change::normal});
}

TEST_CASE("the SVG plot shows samples, steps and circled changes", "[trend]") {
  const std::vector<double> values{2.1, 3.1, 3.2};
  auto grouping = group_values(values, GroupingOptions{0.1, Direction::higher_is_better, Method::jumpavg});
  REQUIRE(grouping);
  perfduel::TrendPlot plot{"demo <trend>", "s", {{2.1}, {3.1}, {3.2}}, *grouping};
  const std::string svg = perfduel::render_trend_svg(plot);
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find("demo &lt;trend&gt;") != std::string::npos);
  CHECK(svg.find("<polyline") != std::string::npos);
  CHECK(svg.find("class=\"progression\"") != std::string::npos);
  CHECK(svg.find("class=\"regression\"") == std::string::npos);
  std::size_t dots = 0;
  for (auto at = svg.find("r=\"2\""); at != std::string::npos; at = svg.find("r=\"2\"", at + 1)) {
    ++dots;
  }
  CHECK(dots == 3);
  CHECK(svg.find("</svg>") != std::string::npos);
}
