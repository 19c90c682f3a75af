// A suite of Google Benchmarks: the library's hybrid sort and std::sort at four sizes each.
// One pattern in perf/sort_suite.yaml gates all eight; a new size shows up as a new benchmark.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "sortlib/sort.hpp"

namespace {

std::vector<std::uint32_t> random_input(std::int64_t size) {
  std::mt19937 random(42);
  std::vector<std::uint32_t> input(static_cast<std::size_t>(size));
  std::generate(input.begin(), input.end(), [&] { return random(); });
  return input;
}

void BM_HybridSort(benchmark::State& state) {
  const auto input = random_input(state.range(0));
  std::vector<std::uint32_t> values;
  for (auto _ : state) {
    values = input;
    sortlib::hybrid_sort(values);
    benchmark::DoNotOptimize(values.data());
  }
}
BENCHMARK(BM_HybridSort)->Arg(1'000)->Arg(4'000)->Arg(16'000)->Arg(64'000);

void BM_StdSort(benchmark::State& state) {
  const auto input = random_input(state.range(0));
  std::vector<std::uint32_t> values;
  for (auto _ : state) {
    values = input;
    std::sort(values.begin(), values.end());
    benchmark::DoNotOptimize(values.data());
  }
}
BENCHMARK(BM_StdSort)->Arg(1'000)->Arg(4'000)->Arg(16'000)->Arg(64'000);

}  // namespace

BENCHMARK_MAIN();
