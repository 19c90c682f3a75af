// A Catch2 v2 test binary with benchmarks (CATCH_CONFIG_ENABLE_BENCHMARKING): BENCHMARK and
// BENCHMARK_ADVANCED in two test cases, one inside a section, for the `catch2:` metric tests.
// Its XML reporter output (-r xml) is captured in tests/data/catch2/. `--slow=NAME` makes
// benchmark NAME do 11 units of work instead of 10: a true 10 % slow-down of that one
// (`--slow-units=N`: N units instead). `--units=N` makes every benchmark do N units (default
// 10), so that `--units=100 --slow-units=101` is a 1 % change of one benchmark. For the
// allocation metrics: `--scratch` makes each unit of sort_work and hash_work allocate a scratch
// buffer of 64 bytes (a known count: `units` allocations per call), and `--extra-in=sort` (or
// `hash`) one more of 16 bytes in that function's unit only.
#define CATCH_CONFIG_RUNNER
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace {

std::string g_slow;
int g_units = 10;
int g_slow_units = 11;

bool g_scratch = false;
std::string g_extra_in;

// The allocations --scratch and --extra-in ask of one unit of the work `function` does.
void allocate_for(const char* function) {
  if (g_scratch) {
    const auto scratch = std::make_unique<char[]>(64);
    Catch::Benchmark::keep_memory(scratch.get());
  }
  if (g_extra_in == function) {
    const auto extra = std::make_unique<char[]>(16);
    Catch::Benchmark::keep_memory(extra.get());
  }
}

int units(const std::string& name) {
  return name == g_slow ? g_slow_units : g_units;
}

std::uint32_t sort_work(std::vector<std::uint32_t>& values, int count) {
  for (int u = 0; u < count; ++u) {
    allocate_for("sort");
    std::uint32_t x = 12345;
    for (auto& v : values) {
      x = x * 1664525U + 1013904223U;
      v = x;
    }
    std::sort(values.begin(), values.end());
  }
  return values.front();
}

std::uint64_t hash_work(const std::string& text, int count) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (int u = 0; u < count; ++u) {
    allocate_for("hash");
    for (const char c : text) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
  }
  return hash;
}

}  // namespace

TEST_CASE("sorting", "[!benchmark]") {
  std::vector<std::uint32_t> small(64);
  std::vector<std::uint32_t> large(512);
  BENCHMARK("sort 64") {
    return sort_work(small, units("sort 64"));
  };
  BENCHMARK("sort 512") {
    return sort_work(large, units("sort 512"));
  };
  SECTION("advanced") {
    BENCHMARK_ADVANCED("sort 64 <advanced>")(Catch::Benchmark::Chronometer meter) {
      const int count = units("sort 64 <advanced>");
      meter.measure([&] { return sort_work(small, count); });
    };
  }
}

TEST_CASE("hashing", "[!benchmark]") {
  const std::string text(256, 'x');
  BENCHMARK("fnv1a 256") {
    return hash_work(text, units("fnv1a 256"));
  };
}

TEST_CASE("a plain test that the benchmark runs leave out") {
  REQUIRE(hash_work("abc", 1) != 0);
}

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scratch") == 0) {
      g_scratch = true;
    } else if (std::strncmp(argv[i], "--extra-in=", 11) == 0) {
      g_extra_in = argv[i] + 11;
    } else if (std::strncmp(argv[i], "--slow=", 7) == 0) {
      g_slow = argv[i] + 7;
    } else if (std::strncmp(argv[i], "--units=", 8) == 0) {
      g_units = std::atoi(argv[i] + 8);
    } else if (std::strncmp(argv[i], "--slow-units=", 13) == 0) {
      g_slow_units = std::atoi(argv[i] + 13);
    } else {
      rest.push_back(argv[i]);
    }
  }
  return Catch::Session().run(static_cast<int>(rest.size()), rest.data());
}
