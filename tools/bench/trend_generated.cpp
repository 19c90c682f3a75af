// The trend's default on generated benchmark histories (tests/unit/support/benchmark_histories.hpp):
// how well it finds known steps, and how often it calls a change, or `perfduel record` alerts,
// on identical programs. The figures of docs/history.md "How well it finds changes".
//
//   perfduel_trend_generated [SERIES]     (default 200; the A/A part uses 5 × SERIES)
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "benchmark_histories.hpp"
#include "trend/history_trend.hpp"
#include "trend/jumpavg.hpp"
#include "trend/scoring.hpp"

namespace {

using namespace perfduel;

trend::Grouping grouped(const std::vector<double>& values) {
  trend::GroupingOptions options;
  options.direction = stats::Direction::lower_is_better;
  auto grouping = trend::group_values(values, options);
  if (!grouping) {
    throw std::runtime_error(grouping.error());
  }
  return std::move(grouping.value());
}

trend::ChangePoints starts(const trend::Grouping& g) {
  trend::ChangePoints points;
  for (std::size_t i = 1; i < g.groups.size(); ++i) {
    points.push_back(g.groups[i].start);
  }
  return points;
}

// Mean F1 (margin 5) and cover over `count` histories of 400 runs with 3 steps of 2–15 %.
void known_steps(std::size_t count, const test::HistoryNoise& noise, const char* what) {
  std::mt19937_64 random(53);
  double f1 = 0.0;
  double cover = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const test::BenchmarkHistory h = test::benchmark_history(random, 400, 3, noise);
    const std::vector<trend::ChangePoints> truth{h.steps};
    const trend::ChangePoints found = starts(grouped(h.values));
    f1 += trend::f1_score(truth, found).f1;
    cover += trend::covering(truth, found, h.values.size());
  }
  fmt::print("known steps, {}: {} histories of 400 runs, 3 steps of 2-15 %: F1 {:.3f}, cover {:.3f}\n", what,
             count, f1 / static_cast<double>(count), cover / static_cast<double>(count));
}

// Identical programs: series of 200 runs with any change, per 100 series; and series on which
// `perfduel record`, recording the runs one by one (from the 24th on), would have alerted.
void identical_programs(std::size_t count, std::size_t alert_count, const test::HistoryNoise& noise,
                        const char* what) {
  std::mt19937_64 random(54);
  std::size_t changed = 0;
  std::size_t alerted = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const test::BenchmarkHistory h = test::benchmark_history(random, 200, 0, noise);
    changed += grouped(h.values).groups.size() > 1 ? 1 : 0;
    if (i >= alert_count) {
      continue;
    }
    for (std::size_t n = 2 * trend::k_min_held_runs; n <= h.values.size(); ++n) {
      const std::vector<double> recorded(h.values.begin(), h.values.begin() + static_cast<std::ptrdiff_t>(n));
      if (trend::newest_regression(grouped(recorded)) != nullptr) {
        ++alerted;
        break;
      }
    }
  }
  fmt::print(
      "identical programs, {}: {} of {} series of 200 runs with a change ({:.2f} per 100); "
      "record alerted on {} of {} ({:.2f} per 100)\n",
      what, changed, count, 100.0 * static_cast<double>(changed) / static_cast<double>(count), alerted,
      alert_count, 100.0 * static_cast<double>(alerted) / static_cast<double>(alert_count));
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t count = argc > 1 ? std::stoul(argv[1]) : 200;
  test::HistoryNoise quiet;  // 0.5 % noise, 1 % of runs 50 % slow, 3-run excursions of 10 %
  test::HistoryNoise noisy = quiet;
  noisy.noise = 0.01;
  try {
    known_steps(count, quiet, "0.5 % noise");
    known_steps(count, noisy, "1 % noise");
    identical_programs(5 * count, count, quiet, "0.5 % noise");
    identical_programs(5 * count, count, noisy, "1 % noise");
  } catch (const std::exception& e) {
    fmt::print(stderr, "perfduel_trend_generated: {}\n", e.what());
    return 2;
  }
  return 0;
}
