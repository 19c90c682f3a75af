// A Google Benchmark filter that selects benchmarks by exact name (count/benchmark_filter.hpp).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "count/benchmark_filter.hpp"

using namespace perfduel;

TEST_CASE("a benchmark's exact filter", "[benchmark_counts]") {
  const auto filter = [](std::vector<std::string> names) { return exact_benchmark_filter(names); };
  CHECK(filter({"BM_Sort/8"}) == "^BM_Sort/8$");
  CHECK(filter({"BM_f<int>/threads:2"}) == "^BM_f<int>/threads:2$");
  CHECK(filter({"BM_x/real_time.min(1)[a]"}) == "^BM_x/real_time\\.min\\(1\\)\\[a\\]$");
  CHECK(filter({"BM_Sort/8", "BM_a|b", "null_sink_st (global logger)"}) ==
        "^(BM_Sort/8|BM_a\\|b|null_sink_st \\(global logger\\))$");
}
