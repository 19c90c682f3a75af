// A Google Benchmark suite of 20 benchmarks in four families (BM_Sort/<n>, BM_Hash/<n>,
// BM_Parse/<n>, BM_Copy/<n>), for the benchmark-pattern tests: one YAML entry per family
// gates them all. `--slow=NAME` makes benchmark NAME do 11 units of work per iteration
// instead of 10, a true 10 % slow-down of that benchmark alone, so that a candidate with a
// known regression in one benchmark of many is one flag away; `--slow-units=N` does N units
// instead (20: twice as slow). `--threaded` adds BM_Spin/threads:2, a benchmark that runs two
// threads (Google Benchmark's Threads(2)), as a suite with one such benchmark among many has.
// `--units=N` makes every benchmark do N units (default 10), so that `--units=100
// --slow-units=101` is a 1 % change of one benchmark. `--numbered` adds BM_Numbered, whose
// iterations write their own number, as a logging library's benchmarks do: an iteration's work
// grows with its number's digits, so that its work per iteration depends on the iteration count.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

void sort(benchmark::State& state, std::int64_t n, int count) {
  std::vector<std::uint32_t> values(static_cast<std::size_t>(n));
  for (auto _ : state) {
    for (int u = 0; u < count; ++u) {
      std::uint32_t x = 12345;
      for (auto& v : values) {
        x = x * 1664525U + 1013904223U;
        v = x;
      }
      std::sort(values.begin(), values.end());
      benchmark::DoNotOptimize(values.data());
    }
  }
}

void fnv1a(benchmark::State& state, std::int64_t n, int count) {
  const std::string text(static_cast<std::size_t>(n), 'x');
  for (auto _ : state) {
    for (int u = 0; u < count; ++u) {
      std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a
      for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
      }
      benchmark::DoNotOptimize(hash);
    }
  }
}

void parse(benchmark::State& state, std::int64_t n, int count) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += std::to_string(i * 7919) + ",";
  }
  for (auto _ : state) {
    for (int u = 0; u < count; ++u) {
      std::uint64_t sum = 0;
      std::uint64_t value = 0;
      for (const char c : text) {
        if (c == ',') {
          sum += value;
          value = 0;
        } else {
          value = value * 10 + static_cast<std::uint64_t>(c - '0');
        }
      }
      benchmark::DoNotOptimize(sum);
    }
  }
}

// Each of the benchmark's threads sums on its own: two threads need two CPUs.
void spin(benchmark::State& state) {
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < 20000; ++i) {
      sum += i * i;
      benchmark::DoNotOptimize(sum);
    }
  }
}

// Writes the iteration's number, counted from 1 in every run, and sums its digits.
void numbered(benchmark::State& state) {
  std::uint64_t number = 0;
  char text[24];
  for (auto _ : state) {
    const auto end = std::to_chars(text, text + sizeof text, ++number).ptr;
    std::uint64_t sum = 0;
    for (const char* c = text; c != end; ++c) {
      sum += static_cast<std::uint64_t>(*c - '0');
    }
    benchmark::DoNotOptimize(sum);
  }
}

void copy(benchmark::State& state, std::int64_t n, int count) {
  const std::vector<char> source(static_cast<std::size_t>(n), 'a');
  std::vector<char> target(source.size());
  for (auto _ : state) {
    for (int u = 0; u < count; ++u) {
      std::memcpy(target.data(), source.data(), source.size());
      benchmark::ClobberMemory();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Take --slow=NAME out before Google Benchmark sees the arguments (it rejects unknown ones).
  std::string slow;     // the benchmark made slower, if any
  int units = 10;       // the units of work per iteration of every benchmark
  int slow_units = 11;  // those of the slow one
  bool threaded = false;
  bool numbered_too = false;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--threaded") == 0) {
      threaded = true;
    } else if (std::strcmp(argv[i], "--numbered") == 0) {
      numbered_too = true;
    } else if (std::strncmp(argv[i], "--slow=", 7) == 0) {
      slow = argv[i] + 7;
    } else if (std::strncmp(argv[i], "--units=", 8) == 0) {
      units = std::atoi(argv[i] + 8);
    } else if (std::strncmp(argv[i], "--slow-units=", 13) == 0) {
      slow_units = std::atoi(argv[i] + 13);
    } else {
      rest.push_back(argv[i]);
    }
  }
  // Registered by hand (not BENCHMARK(...)->Arg(...)) so that each knows its own name.
  using Body = void (*)(benchmark::State&, std::int64_t, int);
  const std::pair<const char*, Body> families[] = {
      {"BM_Sort", sort}, {"BM_Hash", fnv1a}, {"BM_Parse", parse}, {"BM_Copy", copy}};
  const std::vector<std::int64_t> sizes[] = {{8, 16, 32, 64, 128},
                                             {16, 64, 256, 1024, 4096},
                                             {4, 16, 64, 256, 1024},
                                             {256, 1024, 4096, 16384, 65536}};
  for (std::size_t f = 0; f < 4; ++f) {
    for (const std::int64_t n : sizes[f]) {
      const std::string name = std::string(families[f].first) + "/" + std::to_string(n);
      const int count = name == slow ? slow_units : units;
      benchmark::RegisterBenchmark(name.c_str(), families[f].second, n, count);
    }
  }
  if (threaded) {
    benchmark::RegisterBenchmark("BM_Spin", spin)->Threads(2);
  }
  if (numbered_too) {
    benchmark::RegisterBenchmark("BM_Numbered", numbered);
  }
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(count, rest.data())) {
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
