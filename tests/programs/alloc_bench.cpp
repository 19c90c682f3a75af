// A Google Benchmark suite whose allocations per iteration are known by hand, for the
// allocation metrics (valgrind: allocations, allocated_bytes; count/allocation_counts.hpp):
//   BM_PushBack       100 push_back into a new std::vector<int>: capacities 1, 2, 4, ..., 128
//                     (libstdc++ doubles), 8 allocations of 4+8+...+512 = 1020 bytes
//   BM_PushBackReserve the same after reserve(100): 1 allocation of 400 bytes
//   BM_String         a std::string of 100 characters: 1 allocation of 101 bytes
//   BM_Checksum       a vector of 64 bytes summed by checksum(): 1 allocation of 64 bytes
//   BM_Label          a std::string of 40 characters and its checksum(): 1 allocation, 41 bytes
//   BM_Arithmetic     no allocation
// `--extra` makes checksum() allocate 16 bytes more per call (BM_Checksum and BM_Label call it:
// 1 allocation and 16 bytes more per iteration, the others unchanged); `--reworded` changes the
// message the program prints at its end, and nothing else.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

bool g_extra = false;

__attribute__((noinline)) std::uint64_t checksum(const char* data, std::size_t size) {
  std::uint64_t sum = std::accumulate(data, data + size, std::uint64_t{0});
  if (g_extra) {
    const auto scratch = std::make_unique<char[]>(16);
    std::memcpy(scratch.get(), &sum, sizeof(sum));
    benchmark::DoNotOptimize(scratch.get());
    sum += static_cast<unsigned char>(scratch[0]);
  }
  return sum;
}

void BM_PushBack(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> values;
    for (int i = 0; i < 100; ++i) {
      values.push_back(i);
    }
    benchmark::DoNotOptimize(values.data());
  }
}

void BM_PushBackReserve(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> values;
    values.reserve(100);
    for (int i = 0; i < 100; ++i) {
      values.push_back(i);
    }
    benchmark::DoNotOptimize(values.data());
  }
}

void BM_String(benchmark::State& state) {
  for (auto _ : state) {
    std::string text(100, 'x');
    benchmark::DoNotOptimize(text.data());
  }
}

void BM_Checksum(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<char> bytes(64, 'y');
    benchmark::DoNotOptimize(checksum(bytes.data(), bytes.size()));
  }
}

void BM_Label(benchmark::State& state) {
  for (auto _ : state) {
    std::string label(40, 'z');
    benchmark::DoNotOptimize(label.data());
    benchmark::DoNotOptimize(checksum(label.data(), label.size()));
  }
}

void BM_Arithmetic(benchmark::State& state) {
  std::uint64_t x = 1;
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    }
    benchmark::DoNotOptimize(x);
  }
}

BENCHMARK(BM_PushBack);
BENCHMARK(BM_PushBackReserve);
BENCHMARK(BM_String);
BENCHMARK(BM_Checksum);
BENCHMARK(BM_Label);
BENCHMARK(BM_Arithmetic);

}  // namespace

int main(int argc, char** argv) {
  bool reworded = false;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--extra") == 0) {
      g_extra = true;
    } else if (std::strcmp(argv[i], "--reworded") == 0) {
      reworded = true;
    } else {
      rest.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::fprintf(stderr, reworded ? "all allocation benchmarks ran\n" : "the allocation benchmarks are done\n");
  return 0;
}
