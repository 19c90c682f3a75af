// libFuzzer target: the YAML configuration loader (parse_config, behind load_config).
// Input: the text of a perfduel.yaml. A bad file must end in perfduel::Error (a message naming
// the line), never in another exception, a crash or undefined behaviour; an accepted one must
// satisfy what the rest of perfduel relies on, and its JSON form (written into every report)
// must read back to the same configuration, as `perfduel analyze` does.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "config/config.hpp"
#include "error.hpp"
#include "fuzz_support.hpp"

namespace {

void check_invariants(const perfduel::Config& config) {
  PERFDUEL_FUZZ_CHECK(!config.metrics.empty());
  PERFDUEL_FUZZ_CHECK(!config.gated_metrics().empty());
  PERFDUEL_FUZZ_CHECK(config.confidence > 0 && config.confidence < 1);
  PERFDUEL_FUZZ_CHECK(config.min_rounds >= 1 && config.min_rounds <= config.max_rounds);
  PERFDUEL_FUZZ_CHECK(std::isfinite(config.max_seconds) && config.max_seconds >= 0);
  PERFDUEL_FUZZ_CHECK(std::isfinite(config.run_timeout) && config.run_timeout > 0);
  std::set<std::string> names;
  for (const auto& metric : config.metrics) {
    PERFDUEL_FUZZ_CHECK(!metric.name.empty());
    PERFDUEL_FUZZ_CHECK(names.insert(metric.name).second);
    PERFDUEL_FUZZ_CHECK(std::isfinite(metric.threshold) && metric.threshold > 0);
    PERFDUEL_FUZZ_CHECK(std::isfinite(metric.tolerance) && metric.tolerance >= 0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  perfduel::Config config;
  try {
    config = perfduel::parse_config(text, "fuzz.yaml");
  } catch (const perfduel::Error&) {
    return 0;  // rejected with a message: the expected outcome for most inputs
  }
  check_invariants(config);
  const std::string json = perfduel::config_to_json(config);
  perfduel::Config again;
  try {
    again = perfduel::parse_config(json, "fuzz.json");
  } catch (const perfduel::Error& e) {
    perfduel::fuzz::fail("the JSON form of an accepted configuration is rejected", e.what());
  }
  PERFDUEL_FUZZ_CHECK(perfduel::config_to_json(again) == json);
  return 0;
}
