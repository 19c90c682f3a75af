// libFuzzer target: Catch2's XML reporter output (read_catch2_benchmarks) and the `catch2:`
// metric read from it. Input: the output. Every benchmark found has a finite mean or a
// failure message; the metric of the first one is finite, or fails with a message when one of that name
// failed.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "run/catch2_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string out(reinterpret_cast<const char*>(data), size);
  const auto benchmarks = perfduel::read_catch2_benchmarks(out);
  if (!benchmarks) {
    PERFDUEL_FUZZ_CHECK(!benchmarks.error().empty());
    return 0;
  }
  for (const auto& benchmark : *benchmarks) {
    PERFDUEL_FUZZ_CHECK(!benchmark.failure.empty() || std::isfinite(benchmark.mean_seconds));
  }
  perfduel::MetricSpec metric;
  metric.name = "mean";
  metric.source = perfduel::MetricSource::catch2;
  metric.benchmark = benchmarks->empty() ? std::string("absent") : benchmarks->front().name;
  metric.field = "mean";
  const auto value = perfduel::fuzz::extract_checked(metric, out);
  // Succeeds exactly when no benchmark of that name failed (several are combined).
  const bool any_failed = std::any_of(benchmarks->begin(), benchmarks->end(), [&](const auto& benchmark) {
    return benchmark.name == metric.benchmark && !benchmark.failure.empty();
  });
  PERFDUEL_FUZZ_CHECK(value.ok() == (!benchmarks->empty() && !any_failed));
  return 0;
}
