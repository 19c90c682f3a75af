// A tiny Google Benchmark program whose JSON output (--benchmark_format=json) is captured in
// tests/data/gbench/ for the metric extractor's unit tests: two benchmarks in different time
// units, one of them with a user counter of known value.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

void BM_sum(benchmark::State& state) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(state.range(0)));
  std::iota(values.begin(), values.end(), 0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), std::int64_t{0}));
  }
  state.counters["widgets"] = 42;  // a user counter with a known value
}
BENCHMARK(BM_sum)->Arg(1024);

void BM_concat(benchmark::State& state) {
  for (auto _ : state) {
    std::string text;
    for (int i = 0; i < 64; ++i) {
      text += std::to_string(i);
    }
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_concat)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
