// libFuzzer target: a `json_pointer:` metric read from a benchmark's JSON stdout.
// Input: the JSON pointer on the first line (skipped unless the configuration would accept
// it), then the output. The value is finite and equals the number at the pointer, or the
// metric fails with a message; nothing throws.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  if (newline == std::string::npos) {
    return 0;
  }
  perfduel::MetricSpec metric;
  metric.name = "value";
  metric.source = perfduel::MetricSource::json_pointer;
  metric.pattern = input.substr(0, newline);
  try {
    (void)nlohmann::json::json_pointer(metric.pattern);  // what the configuration checks
  } catch (const nlohmann::json::exception&) {
    return 0;
  }
  const std::string out = input.substr(newline + 1);
  const auto value = perfduel::fuzz::extract_checked(metric, out);
  if (value) {
    // The same number as a direct look-up finds.
    const auto document = nlohmann::json::parse(out);
    const auto& number = document.at(nlohmann::json::json_pointer(metric.pattern));
    PERFDUEL_FUZZ_CHECK(number.is_number() && number.get<double>() == *value);
  }
  return 0;
}
