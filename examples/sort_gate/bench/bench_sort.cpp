// A plain benchmark program: sorts `--repeat` shuffled arrays of `--size` elements and checks
// the result. perfduel times the whole process (wall time, CPU time, max RSS).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string_view>
#include <vector>

#include "sortlib/sort.hpp"

int main(int argc, char** argv) {
  std::size_t size = 100'000;
  int repeat = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view option = argv[i];
    if (option == "--size") {
      size = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (option == "--repeat") {
      repeat = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "usage: bench_sort [--size N] [--repeat R]\n");
      return 2;
    }
  }

  std::mt19937 random(42);  // the same input in every run and in both builds
  std::vector<std::uint32_t> values(size);
  std::uint64_t checksum = 0;
  for (int r = 0; r < repeat; ++r) {
    std::generate(values.begin(), values.end(), [&] { return random(); });
    sortlib::hybrid_sort(values);
    if (!std::is_sorted(values.begin(), values.end())) {
      std::fprintf(stderr, "bench_sort: the result is not sorted\n");
      return 1;
    }
    checksum += values[size / 2];
  }
  std::printf("sorted %d x %zu values, checksum %llu\n", repeat, size,
              static_cast<unsigned long long>(checksum));
  return 0;
}
