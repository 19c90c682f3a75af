// libFuzzer target: a JSON report read back by `perfduel analyze` (report_from_json_strict, then the
// analysis of its runs), and by `summary`, `record` and `bisect` (report_from_json_lenient). Input: the
// report file's text. A bad report must end in perfduel::Error (a message naming it), never in
// another exception or a crash; the lenient reader never throws.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "duel/analysis.hpp"
#include "error.hpp"
#include "fuzz_support.hpp"
#include "report_format/json_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // As read_report_json parses the file.
  const auto json = nlohmann::ordered_json::parse(text, nullptr, false);
  if (json.is_discarded()) {
    return 0;
  }
  const auto results = perfduel::report_from_json_lenient(json);
  PERFDUEL_FUZZ_CHECK(results.has_metrics || results.metrics.empty());
  for (const auto& run : results.runs) {
    PERFDUEL_FUZZ_CHECK(run.values.size() == results.value_names.size());
  }
  try {
    const auto report = perfduel::report_from_json_strict(json, "fuzz.json");
    for (const auto& run : report.runs) {
      PERFDUEL_FUZZ_CHECK(run.values.size() == report.config.metrics.size());
    }
    const auto analysis = perfduel::analyze(report.config, report.runs, perfduel::Finality::final);
    PERFDUEL_FUZZ_CHECK(analysis.metrics.size() <= report.config.metrics.size());
  } catch (const perfduel::Error&) {
    return 0;
  }
  return 0;
}
