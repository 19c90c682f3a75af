// A program with a known call tree, for the "where" of a counted regression (the run page's
// icicle, tests/browser): main → run_once → make_values, sort_chunks → insertion_sort, and
// checksum. With --slow the chunks insertion sort sorts are four times as long (so quadratically
// more work in insertion_sort) and each run also checks the order (check_sorted, a function
// the baseline never calls). Every function stays out of line so that callgrind sees each.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

namespace {

constexpr std::size_t k_values = 20000;
constexpr int k_runs = 4;

[[gnu::noinline]] std::vector<std::uint32_t> make_values(std::size_t count, std::uint32_t seed) {
  std::vector<std::uint32_t> values(count);
  std::uint32_t x = seed;
  for (auto& value : values) {
    x ^= x << 13U;
    x ^= x >> 17U;
    x ^= x << 5U;
    value = x;
  }
  return values;
}

[[gnu::noinline]] void insertion_sort(std::span<std::uint32_t> values) {
  for (std::size_t i = 1; i < values.size(); ++i) {
    const std::uint32_t value = values[i];
    std::size_t j = i;
    for (; j > 0 && values[j - 1] > value; --j) {
      values[j] = values[j - 1];
    }
    values[j] = value;
  }
}

[[gnu::noinline]] void sort_chunks(std::vector<std::uint32_t>& values, std::size_t chunk) {
  for (std::size_t at = 0; at < values.size(); at += chunk) {
    insertion_sort(std::span(values).subspan(at, std::min(chunk, values.size() - at)));
  }
}

[[gnu::noinline]] bool check_sorted(const std::vector<std::uint32_t>& values, std::size_t chunk) {
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (i % chunk != 0 && values[i - 1] > values[i]) {
      return false;
    }
  }
  return true;
}

[[gnu::noinline]] std::uint64_t checksum(const std::vector<std::uint32_t>& values) {
  std::uint64_t sum = 0;
  for (const std::uint32_t value : values) {
    sum = sum * 31U + value;
  }
  return sum;
}

[[gnu::noinline]] std::uint64_t run_once(std::uint32_t seed, bool slow) {
  const std::size_t chunk = slow ? 64 : 16;
  std::vector<std::uint32_t> values = make_values(k_values, seed);
  sort_chunks(values, chunk);
  if (slow && !check_sorted(values, chunk)) {
    return 0;
  }
  return checksum(values);
}

}  // namespace

int main(int argc, char** argv) {
  const bool slow = argc > 1 && std::strcmp(argv[1], "--slow") == 0;
  std::uint64_t total = 0;
  for (int run = 0; run < k_runs; ++run) {
    total += run_once(static_cast<std::uint32_t>(run + 1), slow);
  }
  std::printf("%llu\n", static_cast<unsigned long long>(total));
  return 0;
}
