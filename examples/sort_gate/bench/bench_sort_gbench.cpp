// The same sort as a Google Benchmark; perfduel reads its JSON output
// (--benchmark_format=json) and gates on the real_time of BM_HybridSort/100000.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "sortlib/sort.hpp"

static void BM_HybridSort(benchmark::State& state) {
  std::mt19937 random(42);
  std::vector<std::uint32_t> input(static_cast<std::size_t>(state.range(0)));
  std::generate(input.begin(), input.end(), [&] { return random(); });
  std::vector<std::uint32_t> values;
  for (auto _ : state) {
    state.PauseTiming();
    values = input;
    state.ResumeTiming();
    sortlib::hybrid_sort(values);
    benchmark::DoNotOptimize(values.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_HybridSort)->Arg(1'000)->Arg(100'000);

BENCHMARK_MAIN();
