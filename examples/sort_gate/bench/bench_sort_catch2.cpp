// The hybrid sort as Catch2 benchmarks (BENCHMARK and BENCHMARK_ADVANCED); perfduel reads
// Catch2's XML reporter (add_perf_gate(... FRAMEWORK catch2) passes -r xml).
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "sortlib/sort.hpp"

TEST_CASE("hybrid sort", "[!benchmark]") {
  std::mt19937 random(42);
  std::vector<std::uint32_t> input(10'000);
  std::generate(input.begin(), input.end(), [&] { return random(); });

  BENCHMARK("hybrid_sort 10000") {
    auto values = input;
    sortlib::hybrid_sort(values);
    return values.front();
  };
  BENCHMARK_ADVANCED("hybrid_sort 1000 presorted")(Catch::Benchmark::Chronometer meter) {
    std::vector<std::uint32_t> sorted(input.begin(), input.begin() + 1'000);
    std::sort(sorted.begin(), sorted.end());
    meter.measure([&] {
      auto values = sorted;
      sortlib::hybrid_sort(values);
      return values.front();
    });
  };
}
