// Times the trend grouping on generated series. Not a test: run it by hand, e.g.
//   cmake --build build --target perfduel_trend_bench && build/tools/bench/perfduel_trend_bench [REPEATS
//   [dashboard]]
// Targets: 2,000 points in ≤ 30 ms, 10,000 points in ≤ 1 s (each method); the dashboard of 200
// series × 10,000 points in ≤ 30 s (docs/history.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "trend/jumpavg.hpp"
#include "util/parallel.hpp"

namespace {

// A nightly-results-like series: a level that steps every few hundred points, with 2 %
// normal noise, seeded so every run times the same input.
std::vector<double> stepped_series(std::size_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::uniform_int_distribution<int> segment(150, 600);
  std::uniform_real_distribution<double> step(-0.15, 0.15);
  std::vector<double> series;
  double level = 1.0;
  while (series.size() < count) {
    const int length = segment(random);
    for (int k = 0; k < length && series.size() < count; ++k) {
      series.push_back(level * (1.0 + noise(random)));
    }
    level *= 1.0 + step(random);
  }
  return series;
}

// The worst case for any pruning: one level, pure noise, a single group.
std::vector<double> flat_series(std::size_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(1.0, 0.02);
  std::vector<double> series(count);
  std::generate(series.begin(), series.end(), [&] { return noise(random); });
  return series;
}

// CPU time of the process (all its threads): on a shared machine it is closer to the cost
// than wall time.
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

void time_grouping(const std::string& name, const std::vector<double>& series, int repeats,
                   perfduel::trend::Method method) {
  perfduel::trend::GroupingOptions options;
  options.method = method;
  std::vector<double> seconds;
  std::vector<double> cpu_seconds;
  std::size_t groups = 0;
  for (int r = 0; r < repeats; ++r) {
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    const auto grouping = perfduel::trend::group_values(series, options);
    const auto stop = std::chrono::steady_clock::now();
    cpu_seconds.push_back(process_cpu_seconds() - cpu_start);
    if (!grouping) {
      fmt::print(stderr, "{}: {}\n", name, grouping.error());
      std::exit(1);
    }
    groups = grouping->groups.size();
    seconds.push_back(std::chrono::duration<double>(stop - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(cpu_seconds.begin(), cpu_seconds.end());
  fmt::print(
      "{:<8} {:<8} {:>6} points {:>3} groups   wall median {:8.2f} ms, min {:8.2f} ms   cpu min {:8.2f} ms   "
      "({} runs)\n",
      perfduel::util::name_of(perfduel::trend::k_method_names, method), name, series.size(), groups,
      seconds[seconds.size() / 2] * 1e3, seconds.front() * 1e3, cpu_seconds.front() * 1e3, repeats);
}

// The grouping behind a dashboard of `count` series of `points` runs each, `make`(seed) each,
// on one thread per CPU as `perfduel trend --html` does.
template <typename Make>
void time_dashboard(const std::string& name, std::size_t count, std::size_t points, Make make) {
  std::vector<std::vector<double>> all;
  for (std::size_t i = 0; i < count; ++i) {
    all.push_back(make(points, static_cast<unsigned>(i + 1)));
  }
  std::vector<std::size_t> groups(count);
  const double cpu_start = process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  perfduel::util::parallel_for(count, 0, [&](std::size_t i) {
    groups[i] = perfduel::trend::group_values(all[i], perfduel::trend::GroupingOptions{})->groups.size();
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = process_cpu_seconds() - cpu_start;
  std::size_t total = 0;
  for (const std::size_t g : groups) {
    total += g;
  }
  fmt::print(
      "dashboard {:<8} {} series x {} points, {} groups in all: {:.2f} s wall, {:.2f} s cpu ({} threads)\n",
      name, count, points, total, seconds, cpu, std::max(1U, std::thread::hardware_concurrency()));
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  using perfduel::trend::Method;
  for (const Method method : {Method::segments, Method::jumpavg}) {
    for (const std::size_t count : {2000U, 10000U}) {
      const int times = count > 5000 ? std::max(1, repeats / 2) : repeats;
      time_grouping("stepped", stepped_series(count, 42), times, method);
      time_grouping("flat", flat_series(count, 42), times, method);
    }
  }
  if (argc > 2 && std::string(argv[2]) == "dashboard") {
    time_dashboard("stepped", 200, 10000, stepped_series);
    time_dashboard("flat", 200, 10000, flat_series);
  }
  return 0;
}
