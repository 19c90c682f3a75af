#pragma once

#include <string>
#include <string_view>
#include <vector>

// What a Google Benchmark program writes about its own runs: the benchmarks it lists
// (--benchmark_list_tests=true) and, at --v=2, each run of a benchmark's timed loop on stderr.
namespace perfduel {

// The benchmark names of a --benchmark_list_tests=true run's `output`, one per line.
std::vector<std::string> listed_benchmarks(std::string_view output);

// One run of a benchmark's timed loop, as Google Benchmark logs it at --v=2 ("-- LOG(2):
// Running BM_x for 100", then "-- LOG(2): Ran in 0.0012/0.0013", CPU and real seconds).
struct LoggedRun {
  std::string name;
  double iterations = 0;
  double seconds = 0;  // the larger of the two times; 0 when not logged
};

// The runs logged in `err` (a process's stderr), in order; other lines are skipped.
std::vector<LoggedRun> logged_runs(std::string_view err);

// `err` without the lines Google Benchmark logs at --v=2 (what is left is the program's own).
std::string without_run_log(std::string_view err);

}  // namespace perfduel
