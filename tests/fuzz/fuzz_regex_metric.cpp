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
  const std::size_t which = data[0] % k_patterns.size();
  metric.pattern = k_patterns[which];
  std::string out(reinterpret_cast<const char*>(data) + 1, size - 1);
  // std::regex backtracks: the `ops/s` pattern's two quantifiers over digits cost O(n^3) on a
  // run of n digits (14 s for 310 under the sanitizers, past -timeout at ~400). That is
  // std::regex's cost on hostile output, not the extractor's fault: its output stays short.
  constexpr std::size_t k_ops_pattern = 3;
  constexpr std::size_t k_ops_output_limit = 128;
  if (which == k_ops_pattern && out.size() > k_ops_output_limit) {
    out.resize(k_ops_output_limit);
  }
  (void)perfduel::fuzz::extract_checked(metric, out);
  return 0;
}
