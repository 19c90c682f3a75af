// What a Google Benchmark program writes about its own runs (count/benchmark_log.hpp): the
// benchmarks it lists and the runs it logs at --v=2.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "count/benchmark_log.hpp"

using namespace perfduel;

TEST_CASE("the listed benchmarks", "[benchmark_counts]") {
  CHECK(listed_benchmarks("BM_Sort/8\nBM_Sort/16\n\n  BM_Hash/16  \n") ==
        std::vector<std::string>{"BM_Sort/8", "BM_Sort/16", "BM_Hash/16"});
}

TEST_CASE("the runs Google Benchmark logs at --v=2", "[benchmark_counts]") {
  const auto runs = logged_runs(
      "-- LOG(2): Running null_sink_st (global logger) for 1\n-- LOG(2): Ran in 1.1961e-05/1.3758e-05\n"
      "a line the benchmark printed\n-- LOG(2): Running BM_x for 2654785\n-- LOG(3): Next iters: 10, 10\n"
      "-- LOG(2): Ran in 0.1419/0.141898\n-- LOG(2): Running BM_y for many\n"
      // Google Benchmark 1.9.1's warning for a minimum time without a unit has no line end.
      "-- LOG(0): Value passed to --benchmark_min_time should have a suffix. Eg., `30s` for 30-seconds."
      "-- LOG(2): Running BM_z for 10\n");
  REQUIRE(runs.size() == 3);
  CHECK(runs[2].name == "BM_z");
  CHECK(runs[2].iterations == 10);
  CHECK(runs[0].name == "null_sink_st (global logger)");
  CHECK(runs[0].iterations == 1);
  CHECK(runs[0].seconds == Approx(1.3758e-05));
  CHECK(runs[1].name == "BM_x");
  CHECK(runs[1].iterations == 2654785);
  CHECK(runs[1].seconds == Approx(0.1419));
}

TEST_CASE("the program's own stderr without the runs it logged", "[benchmark_counts]") {
  CHECK(without_run_log("-- LOG(2): Running BM_x for 1\nboom\n  -- LOG(2): Ran in 1e-05/1e-05\nbang") ==
        "boom\nbang\n");
  CHECK(without_run_log("").empty());
}
