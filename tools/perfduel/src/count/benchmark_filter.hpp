#pragma once

#include <span>
#include <string>

// Selecting benchmarks of a Google Benchmark program by name (--benchmark_filter).
namespace perfduel {

// A Google Benchmark filter that matches the benchmarks `names` and no other: ^name$ for one,
// ^(a|b)$ for several, with the characters of an extended regular expression escaped
// (BM_Sort/8 → ^BM_Sort/8$, BM_f<int> unchanged).
std::string exact_benchmark_filter(std::span<const std::string> names);

}  // namespace perfduel
