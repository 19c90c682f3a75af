// libFuzzer target: a `regex:` metric read from a benchmark's stdout (MetricExtractor).
// Input: one byte choosing one of the patterns below (as a configuration would write them),
// then the output. The value is finite or the metric fails with a message; nothing throws.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"

namespace {

// Patterns of the kinds the README and templates show; each has one capture group.
constexpr std::array k_patterns{
    R"(score: (\d+))",       R"(time: ([0-9.eE+-]+) ms)",
    R"(^throughput=(\S+)$)", R"(([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?) ops/s)",
    R"(\[(.*)\])",           R"((?:total|sum)\s*[:=]\s*(\S*))",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  perfduel::MetricSpec metric;
  metric.name = "score";
  metric.source = perfduel::MetricSource::regex;
  metric.pattern = k_patterns[data[0] % k_patterns.size()];
  (void)perfduel::fuzz::extract_checked(metric,
                                        std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  return 0;
}
