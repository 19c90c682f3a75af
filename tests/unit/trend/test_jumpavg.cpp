#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "trend/bit_model.hpp"
#include "trend/jumpavg.hpp"

using namespace perfduel::trend;

namespace {

bool close_relative(double got, double expected, double tolerance = 1e-9) {
  return std::fabs(got - expected) <= tolerance * std::max(std::fabs(expected), 1e-300);
}

std::vector<nlohmann::json> load_vectors() {
  const std::string path = std::string(PERFDUEL_TEST_DATA_DIR) + "/jumpavg/vectors.jsonl";
  std::ifstream file(path);
  REQUIRE(file.good());
  std::vector<nlohmann::json> vectors;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty()) {
      vectors.push_back(nlohmann::json::parse(line));
    }
  }
  return vectors;
}

}  // namespace

TEST_CASE("the documented known answer of jumpavg", "[trend]") {
  const std::vector<double> values{2.1, 3.1, 3.2};
  const auto grouping =
      group_values(values, GroupingOptions{0.1, Direction::higher_is_better, Method::jumpavg});
  REQUIRE(grouping);
  REQUIRE(grouping->groups.size() == 2);
  const Group& first = grouping->groups[0];
  const Group& second = grouping->groups[1];
  CHECK(first.start == 0);
  CHECK(first.runs == 1);
  CHECK(close_relative(first.bits, 6.044394119358453));
  CHECK(first.change == Change::normal);
  CHECK(second.start == 1);
  CHECK(second.runs == 2);
  CHECK(close_relative(second.bits, 10.215241265313393));
  CHECK(second.change == Change::progression);
  // The same step is a regression for a metric where lower is better.
  const auto latency =
      group_values(values, GroupingOptions{0.1, Direction::lower_is_better, Method::jumpavg});
  REQUIRE(latency);
  CHECK(latency->groups[1].change == Change::regression);
}

TEST_CASE("every reference vector is reproduced exactly", "[trend]") {
  const auto vectors = load_vectors();
  REQUIRE(vectors.size() >= 30);
  for (const auto& vector : vectors) {
    const std::string id = vector.at("id");
    INFO("vector " << id);
    GroupingOptions options;
    options.method = Method::jumpavg;
    if (!vector.at("unit").is_null()) {
      options.unit = vector.at("unit").get<double>();
    }
    perfduel::util::Expected<Grouping> grouping = Grouping{};
    if (vector.at("input_format") == "runs") {
      const auto runs = vector.at("input").get<std::vector<std::vector<double>>>();
      grouping = group_runs(runs, options);
    } else {
      const auto values = vector.at("input").get<std::vector<double>>();
      grouping = group_values(values, options);
    }
    REQUIRE(grouping);
    CHECK(close_relative(grouping->unit, vector.at("unit_used").get<double>(), 1e-15));
    CHECK(grouping->max_value == vector.at("max_value").get<double>());
    const auto& expected = vector.at("groups");
    REQUIRE(grouping->groups.size() == expected.size());
    for (std::size_t g = 0; g < expected.size(); ++g) {
      INFO("group " << g);
      const Group& got = grouping->groups[g];
      CHECK(got.start == expected[g].at("start").get<std::size_t>());
      CHECK(got.runs == expected[g].at("runs").get<std::size_t>());
      CHECK(got.stats.size == expected[g].at("samples").get<std::int64_t>());
      CHECK(close_relative(got.stats.avg, expected[g].at("avg").get<double>()));
      CHECK(std::fabs(got.stats.stdev - expected[g].at("stdev").get<double>()) <=
            1e-9 * std::max(std::fabs(expected[g].at("avg").get<double>()), 1e-300));
      CHECK(close_relative(got.bits, expected[g].at("bits").get<double>()));
      CHECK(std::string(to_string(got.change)) == expected[g].at("class").get<std::string>());
    }
    CHECK(close_relative(grouping->total_bits, vector.at("total_bits").get<double>()));
  }
}

TEST_CASE("group bits of single groups", "[trend]") {
  // One sample: log2(1·2) for the length plus log2(max/unit + 1) for a uniform average.
  CHECK(close_relative(group_bits(RunStats{1, 2.1, 0.0}, 3.2, 0.1, std::nullopt), 1.0 + std::log2(33.0)));
  CHECK(group_bits(RunStats{}, 3.2, 0.1, std::nullopt) == 0.0);
  CHECK(close_relative(group_bits(RunStats{2, 3.15, 0.05}, 3.2, 0.1, 2.1), 10.215241265313393));
}

TEST_CASE("runs stay together and match their flattened summary", "[trend]") {
  const std::vector<std::vector<double>> runs{{1.0, 1.1, 0.9}, {1.05}, {3.0, 3.1}, {2.9, 3.05}};
  const auto grouping = group_runs(runs, GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE(grouping);
  REQUIRE(grouping->groups.size() == 2);
  CHECK(grouping->groups[0].runs == 2);
  CHECK(grouping->groups[0].stats.size == 4);
  CHECK(grouping->groups[1].start == 2);
  CHECK(grouping->groups[1].stats.size == 4);
  CHECK(grouping->groups[1].change == Change::progression);
}

TEST_CASE("summaries use the reference's merge", "[trend]") {
  const std::vector<double> x{2, 4, 4, 4, 5, 5, 7, 9};
  const RunStats stats = summarize(x);
  CHECK(stats.size == 8);
  CHECK(stats.avg == 5.0);
  CHECK(stats.stdev == 2.0);
  const std::vector<RunStats> parts{summarize(std::vector<double>{2, 4, 4, 4}),
                                    summarize(std::vector<double>{5, 5, 7, 9})};
  const RunStats merged = merge_runs(parts);
  CHECK(merged.size == 8);
  CHECK(merged.avg == Approx(5.0));
  CHECK(merged.stdev == Approx(2.0));
}

TEST_CASE("a series of zeros only is one group without a change", "[trend]") {
  // A quick program's system time is 0 in every record: nothing to describe, nothing changed.
  const auto zeros = group_values(std::vector<double>{0.0, 0.0, 0.0},
                                  GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE(zeros);
  REQUIRE(zeros->groups.size() == 1);
  CHECK(zeros->groups[0].start == 0);
  CHECK(zeros->groups[0].runs == 3);
  CHECK(zeros->groups[0].stats.size == 3);
  CHECK(zeros->groups[0].stats.avg == 0.0);
  CHECK(zeros->groups[0].change == Change::normal);
  CHECK(zeros->max_value == 0.0);
  const auto runs = group_runs(std::vector<std::vector<double>>{{0.0, 0.0}, {0.0}},
                               GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE(runs);
  REQUIRE(runs->groups.size() == 1);
  CHECK(runs->groups[0].runs == 2);
  CHECK(runs->groups[0].stats.size == 3);
}

TEST_CASE("grouping input errors", "[trend]") {
  CHECK(group_values(std::vector<double>{}, GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg})
            ->groups.empty());
  const auto negative = group_values(std::vector<double>{-1.0, -2.0},
                                     GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE_FALSE(negative);
  CHECK(negative.error() ==
        "the largest value is 0, but trend grouping needs a positive maximum (values are durations, sizes "
        "or rates)");
  const auto with_zero = group_values(std::vector<double>{0.0, -1.0},
                                      GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE_FALSE(with_zero);
  CHECK(with_zero.error().starts_with("the largest value is 0, "));
  const auto not_finite = group_values(std::vector<double>{1.0, NAN},
                                       GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE_FALSE(not_finite);
  CHECK(not_finite.error() == "value 1 is not finite");
  const auto bad_unit = group_values(std::vector<double>{1.0},
                                     GroupingOptions{-0.5, Direction::higher_is_better, Method::jumpavg});
  REQUIRE_FALSE(bad_unit);
  CHECK(bad_unit.error() == "invalid unit -0.5: it must be a positive number");
  const auto empty_run = group_runs(std::vector<std::vector<double>>{{1.0}, {}},
                                    GroupingOptions{{}, Direction::higher_is_better, Method::jumpavg});
  REQUIRE_FALSE(empty_run);
  CHECK(empty_run.error() == "run 1 has no samples");
}

namespace {

// Compares the fast partition with the exhaustive one, bit for bit.
void require_same_partition(const std::vector<RunStats>& runs, double max_value, double unit) {
  const auto fast = partition(runs, max_value, unit);
  const auto exhaustive = partition_exhaustive(runs, max_value, unit);
  REQUIRE(fast.size() == exhaustive.size());
  for (std::size_t g = 0; g < fast.size(); ++g) {
    CHECK(fast[g].start == exhaustive[g].start);
    CHECK(fast[g].runs == exhaustive[g].runs);
    CHECK(fast[g].bits == exhaustive[g].bits);
    CHECK(fast[g].stats.avg == exhaustive[g].stats.avg);
    CHECK(fast[g].stats.stdev == exhaustive[g].stats.stdev);
  }
}

}  // namespace

TEST_CASE("the bounded search chooses exactly the exhaustive partition", "[trend]") {
  std::mt19937_64 random(20261121);
  for (int trial = 0; trial < 60; ++trial) {
    INFO("trial " << trial);
    const std::size_t count = 5 + random() % 300;
    std::vector<RunStats> runs;
    double max_value = 0.0;
    double level = 1.0 + static_cast<double>(random() % 100);
    const int kind = trial % 4;
    for (std::size_t i = 0; i < count; ++i) {
      if (random() % 40 == 0) {
        level *= 0.7 + 0.6 * std::uniform_real_distribution<double>(0, 1)(random);
      }
      double value = 0.0;
      if (kind == 0) {
        value = level * (1.0 + 0.03 * std::normal_distribution<double>(0, 1)(random));
      } else if (kind == 1) {
        // Small integers: many equal values, so equal bit counts are likely.
        value = static_cast<double>(1 + random() % 4);
      } else if (kind == 2) {
        value = level;  // constant stretches
      } else {
        value = level * (1.0 + 0.5 * std::normal_distribution<double>(0, 1)(random));
        value = std::fabs(value);
      }
      if (kind == 3 && i % 2 == 0) {
        // A run of a few samples.
        std::vector<double> samples{value, value * 1.01, value * 0.98};
        for (const double s : samples) {
          max_value = std::max(max_value, s);
        }
        runs.push_back(summarize(samples));
      } else {
        max_value = std::max(max_value, value);
        runs.push_back(RunStats{1, value, 0.0});
      }
    }
    require_same_partition(runs, max_value, max_value / 8191.0);
    require_same_partition(runs, max_value, max_value / 100.0);
  }
}
