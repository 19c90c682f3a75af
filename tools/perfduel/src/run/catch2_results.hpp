#pragma once

#include <string>
#include <vector>

#include "util/expected.hpp"

namespace perfduel {

// One BENCHMARK or BENCHMARK_ADVANCED result from a Catch2 test binary.
struct Catch2Benchmark {
  std::string name;
  double mean_seconds = 0;  // Catch2's mean time per call (its XML gives nanoseconds)
  double iterations = 0;    // the calls per sample that Catch2 chose (0 when not given)
  std::string failure;      // non-empty when the benchmark threw or failed: Catch2's message
};

// The benchmark results in `output`, the stdout of a Catch2 test binary run with its XML
// reporter (`-r xml`), in the order they appear. Catch2 v2 (<Catch> root, test cases inside a
// <Group>) and v3 (<Catch2TestRun> root) both write one <BenchmarkResults name="..."> per
// benchmark, wherever the test case or section nests it, with <mean value="ns"/> or, when the
// benchmark failed, <failed message="..."/>. The error names what the output was instead, e.g.
// Catch2's console or JSON reporter (v3's JSON reporter writes no benchmark results at all).
util::Expected<std::vector<Catch2Benchmark>> read_catch2_benchmarks(const std::string& output);

}  // namespace perfduel
