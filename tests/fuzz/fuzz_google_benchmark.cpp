// libFuzzer target: `google_benchmark:` metrics read from Google Benchmark's JSON on stdout.
// Input: the output. The metrics are the fields real_time, cpu_time and a counter of the
// benchmarks the output itself names (up to three), and of one it does not: each value is
// finite or the metric fails with a message; nothing throws.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"

namespace {

// The names of the benchmarks in `out` (at most three), found without the extractor's code.
std::vector<std::string> named_benchmarks(const std::string& out) {
  std::vector<std::string> names{"BM_absent"};
  const auto document = nlohmann::json::parse(out, nullptr, false);
  if (!document.is_object() || !document.contains("benchmarks") || !document["benchmarks"].is_array()) {
    return names;
  }
  for (const auto& entry : document["benchmarks"]) {
    if (entry.is_object() && entry.contains("name") && entry["name"].is_string() && names.size() < 4) {
      names.push_back(entry["name"].get<std::string>());
    }
  }
  return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string out(reinterpret_cast<const char*>(data), size);
  for (const auto& name : named_benchmarks(out)) {
    for (const char* field : {"real_time", "cpu_time", "items_per_second"}) {
      perfduel::MetricSpec metric;
      metric.name = "time";
      metric.source = perfduel::MetricSource::google_benchmark;
      metric.benchmark = name;
      metric.field = field;
      (void)perfduel::fuzz::extract_checked(metric, out);
    }
  }
  return 0;
}
